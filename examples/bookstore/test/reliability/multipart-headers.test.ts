/**
 * Multipart bodies whose parts have odd headers, generated with fast-check, on the upload and
 * book routes (POST, PUT, PATCH). A part without a usable name used to answer 500 (issue 37).
 *
 * Each body mixes well-formed parts, parts the parser takes as documented (a `filename*`, a
 * repeated name whose last value wins, unquoted or oddly spaced parameters, names in any
 * script) and parts it refuses: no name, an empty or doubled name, a bare `form-data`, no
 * Content-Disposition, another disposition type, broken quoting, a name not valid UTF-8, too
 * many or too large header lines, a name too long or nested too deep, an unknown `filename*`
 * charset, a transfer encoding. For every request:
 *
 * - never a 5xx; a body with a refused part is 400 `{"detail": "Multipart form parse error - ..."}`;
 * - a 4xx changes nothing (every row, every file under MEDIA_ROOT);
 * - no temporary file is left in `FILE_UPLOAD_TEMP_DIR`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import { type Bookstore, listFiles, send, snapshot, startBookstore } from './support.ts';

const FUZZING = process.env.FUZZ_RUNS !== undefined;
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = Number(process.env.FUZZ_SEED ?? (FUZZING ? Date.now() % 2 ** 31 : 20_260_137));
const BOUNDARY = 'headerFuzz7MA4YWxkTrZu0gW';

/** A part as written on the wire: its header lines (Latin-1 text, one character per byte). */
interface RawPart {
  readonly head: string;
  readonly content: Buffer;
  /** The parser must refuse a body holding this part. */
  readonly refused: boolean;
}

function bodyOf(parts: readonly RawPart[]): { payload: Buffer; headers: Record<string, string> } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\n${part.head}\r\n\r\n`, 'latin1'),
      part.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

const utf8 = (text: string) => Buffer.from(text).toString('latin1');
const disposition = (params: string) => `Content-Disposition: form-data${params}`;

/** Names the routes know, and others. */
const knownName = fc.constantFrom(
  'username',
  'resume',
  'title',
  'description',
  'publishing_information.isbn',
  'stock_information.price',
  'stock_information.state',
);
const anyName = fc.oneof(
  knownName,
  fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/["\\\r\n]/.test(s)),
  fc.constantFrom('__proto__', 'constructor', 'naïve', '名前', 'a.b.c', 'x'.repeat(1000)),
);
const text = fc.string({ maxLength: 20 }).map((s) => Buffer.from(s));
const fileName = fc.constantFrom(
  'cv.txt',
  'a.html',
  '..\\x.txt',
  '',
  'ü.txt',
  '.',
  'C:\\dir\\cv.pdf',
);
const percent = (value: string) =>
  [...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** Parts as a browser writes them. */
const wellFormed: fc.Arbitrary<RawPart> = fc.oneof(
  fc.record({ name: anyName, content: text }).map(({ name, content }) => ({
    head: disposition(`; name="${utf8(name)}"`),
    content,
    refused: false,
  })),
  fc
    .record({ name: anyName, filename: fileName, content: text })
    .map(({ name, filename, content }) => ({
      head: `${disposition(`; name="${utf8(name)}"; filename="${utf8(filename)}"`)}\r\nContent-Type: text/plain`,
      content,
      refused: false,
    })),
);

/** Parts written oddly that the parser takes, as documented. */
const benign: fc.Arbitrary<RawPart> = fc
  .tuple(knownName, fileName, text, fc.constantFrom(0, 1, 2, 3, 4, 5, 6))
  .map(([name, filename, content, kind]) => {
    const heads = [
      disposition(`; name="${name}"; filename*=UTF-8''${percent(filename || 'x')}`),
      `content-disposition: FORM-DATA;NAME=${name} ;\tfilename="${utf8(filename)}";`,
      disposition(`; name*=utf-8'en'${percent(name)}`),
      disposition(`; name="${name}"; size=12; creation-date="Wed, 12 Feb 1997 16:29:51 -0500"`),
      `${disposition(`; name="${name}"`)}\r\nContent-Type: text/plain; charset=utf-8\r\nX-Extra: 1`,
      disposition(`; name="${name}"; filename="a\\"b.txt"`),
      `${disposition(`; name="${name}"`)}\r\nContent-Transfer-Encoding: 8bit`,
    ];
    return { head: heads[kind] as string, content, refused: false };
  });

