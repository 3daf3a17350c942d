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
 * The characters whose full case mapping in JavaScript is more than one character (`ß` upper-
 * cases to `SS`, `İ` lower-cases to `i̇`, `ﬁ` to `FI`...): these are folded one at a time.
 * A test checks the list against every code point, so a newer Unicode in Node.js that adds
 * one fails there.
 */
const MULTIPLE =
  /[\u00df\u0130\u0149\u01f0\u0390\u03b0\u0587\u1e96-\u1e9a\u1f50\u1f52\u1f54\u1f56\u1f80-\u1faf\u1fb2-\u1fb4\u1fb6-\u1fb7\u1fbc\u1fc2-\u1fc4\u1fc6-\u1fc7\u1fcc\u1fd2-\u1fd3\u1fd6-\u1fd7\u1fe2-\u1fe4\u1fe6-\u1fe7\u1ff2-\u1ff4\u1ff6-\u1ff7\u1ffc\ufb00-\ufb06\ufb13-\ufb17]/;
const EACH_MULTIPLE = new RegExp(MULTIPLE.source, 'g');

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
  if (!MULTIPLE.test(text)) return foldWhole(text);
  // Each character folds on its own: the text between the rare letters folds as a whole.
  let folded = '';
  let from = 0;
  for (const match of text.matchAll(EACH_MULTIPLE)) {
    folded += foldWhole(text.slice(from, match.index)) + foldEach(match[0]);
    from = match.index + match[0].length;
  }
  return folded + foldWhole(text.slice(from));
}

/**
 * Text without the rare letters: the whole-string mappings are one for one there, but for
 * lower-casing's one rule of context, a final sigma becoming `ς`. Every sigma was upper-cased
 * first, so each `ς` came from that rule.
 */
function foldWhole(text: string): string {
  return text.toUpperCase().toLowerCase().replaceAll('ς', 'σ');
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
