/**
 * `multipartParts` on generated bodies, cut into pieces at generated places (so that a
 * boundary, a part's header or its end falls across two pieces): the parts come out as they
 * were written (names, file names, values, file bytes, in order). A body with one part whose
 * header the parser refuses fails with the parser's own error, whichever piece it is in.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { ParseError } from '@restframework/core';
import { MultipartError, type MultipartLimits, multipartParts } from '@restframework/core/internal';
import fc from 'fast-check';

const BOUNDARY = '----fuzzBoundary7MA4YWxkTrZu0gW';
const LIMITS: MultipartLimits = {
  parts: 50,
  fieldSize: 4096,
  nameSize: 1000,
  headerPairs: 100,
  headerSize: 16 * 1024,
};

/** A part as a test writes it. */
interface WrittenPart {
  readonly name: string;
  readonly filename?: string;
  readonly content: Buffer;
  readonly contentType?: string;
  /**
   * How `"` is written in a name: `%22` as browsers do (WHATWG), or `\"` with `\\` for a
   * backslash as curl does (RFC 2616's quoted-pair). The parser reads `\"` and `\\` as
   * escapes and any other backslash as itself (as Django does), so a browser's name with a
   * backslash before a quote cannot be told from an escape: browser-style names here have none.
   */
  readonly style: 'browser' | 'escaped';
}

/** What came out of the parser for a part. */
interface ReadPart {
  readonly name: string;
  readonly filename: string | undefined;
  readonly content: Buffer;
}

/** What the parser gives back for a written name: CR and LF (and, from a browser, `"`) as
 * percent-escapes, everything else as it was. */
function readBack(text: string, style: WrittenPart['style']): string {
  const lines = text.replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  return style === 'browser' ? lines.replace(/"/g, '%22') : lines;
}

/** A name or file name as a client writes it in a quoted string, as UTF-8 bytes (Latin-1 text). */
function quote(text: string, style: WrittenPart['style']): string {
  const escaped =
    style === 'browser'
      ? readBack(text, style)
      : readBack(text, style).replace(/["\\]/g, (c) => `\\${c}`);
  return Buffer.from(escaped).toString('latin1');
}

function bodyOf(parts: readonly WrittenPart[], preamble: string, epilogue: string): Buffer {
  const chunks: Buffer[] = [Buffer.from(preamble)];
  for (const part of parts) {
    let head = `${preamble === '' && chunks.length === 1 ? '' : '\r\n'}--${BOUNDARY}\r\n`;
    head += `Content-Disposition: form-data; name="${quote(part.name, part.style)}"`;
    if (part.filename !== undefined) head += `; filename="${quote(part.filename, part.style)}"`;
    if (part.contentType !== undefined) head += `\r\nContent-Type: ${part.contentType}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`, 'latin1'), part.content);
  }
  chunks.push(Buffer.from(`\r\n--${BOUNDARY}--\r\n${epilogue}`));
  return Buffer.concat(chunks);
}

/** `bytes` cut at the given fractions of its length. */
function cut(bytes: Buffer, at: readonly number[]): Buffer[] {
  const points = [...new Set(at.map((f) => Math.floor(f * bytes.length)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    if (point > start) pieces.push(bytes.subarray(start, point));
    start = Math.max(start, point);
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

/** A request stream that sends `pieces` one after the other. */
function requestOf(pieces: readonly Buffer[]): IncomingMessage {
  const stream = Readable.from(pieces, { objectMode: false });
  return Object.assign(stream, {
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  }) as unknown as IncomingMessage;
}

async function readAll(raw: IncomingMessage): Promise<ReadPart[]> {
  const read: ReadPart[] = [];
  const strict = (bytes: Uint8Array) => {
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      throw new ParseError('Multipart form parse error - the body is not valid utf-8.');
    }
  };
  for await (const part of multipartParts(raw, LIMITS, strict)) {
    if (part.type === 'field') {
      read.push({ name: part.fieldname, filename: undefined, content: Buffer.from(part.value) });
      continue;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of part.file) chunks.push(chunk as Buffer);
    read.push({ name: part.fieldname, filename: part.filename, content: Buffer.concat(chunks) });
  }
  return read;
}

const name = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }),
  fc.constantFrom('resume', 'a.b.c', '__proto__', 'x"y', 'a\\b', 'semi;colon', "it's"),
);
// Near misses of the delimiter (`CRLF--boundary`, which no part may hold, nor start with
// `--boundary`, right after its header's blank line): the splitter must give them back as
// content, also when a piece ends in the middle of one.
const nearMiss = fc.constantFrom(
  `x--${BOUNDARY}`,
  '\r\n',
  `\r\n--${BOUNDARY.slice(0, -1)}`,
  `\r\n-${BOUNDARY}`,
  '\r\n\r\n',
);
const textValue = fc.oneof(fc.string({ maxLength: 40 }), fc.constant(''), nearMiss);
const fileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  nearMiss.map((text) => Buffer.from(text)),
  fc.constant(Buffer.alloc(0)),
);
const style = fc.constantFrom<WrittenPart['style']>('browser', 'escaped');
const part: fc.Arbitrary<WrittenPart> = fc
  .oneof(
    fc.record({ name, content: textValue.map((v) => Buffer.from(v)), style }),
    fc.record({
      name,
      filename: fc.oneof(name, fc.constant('')),
      content: fileBytes,
      contentType: fc.constantFrom('application/octet-stream', 'text/plain', 'image/png'),
      style,
    }),
  )
  .map((p): WrittenPart => {
    if (p.style !== 'browser') return p;
    const noBackslash = (text: string) => text.replace(/\\/g, '/');
    return 'filename' in p
      ? { ...p, name: noBackslash(p.name), filename: noBackslash(p.filename) }
      : { ...p, name: noBackslash(p.name) };
  });