/** Parts the parser refuses, each kind with generated pieces. */
const refusedPart: fc.Arbitrary<RawPart> = fc
  .tuple(anyName, fileName, text, fc.integer({ min: 0, max: 17 }), fc.integer({ min: 1, max: 40 }))
  .map(([name, filename, content, kind, n]) => {
    const heads = [
      disposition(`; filename="${utf8(filename)}"`),
      disposition(''),
      disposition('; name=""'),
      disposition(`; name="${utf8(name)}"; name="x${n}"`),
      disposition(`; NAME="${utf8(name)}"; name*=UTF-8''x`),
      'Content-Type: text/plain',
      `Content-Disposition: attachment; name="${utf8(name)}"`,
      disposition(`; name="${utf8(name)}; filename="a.txt`),
      disposition(`; name="${utf8(name)}" trailing`),
      disposition(`; name="r\xe9sum\xe9${n}"`),
      `${disposition(`; name="${utf8(name)}"`)}\r\n${'X-Line: v\r\n'.repeat(100 + n).slice(0, -2)}`,
      `${disposition(`; name="${utf8(name)}"`)}\r\nX-Big: ${'b'.repeat(16 * 1024 + n)}`,
      disposition(`; name="${'n'.repeat(1000 + n)}"`),
      disposition(`; name="${'a.'.repeat(64 + n)}a"`),
      disposition(`; name="${utf8(name)}"; filename*=koi8-r''${percent(filename)}`),
      `${disposition(`; name="${utf8(name)}"; filename="a.txt"`)}\r\nContent-Transfer-Encoding: base64`,
      `${disposition(`; name="${utf8(name)}"`)}\r\n${disposition('; name="other"')}`,
      `garbage line ${n}\r\n${disposition(`; name="${utf8(name)}"`)}`,
    ];
    return { head: heads[kind] as string, content, refused: true };
  });

/** Bodies the parser takes (some then valid for the route), and bodies with a refused part. */
const bodies = fc.oneof(
  fc.array(fc.oneof(wellFormed, benign), { minLength: 1, maxLength: 5 }),
  fc
    .tuple(
      fc.array(fc.oneof(wellFormed, benign), { maxLength: 3 }),
      refusedPart,
      fc.array(fc.oneof(wellFormed, benign, refusedPart), { maxLength: 2 }),
    )
    .map(([before, refused, after]) => [...before, refused, ...after]),
);
const route = fc.constantFrom(
  ['POST', '/api/upload/'],
  ['PUT', '/api/upload/1/'],
  ['PATCH', '/api/upload/1/'],
  ['POST', '/books/api/books/'],
  ['PUT', '/books/api/books/1/'],
  ['PATCH', '/books/api/books/1/'],
);

for (const dialect of testDialects()) {
  describe(`multipart part headers on ${dialect.name} (seed ${SEED}, ${RUNS} runs)`, {
    skip: dialect.skip,
  }, () => {
    let store: Bookstore;
    let temp: string;

    before(async () => {
      temp = mkdtempSync(join(tmpdir(), 'bookstore-multipart-temp-'));
      store = await startBookstore(dialect, { app: { settings: { FILE_UPLOAD_TEMP_DIR: temp } } });
      const upload = await send(store.app, {
        method: 'POST',
        url: '/api/upload/',
        ...bodyOf([
          { head: disposition('; name="username"'), content: Buffer.from('seed'), refused: false },
          {
            head: disposition('; name="resume"; filename="seed.txt"'),
            content: Buffer.from('seed'),
            refused: false,
          },
        ]),
      });
      assert.equal(upload.statusCode, 201, upload.body);
    });
    after(async () => {
      await store?.close();
      rmSync(temp, { recursive: true, force: true });
    });

    it('answers 400 for a refused part, never 5xx, and leaves nothing behind', async (t) => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(bodies, route, async (body, [method, url]) => {
          const before_ = await snapshot(store.db, store.media);
          const response = await send(store.app, {
            method: method as 'POST',
            url,
            ...bodyOf(body),
          });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          const where = `${method} ${url} → ${response.statusCode} ${response.body.slice(0, 300)}`;
          assert.ok(response.statusCode < 500, where);
          if (body.some((p) => p.refused)) {
            assert.equal(response.statusCode, 400, where);
            assert.match(
              (response.json() as { detail: string }).detail,
              /^Multipart form parse error - /,
              where,
            );
          }
          if (response.statusCode >= 400) {
            assert.deepEqual(
              await snapshot(store.db, store.media),
              before_,
              `${where} changed data`,
            );
          }
          assert.deepEqual(listFiles(temp), [], `${where} left temporary files`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      t.diagnostic(
        `answers: ${[...statuses]
          .sort()
          .map(([s, n]) => `${n}×${s}`)
          .join(', ')}`,
      );
    });
  });
}
