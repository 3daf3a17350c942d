/**
 * Request ids: a well-formed incoming X-Request-Id is kept (in the answer and the logs), any
 * other is replaced by a fresh UUID, so that a client cannot forge log lines or grow them.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import {
  Database,
  genReqId,
  REQUEST_ID_PATTERN,
  restFramework,
  serverOptions,
} from '@restframework/core';
import fc from 'fast-check';
import Fastify from 'fastify';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('keeps a well-formed id and replaces any other', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/), (id) => {
        assert.equal(genReqId({ headers: { 'x-request-id': id } } as never), id);
      }),
    );
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }).filter((id) => !REQUEST_ID_PATTERN.test(id)),
        (id) => {
          assert.match(genReqId({ headers: { 'x-request-id': id } } as never), UUID);
        },
      ),
    );
    assert.match(genReqId({ headers: {} } as never), UUID);
    assert.match(genReqId({ headers: { 'x-request-id': 'a'.repeat(129) } } as never), UUID);
    assert.match(genReqId({ headers: { 'x-request-id': 'a\nforged' } } as never), UUID);
  });

  it('sends the id back and logs it with the request', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream }, ...serverOptions() });
    const db = Database.connect('sqlite::memory:');
    await app.register(restFramework, { database: db });
    app.get('/x', async () => ({ ok: true }));
    try {
      const kept = await app.inject({
        url: '/x',
        headers: { host: 'localhost', 'x-request-id': 'lb-1234.abc' },
      });
      assert.equal(kept.headers['x-request-id'], 'lb-1234.abc');
      assert.ok(lines.some((line) => JSON.parse(line).reqId === 'lb-1234.abc'));
      const replaced = await app.inject({
        url: '/x',
        headers: { host: 'localhost', 'x-request-id': 'has space' },
      });
      assert.match(String(replaced.headers['x-request-id']), UUID);
      // A refused host still carries the id.
      const refused = await app.inject({ url: '/x', headers: { host: 'evil.example' } });
      assert.equal(refused.statusCode, 400);
      assert.match(String(refused.headers['x-request-id']), UUID);
    } finally {
      await app.close();
      await db.close();
    }
  });
});
