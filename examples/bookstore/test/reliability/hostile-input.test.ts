/**
 * Property-based tests of the write endpoints (books POST/PUT/PATCH, authors, profile,
 * upload) with arbitrary JSON for every field and group, sent as JSON, url-encoded (dotted
 * keys) and multipart bodies. For every request:
 *
 * - the status is never 5xx, and no body carries a stack trace or SQL;
 * - a 4xx changes nothing: every row of every table and every file under MEDIA_ROOT are as
 *   they were;
 * - a 2xx round-trips: a GET of the record returns what the response said (and an uploaded
 *   file is served with the bytes sent).
 *
 * `npm test` runs a few dozen cases per property with a fixed seed; `npm run fuzz` runs many
 * more with a new seed (FUZZ_RUNS, FUZZ_SEED to replay one that failed).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { MultipartPart } from '@restframework/core/testing';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { User } from '../../src/models/index.ts';
import {
  AUTHOR,
  anyJson,
  BOOK,
  bodyFor,
  fileContent,
  hostileFileName,
  hostileKey,
  hostileString,
  type JsonObject,
  multipart,
  objectFor,
  profileSpec,
  toFormFields,
  toJson,
  UPLOAD_FIELDS,
  urlEncoded,
} from './arbitraries.ts';
import { type Bookstore, jsonBody, send, snapshot, startBookstore } from './support.ts';

const FUZZING = process.env.FUZZ_RUNS !== undefined;
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? (FUZZING ? Date.now() % 2 ** 31 : 20_260_101));
const PARAMETERS: fc.Parameters<unknown> = { numRuns: RUNS, seed: SEED, endOnFailure: true };

/** What no answer may contain: a stack frame, a source path, SQL or a driver's message. */
const LEAKS =
  /\n\s+at |\.ts:\d+|node_modules|\b(?:select|insert|update|delete) .*\b(?:from|into|set)\b|sqlite|syntax error|constraint failed|violates|relation "|TypeError|ReferenceError|RangeError/i;

type Request = InjectOptions & { readonly url: string };

/** Where a 2xx answer's record can be read back, or null to skip the round trip. */
type Detail = (response: LightMyRequestResponse) => string | null;

/** The path of an absolute URL on this service. */
const pathOf = (url: string) => new URL(url).pathname;

