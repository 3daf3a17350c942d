/**
 * A `Request` keeps its defaults (anonymous user, no renderer yet, ...) on its prototype, so
 * that making one per request defines only what differs; setting one on a request never
 * changes another's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UrlRegistry } from '@restframework/core';
import { ANONYMOUS_USER, type APISettings, Request } from '@restframework/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

function makeRequest(method = 'GET'): Request {
  const raw = { method, url: '/x/', headers: {}, query: {} } as unknown as FastifyRequest;
  return new Request(raw, {} as FastifyReply, {} as APISettings, {} as UrlRegistry);
}

describe('Request defaults', () => {
  it('defines only what each request holds: the rest is read from the prototype', () => {
    const request = makeRequest();
    assert.deepEqual(Object.keys(request).sort(), [
      'data',
      'raw',
      'reply',
      'settings',
      'uploadedFiles',
    ]);
    assert.equal(request.user, ANONYMOUS_USER);
    assert.equal(request.auth, null);
    assert.equal(request.closeConnection, false);
    assert.equal(request.acceptedRenderer, null);
    assert.equal(request.acceptedMediaType, '');
    assert.equal(request.methodOverride, undefined);
    assert.deepEqual(request.data, {});
    assert.deepEqual(request.uploadedFiles, []);
  });

  it('never shares what one request sets with another, nor its body or uploads', () => {
    const first = makeRequest('POST');
    const second = makeRequest('POST');
    first.user = { isAuthenticated: true };
    first.auth = 'token';
    first.closeConnection = true;
    first.acceptedMediaType = 'application/json';
    first.methodOverride = 'PUT';
    (first.data as Record<string, unknown>).title = 'Dune';
    first.uploadedFiles.push({} as never);
    assert.equal(second.user, ANONYMOUS_USER);
    assert.equal(second.auth, null);
    assert.equal(second.closeConnection, false);
    assert.equal(second.acceptedMediaType, '');
    assert.equal(second.method, 'POST');
    assert.equal(first.method, 'PUT');
    assert.deepEqual(second.data, {});
    assert.deepEqual(second.uploadedFiles, []);
    first.methodOverride = undefined;
    assert.equal(first.method, 'POST');
  });

  it('tells safe methods, the override included', () => {
    const table: [string, string | undefined, boolean][] = [
      ['GET', undefined, true],
      ['HEAD', undefined, true],
      ['OPTIONS', undefined, true],
      ['POST', undefined, false],
      ['PUT', undefined, false],
      ['PATCH', undefined, false],
      ['DELETE', undefined, false],
      ['OPTIONS', 'POST', false],
      ['POST', 'GET', true],
    ];
    for (const [method, override, safe] of table) {
      const request = makeRequest(method);
      request.methodOverride = override;
      assert.equal(request.isSafeMethod, safe, `${method} as ${override}`);
    }
  });
});
