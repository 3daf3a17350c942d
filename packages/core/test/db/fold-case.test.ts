/**
 * foldCase, the case folding of the case-insensitive lookups on every database: its fast
 * paths give, for every code point and beside a final sigma, what folding one character at a
 * time gives (so a letter whose case mapping is more than one character in a newer Node.js
 * fails here), and the letters whose case is special fold as documented.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldCase } from '@restframework/core';
import { foldEach } from '@restframework/core/internal';

describe('foldCase', () => {
  it('folds every code point as folding it alone does, in any context', () => {
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const cased = c.toUpperCase() !== c || c.toLowerCase() !== c;
      for (const text of cased ? [c, `ΑΣ${c}`, `${c}Σ.`] : [c]) {
        if (foldCase(text) !== foldEach(text)) wrong.push(`U+${cp.toString(16)} in ${text}`);
      }
    }
    assert.deepEqual(wrong.slice(0, 20), []);
  });

  it('upper-cases then lower-cases one character for one, accents kept', () => {
    const cases: [string, string][] = [
      ['CAFÉ', 'café'],
      ['Ho Café', 'ho café'],
      ['NAÏVE', 'naïve'],
      ['ÄÖÜ', 'äöü'],
      ['ΟΔΟΣ οδος', 'οδοσ οδοσ'],
      ['ΣΑΣ.', 'σασ.'],
      ['STRAẞE straße', 'straße straße'],
      ['STRASSE', 'strasse'],
      ['İSTANBUL ılık', 'istanbul ilik'],
      ['ſ µ K', 's μ k'],
      ['ﬁ ŉ ᾳ', 'ﬁ ŉ ᾳ'],
      ['МОСКВА Ёж', 'москва ёж'],
      ['ǄǅǆǇ', 'ǆǆǆǉ'],
      ['100% A_B \\', '100% a_b \\'],
      ['', ''],
    ];
    for (const [text, folded] of cases) assert.equal(foldCase(text), folded, text);
  });
});