for (const dialect of testDialects()) {
  describe(`hostile input on ${dialect.name} (seed ${SEED}, ${RUNS} runs)`, {
    skip: dialect.skip,
  }, () => {
    let store: Bookstore;
    let userIds: number[];
    /** Answers by status class, reported per test so a run shows both paths were taken. */
    const statuses = new Map<string, number>();
    beforeEach(() => statuses.clear());
    afterEach((t) => {
      t.diagnostic(
        `answers: ${[...statuses]
          .sort()
          .map(([k, n]) => `${n} ${k}`)
          .join(', ')}`,
      );
    });

    before(async () => {
      store = await startBookstore(dialect);
      // Users without a profile, so that some profile creates can succeed.
      const users = User.objects.using(store.db);
      for (let i = 0; i < 10; i++) await users.create({ username: `fuzz${i}`, email: '' });
      userIds = (await users.execute()).map((u) => u.id as number);
      userIds.push(0, 999_999);
      const upload = await send(store.app, {
        method: 'POST',
        url: '/api/upload/',
        ...multipart([
          { name: 'username', value: 'seed' },
          { name: 'resume', filename: 'seed.txt', content: 'seed' },
        ]),
      });
      assert.equal(upload.statusCode, 201, upload.body);
    });
    after(() => store?.close());

    /** Sends one request and checks the three properties. */
    async function exchange(request: Request, detail: Detail): Promise<LightMyRequestResponse> {
      const before_ = await snapshot(store.db, store.media);
      const response = await send(store.app, request);
      const klass = `${Math.floor(response.statusCode / 100)}xx`;
      statuses.set(klass, (statuses.get(klass) ?? 0) + 1);
      const where = `${request.method} ${request.url} → ${response.statusCode} ${response.body.slice(0, 500)}`;
      assert.ok(response.statusCode < 500, where);
      assert.doesNotMatch(response.body, LEAKS, where);
      if (response.statusCode !== 204) JSON.parse(response.body);
      if (response.statusCode >= 400) {
        assert.deepEqual(await snapshot(store.db, store.media), before_, `a ${where} changed data`);
        return response;
      }
      const path = detail(response);
      if (path) {
        const read = await send(store.app, { method: 'GET', url: path });
        assert.equal(read.statusCode, 200, `${where}; GET ${path} → ${read.statusCode}`);
        assert.deepEqual(
          JSON.parse(read.body),
          JSON.parse(response.body),
          `${where}: GET ${path} differs`,
        );
      }
      return response;
    }

    const created =
      (collection: string): Detail =>
      (response) =>
        `${collection}${(JSON.parse(response.body) as { id: number }).id}/`;
    const same =
      (url: string): Detail =>
      () =>
        url;

    /** The same body three ways: JSON, url-encoded (with raw oddities), multipart. */
    async function allEncodings(
      method: 'POST' | 'PUT' | 'PATCH',
      url: string,
      body: JsonObject,
      detail: Detail,
      raw: string,
    ) {
      await exchange({ method, url, ...jsonBody(toJson(body)) }, detail);
      const fields = toFormFields(body);
      await exchange(
        {
          method,
          url,
          payload: urlEncoded(fields, raw),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
        detail,
      );
      await exchange(
        { method, url, ...multipart(fields.map(([name, value]) => ({ name, value }))) },
        detail,
      );
    }

    const rawForm = fc.constantFrom(
      '',
      '%ZZ=1',
      'title=%E0%A4',
      '&&=&',
      '__proto__.x=1',
      'a[b]=1',
      'x'.repeat(3000),
    );

    it('books: create, in every encoding', async () => {
      await fc.assert(
        fc.asyncProperty(bodyFor(BOOK), rawForm, (body, raw) =>
          allEncodings(
            'POST',
            '/books/api/books/',
            body,
            (r) => pathOf(r.headers.location as string),
            raw,
          ),
        ),
        PARAMETERS,
      );
    });

    it('books: PUT and PATCH of one book, in every encoding', async () => {
      await fc.assert(
        fc.asyncProperty(bodyFor(BOOK), fc.boolean(), rawForm, (body, put, raw) =>
          allEncodings(
            put ? 'PUT' : 'PATCH',
            '/books/api/books/1/',
            body,
            same('/books/api/books/1/'),
            raw,
          ),
        ),
        PARAMETERS,
      );
    });

    it('books: bodies that are not objects, and objects of anything', async () => {
      await fc.assert(
        fc.asyncProperty(anyJson, fc.constantFrom('POST', 'PUT', 'PATCH'), async (body, method) => {
          const url = method === 'POST' ? '/books/api/books/' : '/books/api/books/2/';
          await exchange(
            { method: method as 'POST', url, ...jsonBody(toJson(body)) },
            method === 'POST' ? (r) => pathOf(r.headers.location as string) : same(url),
          );
        }),
        PARAMETERS,
      );
    });

    it('authors: create, PUT and PATCH, two levels of groups', async () => {
      await fc.assert(
        fc.asyncProperty(
          bodyFor(AUTHOR),
          fc.constantFrom('POST', 'PUT', 'PATCH'),
          rawForm,
          (body, method, raw) =>
            method === 'POST'
              ? allEncodings(
                  'POST',
                  '/books/api/authors/',
                  body,
                  created('/books/api/authors/'),
                  raw,
                )
              : allEncodings(
                  method as 'PUT',
                  '/books/api/authors/1/',
                  body,
                  same('/books/api/authors/1/'),
                  raw,
                ),
        ),
        PARAMETERS,
      );
    });

    it('profile: create, PUT and PATCH (a user with or without a profile, or none)', async () => {
      await fc.assert(
        fc.asyncProperty(
          bodyFor(profileSpec(userIds)),
          fc.constantFrom('POST', 'PUT', 'PATCH'),
          rawForm,
          (body, method, raw) =>
            method === 'POST'
              ? allEncodings('POST', '/api/profile/', body, created('/api/profile/'), raw)
              : allEncodings(
                  method as 'PUT',
                  '/api/profile/1/',
                  body,
                  same('/api/profile/1/'),
                  raw,
                ),
        ),
        PARAMETERS,
      );
    });

    it('upload: multipart with hostile names, file names and contents; the file round-trips', async () => {
      const part: fc.Arbitrary<MultipartPart> = fc.oneof(
        fc.record({ name: fc.oneof(fc.constant('username'), hostileKey), value: hostileString }),
        fc.record({
          name: fc.oneof(
            { weight: 3, arbitrary: fc.constant('resume') },
            { weight: 1, arbitrary: hostileKey },
          ),
          filename: hostileFileName,
          content: fileContent,
          contentType: fc.constantFrom(
            'text/plain',
            'text/html',
            'image/svg+xml',
            'application/octet-stream',
            '',
          ),
        }),
      );
      const valid = fc.tuple(
        fc.record({
          name: fc.constant('username'),
          value: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ''),
        }),
        fc.record({ name: fc.constant('resume'), filename: hostileFileName, content: fileContent }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            valid.map((parts) => [...parts] as MultipartPart[]),
            fc.array(part, { maxLength: 5 }),
          ),
          fc.constantFrom('POST', 'PUT', 'PATCH'),
          async (parts, method) => {
            const url = method === 'POST' ? '/api/upload/' : '/api/upload/1/';
            const response = await exchange(
              { method: method as 'POST', url, ...multipart(parts) },
              method === 'POST' ? created('/api/upload/') : same(url),
            );
            if (response.statusCode >= 300) return;
            const resume = (JSON.parse(response.body) as { resume: string }).resume;
            const file = await send(store.app, { method: 'GET', url: pathOf(resume) });
            assert.equal(file.statusCode, 200, `${resume} is not served`);
            const sent = [...parts].reverse().find((p) => 'filename' in p && p.name === 'resume');
            if (sent && 'filename' in sent && method !== 'PATCH') {
              assert.deepEqual(
                file.rawPayload,
                Buffer.from(sent.content as Buffer),
                `${resume} differs`,
              );
            }
          },
        ),
        PARAMETERS,
      );
    });

    it('upload: JSON and url-encoded bodies of anything', async () => {
      await fc.assert(
        fc.asyncProperty(
          objectFor({ ...UPLOAD_FIELDS, resume: hostileString }),
          rawForm,
          (body, raw) => allEncodings('POST', '/api/upload/', body, created('/api/upload/'), raw),
        ),
        PARAMETERS,
      );
    });
  });
}
