/**
 * The terms of a search query, as DRF's `SearchFilter.get_search_terms`: NUL characters are
 * dropped, commas separate like spaces, a quoted phrase (`"new york"`) is one term.
 * @module
 */

/** The most terms one search uses, and the longest query text: a client sends both. */
export const MAX_SEARCH_TERMS = 10;
export const MAX_SEARCH_LENGTH = 500;

/**
 * Splits `text` into terms; a phrase in double quotes keeps its spaces (an unclosed quote
 * runs to the end). Empty terms are dropped; `""` searches nothing.
 *
 * @example
 * ```ts
 * searchTerms('dune "children of"  herbert,frank'); // ['dune', 'children of', 'herbert', 'frank']
 * ```
 */
export function searchTerms(text: string): string[] {
  // Most requests search nothing: no pattern, no iterator for them.
  if (text === '') return [];
  const clean = text.replaceAll('\u0000', '').replaceAll(',', ' ');
  const terms: string[] = [];
  const pattern = /"([^"]*)"?|(\S+)/g;
  for (const match of clean.matchAll(pattern)) {
    const term = (match[1] ?? match[2] ?? '').trim();
    if (term) terms.push(term);
  }
  return terms;
}
