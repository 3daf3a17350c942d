/** `UrlRegistry.reverse`: integers are written as they are, anything else URL-encoded. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UrlRegistry } from '@restframework/core';

describe('UrlRegistry.reverse', () => {
  const registry = new UrlRegistry();
  registry.add('book-detail', '/books/:pk/');
  registry.add('chapter', '/books/:book/chapters/:number/');

  it('writes integer keys as their digits, as encodeURIComponent would', () => {
    for (const pk of [0, 7, -3, -0, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      assert.equal(
        registry.reverse('book-detail', { pk }),
        `/books/${encodeURIComponent(String(pk))}/`,
      );
    }
    assert.equal(registry.reverse('chapter', { book: 12, number: 3 }), '/books/12/chapters/3/');
  });

  it('encodes every other value', () => {
    assert.equal(registry.reverse('book-detail', { pk: 1e21 }), '/books/1e%2B21/');
    assert.equal(registry.reverse('book-detail', { pk: 1.5 }), '/books/1.5/');
    assert.equal(registry.reverse('book-detail', { pk: 'a b/c' }), '/books/a%20b%2Fc/');
    assert.equal(registry.reverse('book-detail', { pk: 2n }), '/books/2/');
    assert.equal(
      registry.reverse('chapter', { book: 'é', number: 3 }),
      '/books/%C3%A9/chapters/3/',
    );
  });

  it('still refuses a missing parameter', () => {
    assert.throws(() => registry.reverse('book-detail', {}), /needs the parameter "pk"/);
    assert.throws(() => registry.reverse('book-detail', { pk: null }), /needs the parameter "pk"/);
  });
});
