/**
 * The accent folding of the lookups a view opts into with `unaccent`
 * (`title__unaccent__icontains`, a search field `'title__unaccent'`), the same where the
 * database can: each letter decomposed (Unicode's NFD), its combining diacritical marks
 * dropped, the rest composed again (NFC). `é` folds to `e`, `Å` to `A`, `й` to `и`; letters
 * whose stroke is no mark keep it (`ø`, `ł`, `đ`), and `ß` stays `ß`. Case is folded apart
 * (see `db/fold-case.ts`), after the accents.
 *
 * SQLite calls {@link foldAccents} through a function its adapter registers; PostgreSQL
 * runs the same steps in SQL (`normalize`, then `regexp_replace` of {@link COMBINING_MARKS});
 * MySQL/MariaDB have no normalization, and declare no `accentFolding` capability.
 * @module
 */

/**
 * The combining diacritical marks dropped, as a regular-expression class that JavaScript and
 * PostgreSQL both read: the blocks of the marks letters decompose into (U+0300–036F), their
 * extensions and supplement, the marks for symbols and the half marks.
 */
export const COMBINING_MARKS =
  '[\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f]';

const MARKS = new RegExp(COMBINING_MARKS, 'g');
/** ASCII text has no accents to fold. */
const ASCII = /^[\0-\x7f]*$/;

/**
 * `text` with its accents folded (see the module).
 *
 * @example
 * ```ts
 * foldAccents('Crème brûlée'); // 'Creme brulee'
 * foldAccents('Ångström, Øresund'); // 'Angstrom, Øresund'
 * ```
 */
export function foldAccents(text: string): string {
  if (ASCII.test(text)) return text;
  return text.normalize('NFD').replace(MARKS, '').normalize('NFC');
}
