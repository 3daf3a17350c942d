/** `httpMethodName` is `toLowerCase()` for every text: Fastify's methods and any other. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { httpMethodName } from '@restframework/core/internal';
import fc from 'fast-check';

describe('httpMethodName', () => {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];
  for (const method of [...methods, 'get', 'Patch', 'PROPFIND', 'CONNECT', '']) {
    it(`${JSON.stringify(method)} → ${JSON.stringify(method.toLowerCase())}`, () => {
      assert.equal(httpMethodName(method), method.toLowerCase());
    });
  }

  it('agrees with toLowerCase() on any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...methods), fc.string()), (text) => {
        assert.equal(httpMethodName(text), text.toLowerCase());
      }),
    );
  });
});
