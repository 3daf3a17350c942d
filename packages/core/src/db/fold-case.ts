/**
 * The case folding of the case-insensitive lookups (`iexact`, `icontains`, `istartswith`,
 * `iendswith`) and of the search filter, the same on every database: each character is
 * upper-cased, then lower-cased, one character for one (Unicode's simple case mappings, as
 * glibc's `towupper`/`towlower`, which PostgreSQL's `upper`/`lower` use under a UTF-8
 * locale, and MariaDB's under its Unicode 14 collation). Accents are kept: `CAFÉ` folds to
 * `café`, never to `cafe`.
 *
 * Upper then lower, rather than lower alone, so that letters with two lower-case forms meet:
 * Greek final `ς` and `σ` both fold to `σ` (`ΟΔΟΣ` finds `οδος`), the long `ſ` folds to `s`,
 * the micro sign to `μ`. One character for one: `ß` stays `ß` (it finds `ẞ`, not `SS`), and
 * the Turkish dotted `İ` and dotless `ı` both fold to `i`.
 *
 * SQLite has no such function (its `lower()` and `LIKE` fold ASCII letters only): the adapter
 * registers {@link foldCase} on its connection. PostgreSQL and MySQL/MariaDB fold in SQL
 * (see their adapters' `foldCase`).
 * @module
 */

/** Text of ASCII characters only: `toLowerCase()` alone is the fold. */
const ASCII = /^[\0-\x7f]*$/;

/**
 * The characters whose fold is not their lower case (besides `ς`): `µ`, `İ`, `ı`, `ſ`, the
 * Greek letter symbols (`ϐ`, `ϑ`...), old Cyrillic forms, and the combining iota (apart from
 * the class: a mark). Upper-casing first is what turns them into a letter others fold to too
 * (`ſ` → `S` → `s`). A test checks the list against every code point, so a newer Unicode in
 * Node.js that adds one fails there.
 */
const UNLIKE_LOWER =
  /\u0345|[\u00b5\u0130-\u0131\u017f\u03d0-\u03d1\u03d5-\u03d6\u03f0-\u03f1\u03f5\u1c80-\u1c88\u1e9b\u1fbe]/g;

/**
 * `text` case-folded (see the module): what the case-insensitive lookups compare on every
 * database.
 *
 * @example
 * ```ts
 * foldCase('CAFÉ'); // 'café'
 * foldCase('ΟΔΟΣ'); // 'οδοσ', as foldCase('οδος')
 * foldCase('STRAẞE'); // 'straße'; foldCase('STRASSE') is 'strasse'
 * ```
 */
export function foldCase(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  // Lower-casing the whole text is the fold for all but a few letters, folded first, and
  // but for its one rule of context: a final sigma becomes `ς` (σ once folded).
  return text.replace(UNLIKE_LOWER, foldEach).toLowerCase().replaceAll('ς', 'σ');
}

/** {@link foldCase} one code point at a time: the definition, and the path for rare letters. */
export function foldEach(text: string): string {
  let folded = '';
  for (const character of text) folded += lowerOne(upperOne(character));
  return folded;
}

function upperOne(character: string): string {
  const upper = character.toUpperCase();
  return isOneCodePoint(upper) ? upper : character;
}

function lowerOne(character: string): string {
  // `İ` lower-cases to `i` and a combining dot in full; its simple mapping is `i`.
  if (character === '\u0130') return 'i';
  const lower = character.toLowerCase();
  return isOneCodePoint(lower) ? lower : character;
}

function isOneCodePoint(text: string): boolean {
  return text.length === 1 || (text.length === 2 && (text.codePointAt(0) as number) > 0xffff);
}