const fractions = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 });

describe('multipartParts', () => {
  it('gives back the parts as written, however the body is cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(part, { maxLength: 6 }),
        fc.constantFrom('', 'a preamble\r\n'),
        fc.constantFrom('', 'an epilogue'),
        fractions,
        async (parts, preamble, epilogue, at) => {
          const body = bodyOf(parts, preamble, epilogue);
          const read = await readAll(requestOf(cut(body, at)));
          const expected = parts.map((p) => ({
            name: readBack(p.name, p.style),
            filename: p.filename === undefined ? undefined : readBack(p.filename, p.style),
            content: p.content,
          }));
          assert.deepEqual(read, expected);
        },
      ),
      { numRuns: 400, seed: 37 },
    );
  });

  it("fails with the parser's own error when one part's header is refused", async () => {
    const refused = [
      'Content-Disposition: form-data; filename="a.txt"',
      'Content-Disposition: form-data',
      'Content-Disposition: form-data; name=""',
      'Content-Type: text/plain',
      'Content-Disposition: form-data; name="a"; name="b"',
      'Content-Disposition: form-data; name="a"; filename*=x-bogus\'\'a.txt',
      'Content-Disposition: form-data; name="r\xe9sum\xe9"',
      'Content-Disposition: attachment; name="a"',
      'garbage\r\nContent-Disposition: form-data; name="a"',
      `Content-Disposition: form-data; name="a"\r\n${'X-H: v\r\n'.repeat(100)}X-H: v`,
      `Content-Disposition: form-data; name="a"\r\nX-Big: ${'b'.repeat(20_000)}`,
      `Content-Disposition: form-data; name="${'n'.repeat(1001)}"`,
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.array(part, { maxLength: 3 }),
        fc.array(part, { maxLength: 3 }),
        fc.constantFrom(...refused),
        fc.boolean(),
        fractions,
        async (before, after, header, isFile, at) => {
          const good = bodyOf(before, '', '');
          const bad = Buffer.from(
            `${before.length ? '\r\n' : ''}--${BOUNDARY}\r\n${header}${isFile ? '; filename="f"' : ''}\r\n\r\ncontent`,
            'latin1',
          );
          const rest = bodyOf(after, '', '');
          // The good parts' closing boundary is replaced by the bad part, then the rest.
          const body = Buffer.concat([
            good.subarray(0, good.length - `\r\n--${BOUNDARY}--\r\n`.length),
            bad,
            Buffer.from('\r\n'),
            rest,
          ]);
          await assert.rejects(readAll(requestOf(cut(body, at))), (error: unknown) => {
            assert.ok(
              error instanceof MultipartError || error instanceof ParseError,
              `${header}: ${String(error)}`,
            );
            return true;
          });
        },
      ),
      { numRuns: 300, seed: 38 },
    );
  });
});
