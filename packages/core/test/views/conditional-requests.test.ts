/**
 * Conditional requests through generic views on the three databases: validators on retrieve
 * and list, 304 for what the client has, 412 for a write on a changed row, 428 when the view
 * requires a precondition, 400 for a malformed `If-Match` and never a 500 for any header
 * value; and concurrent writers that all send the same `If-Match`: exactly one wins, no
 * update is lost.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BrowsableAPIRenderer,
  type Database,
  DefaultRouter,
  defineModel,
  JSONRenderer,
  ModelSerializer,
  ModelViewSet,
  models,
  restFramework,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';

const Note = defineModel({
  name: 'Note',
  table: 'cond_note',
  fields: {
    text: models.CharField({ maxLength: 100 }),
    counter: models.IntegerField({ default: 0 }),
    version: models.IntegerField({ default: 0 }),
    updated_at: models.DateTimeField({ autoNow: true }),
  },
  ordering: ['id'],
});

class NoteSerializer extends ModelSerializer.with({
  model: Note,
  fields: ['id', 'text', 'counter', 'version', 'updated_at'],
  readOnlyFields: ['version'],
}) {}

class VersionedNotes extends ModelViewSet {
  override queryset = Note.objects.all();
  override serializerClass = NoteSerializer;
  override versionField = 'version';
  override lastModifiedField = 'updated_at';
}

class StrictNotes extends VersionedNotes {
  override requirePrecondition = true;
}

class HashedNotes extends ModelViewSet {
  override queryset = Note.objects.all();
  override serializerClass = NoteSerializer;
  override useETags = true;
}

class TimedNotes extends ModelViewSet {
  override queryset = Note.objects.all();
  override serializerClass = NoteSerializer;
  override lastModifiedField = 'updated_at';
}

class PlainNotes extends ModelViewSet {
  override queryset = Note.objects.all();
  override serializerClass = NoteSerializer;
}

const HOST = { host: '127.0.0.1', accept: 'application/json' };

for (const dialect of testDialects()) {
  describe(`conditional requests on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let id: number;

    before(async () => {
      db = await dialect.create();
      await db.migrate([Note]);
      const note = await Note.objects.using(db).create({ text: 'first' });
      id = note.id as number;
      app = Fastify({ logger: false });
      await app.register(restFramework, { database: db });
      const router = new DefaultRouter()
        .register('versioned', VersionedNotes, { basename: 'versioned' })
        .register('strict', StrictNotes, { basename: 'strict' })
        .register('hashed', HashedNotes, { basename: 'hashed' })
        .register('timed', TimedNotes, { basename: 'timed' })
        .register('plain', PlainNotes, { basename: 'plain' });
      await app.register(router.plugin, { prefix: '/api' });
      await app.ready();
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    const get = (url: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url, headers: { ...HOST, ...headers } });
    const patch = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'PATCH',
        url,
        payload: JSON.stringify(body),
        headers: { ...HOST, 'content-type': 'application/json', ...headers },
      });

    it('retrieve carries a strong ETag from the version and Last-Modified', async () => {
      const response = await get(`/api/versioned/${id}/`);
      assert.equal(response.statusCode, 200);
      const version = response.json().version;
      assert.equal(response.headers.etag, `"${version}.json"`);
      assert.match(String(response.headers['last-modified']), /^\w{3}, \d{2} \w{3} \d{4} .* GMT$/);
    });

    it('If-None-Match naming the ETag (weakly too) answers 304 with no body', async () => {
      const first = await get(`/api/versioned/${id}/`);
      const etag = String(first.headers.etag);
      for (const sent of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const response = await get(`/api/versioned/${id}/`, { 'if-none-match': sent });
        assert.equal(response.statusCode, 304, sent);
        assert.equal(response.body, '');
        assert.equal(response.headers.etag, etag);
      }
      const head = await app.inject({
        method: 'HEAD',
        url: `/api/versioned/${id}/`,
        headers: { ...HOST, 'if-none-match': etag },
      });
      assert.equal(head.statusCode, 304);
      const other = await get(`/api/versioned/${id}/`, { 'if-none-match': '"nope"' });
      assert.equal(other.statusCode, 200);
    });

    it('If-Modified-Since answers 304 unless the row changed after it', async () => {
      const first = await get(`/api/timed/${id}/`);
      const lastModified = String(first.headers['last-modified']);
      assert.equal(first.headers.etag, undefined);
      const same = await get(`/api/timed/${id}/`, { 'if-modified-since': lastModified });
      assert.equal(same.statusCode, 304);
      const before = new Date(Date.parse(lastModified) - 5000).toUTCString();
      const older = await get(`/api/timed/${id}/`, { 'if-modified-since': before });
      assert.equal(older.statusCode, 200);
      // Not a date: ignored (RFC 9110, 13.1.3).
      const junk = await get(`/api/timed/${id}/`, { 'if-modified-since': 'yesterday' });
      assert.equal(junk.statusCode, 200);
    });

    it('a hashed weak ETag on retrieve and list; 304 when it matches', async () => {
      for (const url of [`/api/hashed/${id}/`, '/api/hashed/']) {
        const first = await get(url);
        assert.equal(first.statusCode, 200);
        const etag = String(first.headers.etag);
        assert.match(etag, /^W\/"[\w-]+"$/);
        const again = await get(url, { 'if-none-match': etag });
        assert.equal(again.statusCode, 304, url);
        assert.equal(again.body, '');
      }
    });

    it('a write with the current ETag runs and moves the version; a stale one gets 412', async () => {
      const first = await get(`/api/versioned/${id}/`);
      const etag = String(first.headers.etag);
      const written = await patch(
        `/api/versioned/${id}/`,
        { text: 'second' },
        { 'if-match': etag },
      );
      assert.equal(written.statusCode, 200, written.body);
      assert.equal(written.json().version, first.json().version + 1);
      assert.equal(written.headers.etag, `"${written.json().version}.json"`);
      const stale = await patch(`/api/versioned/${id}/`, { text: 'third' }, { 'if-match': etag });
      assert.equal(stale.statusCode, 412);
      assert.equal(stale.json().detail, 'Precondition failed: the resource has changed.');
      const now = await get(`/api/versioned/${id}/`);
      assert.equal(now.json().text, 'second');
      // A weak tag never matches If-Match (strong comparison).
      const weak = await patch(
        `/api/versioned/${id}/`,
        { text: 'x' },
        { 'if-match': `W/${now.headers.etag}` },
      );
      assert.equal(weak.statusCode, 412);
    });

    it('a write without precondition still moves the version', async () => {
      const before = (await get(`/api/versioned/${id}/`)).json().version;
      const written = await patch(`/api/versioned/${id}/`, { text: 'unguarded' });
      assert.equal(written.statusCode, 200);
      assert.equal(written.json().version, before + 1);
    });

    it('If-Unmodified-Since before the last change gets 412; at or after it, the write runs', async () => {
      const first = await get(`/api/timed/${id}/`);
      const lastModified = Date.parse(String(first.headers['last-modified']));
      const earlier = new Date(lastModified - 10_000).toUTCString();
      const refused = await patch(
        `/api/timed/${id}/`,
        { text: 'late' },
        { 'if-unmodified-since': earlier },
      );
      assert.equal(refused.statusCode, 412);
      const later = new Date(lastModified + 10_000).toUTCString();
      const ok = await patch(
        `/api/timed/${id}/`,
        { text: 'timely' },
        { 'if-unmodified-since': later },
      );
      assert.equal(ok.statusCode, 200, ok.body);
    });

    it('428 when the view requires a precondition and none came; If-Match: * is none', async () => {
      for (const headers of [{}, { 'if-match': '*' }, { 'if-unmodified-since': 'garbage' }]) {
        const response = await patch(`/api/strict/${id}/`, { text: 'blind' }, headers);
        assert.equal(response.statusCode, 428, JSON.stringify(headers));
        assert.match(response.json().detail, /must be conditional/);
      }
      const gone = await app.inject({ method: 'DELETE', url: `/api/strict/${id}/`, headers: HOST });
      assert.equal(gone.statusCode, 428);
      const etag = String((await get(`/api/strict/${id}/`)).headers.etag);
      const ok = await patch(`/api/strict/${id}/`, { text: 'guarded' }, { 'if-match': etag });
      assert.equal(ok.statusCode, 200);
    });

    it('a 404 wins over a precondition', async () => {
      const response = await patch(
        '/api/strict/999999/',
        { text: 'x' },
        { 'if-match': '"1.json"' },
      );
      assert.equal(response.statusCode, 404);
    });

    it('a view without validators ignores preconditions, as DRF views do', async () => {
      const ignored = await patch(`/api/plain/${id}/`, { text: 'x' }, { 'if-match': '"1.json"' });
      assert.equal(ignored.statusCode, 200);
      assert.equal(ignored.headers.etag, undefined);
    });

    it('If-Match on a view with only weak tags fails unless it is *', async () => {
      const etag = String((await get(`/api/hashed/${id}/`)).headers.etag);
      const failed = await patch(`/api/hashed/${id}/`, { text: 'x' }, { 'if-match': etag });
      assert.equal(failed.statusCode, 412);
      const star = await patch(`/api/hashed/${id}/`, { text: 'star' }, { 'if-match': '*' });
      assert.equal(star.statusCode, 200);
    });

    it('any header value: 2xx, 304, 400, 412 or 428, never a 500', async () => {
      const value = fc.oneof(
        fc.string(),
        fc.constantFrom(
          '*',
          '"1.json"',
          'W/"x"',
          '"a", "b"',
          ',,',
          'W/',
          '"',
          'Sun, 06 Nov 1994 08:49:37 GMT',
        ),
        fc
          .array(fc.constantFrom('"', 'W/', ',', ' ', 'a', '*', '\\t'), { maxLength: 8 })
          .map((parts) => parts.join('')),
      );
      const name = fc.constantFrom(
        'if-match',
        'if-none-match',
        'if-modified-since',
        'if-unmodified-since',
      );
      await fc.assert(
        fc.asyncProperty(
          name,
          value,
          fc.constantFrom('GET', 'PATCH', 'DELETE'),
          async (header, text, method) => {
            // Only what HTTP lets through a header.
            const clean = text.replace(/[^\t\x20-\x7e]/g, '');
            const response = await app.inject({
              method: method as 'GET',
              url: `/api/strict/${id}/`,
              headers: { ...HOST, 'content-type': 'application/json', [header]: clean },
              ...(method === 'PATCH' ? { payload: '{}' } : {}),
            });
            assert.ok(
              [200, 304, 400, 412, 428].includes(response.statusCode),
              `${method} ${header}: ${JSON.stringify(clean)} → ${response.statusCode} ${response.body}`,
            );
            if (response.statusCode === 400)
              assert.match(response.json().detail, /^Malformed If-(None-)?Match header/);
          },
        ),
        { numRuns: 150 },
      );
    });

    it('concurrent writers with the same If-Match: one wins, the others get 412, no lost update', async () => {
      const note = await Note.objects.using(db).create({ text: 'race', counter: 0 });
      const url = `/api/versioned/${note.id}/`;
      const first = await get(url);
      const etag = String(first.headers.etag);
      const writers = 6;
      const answers = await Promise.all(
        Array.from({ length: writers }, (_, i) =>
          patch(url, { counter: i + 1, text: `writer ${i + 1}` }, { 'if-match': etag }),
        ),
      );
      const statuses = answers.map((a) => a.statusCode).sort();
      assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join());
      assert.equal(statuses.filter((s) => s === 412).length, writers - 1, statuses.join());
      const winner = answers.find((a) => a.statusCode === 200)?.json();
      const stored = await Note.objects.using(db).get({ pk: note.id });
      assert.equal(stored.counter, winner.counter);
      assert.equal(stored.version, (first.json().version as number) + 1);
    });

    it('read-modify-write loops with If-Match lose no increment', async () => {
      const note = await Note.objects.using(db).create({ text: 'loop', counter: 0 });
      const url = `/api/versioned/${note.id}/`;
      const increment = async () => {
        for (;;) {
          const read = await get(url);
          const written = await patch(
            url,
            { counter: read.json().counter + 1 },
            { 'if-match': String(read.headers.etag) },
          );
          if (written.statusCode === 200) return;
          assert.equal(written.statusCode, 412, written.body);
        }
      };
      await Promise.all(Array.from({ length: 5 }, increment));
      const stored = await Note.objects.using(db).get({ pk: note.id });
      assert.equal(stored.counter, 5);
    });
  });
}

describe('conditional fields are checked at start-up', () => {
  it('a versionField that is no integer field fails with REST_ERR_CONDITIONAL', async () => {
    class Wrong extends ModelViewSet {
      override queryset = Note.objects.all();
      override serializerClass = NoteSerializer;
      override versionField = 'text';
    }
    class Writable extends ModelViewSet {
      override queryset = Note.objects.all();
      override serializerClass = class extends ModelSerializer.with({
        model: Note,
        fields: ['id', 'version'],
      }) {};
      override versionField = 'version';
    }
    for (const View of [Wrong, Writable]) {
      const dialect = testDialects()[0];
      assert.ok(dialect);
      const db = await dialect.create();
      const app = Fastify({ logger: false });
      await app.register(restFramework, { database: db });
      const started = async () => {
        await app.register(new DefaultRouter().register('notes', View).plugin, { prefix: '/api' });
        await app.ready();
      };
      await assert.rejects(started(), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'REST_ERR_CONDITIONAL');
        return true;
      });
      await app.close().catch(() => {});
      await dialect.drop(db);
    }
  });
});

describe('conditional requests and the browsable API', () => {
  it('an HTML page gets no validators and never a 304 (it shows the user and forms)', async () => {
    const dialect = testDialects()[0];
    assert.ok(dialect);
    const db = await dialect.create();
    await db.migrate([Note]);
    const note = await Note.objects.using(db).create({ text: 'page' });
    const app = Fastify({ logger: false });
    await app.register(restFramework, {
      database: db,
      settings: { DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer] },
    });
    await app.register(new DefaultRouter().register('notes', VersionedNotes).plugin, {
      prefix: '/api',
    });
    await app.ready();
    try {
      const url = `/api/notes/${note.id}/`;
      const json = await app.inject({ url, headers: HOST });
      const etag = String(json.headers.etag);
      assert.equal(etag, '"0.json"');
      for (const sent of [etag, '"0.api"', '*']) {
        const page = await app.inject({
          url,
          headers: { host: '127.0.0.1', accept: 'text/html', 'if-none-match': sent },
        });
        assert.equal(page.statusCode, 200, sent);
        assert.equal(page.headers.etag, undefined);
        assert.match(String(page.headers['content-type']), /^text\/html/);
      }
    } finally {
      await app.close();
      await dialect.drop(db);
    }
  });
});
