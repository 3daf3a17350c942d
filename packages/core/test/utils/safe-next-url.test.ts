/**
 * `safeNextUrl`: where a login or logout may send a browser on to. Only paths of this
 * service; any text that a browser could read as another host is refused, whatever it holds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { safeNextUrl } from '@restframework/core/internal';
import fc from 'fast-check';

describe('safeNextUrl', () => {
  it('keeps paths of this service, query and fragment included', () => {
    for (const path of [
      '/',
      '/books/api/books/',
      '/manage/api/books/?page=2&ordering=-title',
      '/a#b',
    ])
      assert.equal(safeNextUrl(path), path);
  });

  it('refuses other sites and anything a browser may read as a host', () => {
    for (const value of [
      'https://evil.example/',
      'http:/evil.example/',
      '//evil.example/',
      '/\\evil.example/',
      '\\\\evil.example',
      '/\t/evil.example',
      '/ /evil.example',
      'javascript:alert(1)',
      'evil.example/',
      '',
      '/'.padEnd(3000, 'a'),
      undefined,
      ['/'],
    ])
      assert.equal(safeNextUrl(value), undefined, JSON.stringify(value));
  });

  it('answers only values that stay on the service when resolved by a browser', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.webUrl(), fc.webPath(), fc.constantFrom('//', '/\\')).map(String),
        (value) => {
          const kept = safeNextUrl(value);
          if (kept === undefined) return;
          assert.equal(kept, value);
          const resolved = new URL(kept, 'https://service.example/page/');
          assert.equal(resolved.origin, 'https://service.example');
          assert.ok(kept.startsWith('/') && !kept.startsWith('//'));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
