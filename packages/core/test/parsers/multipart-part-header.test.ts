/**
 * The multipart part-header scanner (`readPartHeader`) against a plain reference written from
 * the same rules a different way (regular expressions over the whole value, where the scanner
 * walks it character by character): on generated headers, well-formed and not, both take the
 * same parts and refuse the same ones, and the scanner never throws anything but the parser's
 * own errors. A table pins the answer of each odd header a client was seen to send.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDecoder } from 'node:util';
import { ParseError } from '@restframework/core';
import {
  MultipartError,
  type PartHeader,
  type RawPartHeader,
  readPartHeader,
} from '@restframework/core/internal';
import fc from 'fast-check';

const LIMITS = { headerPairs: 8, headerSize: 600, nameSize: 40 };
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** The form's decoder as the parser gives it: strict UTF-8, a 400 for invalid bytes. */
const decodeName = (bytes: Uint8Array) => {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ParseError('Multipart form parse error - the body is not valid utf-8.');
  }
};

// ---- the reference --------------------------------------------------------------------------

const TCHAR = "[A-Za-z0-9!#$%&'*+.^_`|~-]";
const TYPE = new RegExp(`^[ \\t]*(${TCHAR}+)[ \\t]*`);
const PARAM = new RegExp(
  `^;[ \\t]*(?:(${TCHAR}+)[ \\t]*=[ \\t]*(?:"((?:[^"\\\\]|\\\\[^])*)"|((?:${TCHAR}|[\\x80-\\xff])+))[ \\t]*)?`,
);

/** The disposition's type and parameters, or null when it does not parse. */
function referenceDisposition(value: string): { type: string; params: [string, string][] } | null {
  const type = TYPE.exec(value);
  if (!type) return null;
  const params: [string, string][] = [];
  let rest = value.slice(type[0].length);
  while (rest !== '') {
    const param = PARAM.exec(rest);
    if (!param) return null;
    rest = rest.slice(param[0].length);
    if (param[1] === undefined) continue; // an empty parameter
    const text = param[2] !== undefined ? param[2].replace(/\\(["\\])/g, '$1') : param[3];
    params.push([param[1].toLowerCase(), text as string]);
  }
  return { type: type[1] as string, params };
}

/** An RFC 8187 value decoded, or null. */
function referenceExtended(value: string): string | null {
  const match = /^([^']*)'[^']*'(.*)$/s.exec(value);
  if (!match) return null;
  const charset = (match[1] as string).toLowerCase();
  if (charset !== 'utf-8' && charset !== 'iso-8859-1') return null;
  const body = match[2] as string;
  if (/%(?![0-9a-f]{2})/i.test(body)) return null;
  const bytes = Buffer.from(
    body.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    ),
    'latin1',
  );
  try {
    return new TextDecoder(charset, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

function referenceUtf8(value: string): string | null {
  try {
    return UTF8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return null;
  }
}

/** The charset of a Content-Type, when its parameters parse and name it once. */
function referenceCharset(type: string): string | undefined {
  const semicolon = type.indexOf(';');
  if (semicolon === -1) return undefined;
  const parsed = referenceDisposition(`x${type.slice(semicolon)}`);
  if (!parsed) return undefined;
  const keys = parsed.params.map(([k]) => k);
  if (new Set(keys).size !== keys.length) return undefined;
  return new Map(parsed.params).get('charset')?.toLowerCase();
}

/** What the rules say about a header: the part it describes, or null when it is refused. */
function reference(header: RawPartHeader): PartHeader | null {
  const lines = Object.entries(header).flatMap(([k, vs]) => vs.map((v) => [k, v] as const));
  if (lines.length > LIMITS.headerPairs) return null;
  if (lines.reduce((n, [k, v]) => n + k.length + v.length + 4, 0) > LIMITS.headerSize) return null;
  const dispositions = header['content-disposition'] ?? [];
  if (dispositions.length !== 1) return null;
  const types = header['content-type'] ?? [];
  if (types.length > 1) return null;
  if (
    (header['content-transfer-encoding'] ?? []).some((e) => !/^\s*(7bit|8bit|binary)\s*$/i.test(e))
  )
    return null;
  const parsed = referenceDisposition(dispositions[0] as string);
  if (parsed?.type.toLowerCase() !== 'form-data') return null;
  const keys = parsed.params.map(([k]) => k);
  if (new Set(keys).size !== keys.length) return null;
  const params = new Map(parsed.params);
  if (params.has('name') && params.has('name*')) return null;
  const rawName = params.get('name') ?? params.get('name*');
  if (!rawName || rawName.length > LIMITS.nameSize) return null;
  const name = params.has('name*') ? referenceExtended(rawName) : referenceUtf8(rawName);
  if (name === null) return null;
  let filename: string | null | undefined;
  if (params.has('filename*')) filename = referenceExtended(params.get('filename*') as string);
  else if (params.has('filename')) filename = referenceUtf8(params.get('filename') as string);
  if (filename === null) return null;
  const type = types[0];
  const media = type?.split(';')[0]?.trim().toLowerCase();
  const charset = type === undefined ? undefined : referenceCharset(type);
  return { name, filename, contentType: media || 'text/plain', charset };
}

/** The scanner's answer: the part, or null when it refused it with one of its own errors. */
function scanned(header: RawPartHeader): PartHeader | null {
  try {
    return readPartHeader(header, LIMITS, decodeName);
  } catch (error) {
    assert.ok(
      error instanceof MultipartError || error instanceof ParseError,
      `the scanner threw ${String(error)}`,
    );
    return null;
  }
}

// ---- generated headers ----------------------------------------------------------------------

/** Text as Latin-1 (one character per byte): UTF-8 of any text, or raw bytes. */
const bytesText = fc.oneof(
  fc.string({ maxLength: 8 }).map((s) => Buffer.from(s).toString('latin1')),
  fc.string({ unit: 'grapheme', maxLength: 4 }).map((s) => Buffer.from(s).toString('latin1')),
  fc.uint8Array({ maxLength: 6 }).map((b) => Buffer.from(b).toString('latin1')),
);
const tricky = fc.constantFrom('"', '\\', ';', '=', ' ', '\t', "'", '%', '%2', '%zz', '*', '');
const piece = fc.oneof(bytesText, tricky, fc.constantFrom('a', 'resume', 'x.y', '__proto__'));
const text = fc.array(piece, { maxLength: 4 }).map((pieces) => pieces.join(''));

const quoted = text.map((t) => `"${t.replace(/["\\]/g, (c) => `\\${c}`)}"`);
const rawQuoted = text.map((t) => `"${t}"`);
const bare = text;
/** An RFC 8187 value: each byte of the text percent-encoded or as it is, as drawn. */
const extended = fc
  .tuple(
    fc.constantFrom('UTF-8', 'utf-8', 'ISO-8859-1', 'latin1', ''),
    fc.constantFrom('', 'en'),
    text.chain((t) =>
      fc.tuple(
        fc.constant(t),
        fc.array(fc.boolean(), { minLength: t.length, maxLength: t.length }),
      ),
    ),
  )
  .map(([charset, language, [t, encode]]) => {
    let value = '';
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      value += encode[i] ? `%${c.toString(16).padStart(2, '0')}` : t[i];
    }
    return `${charset}'${language}'${value}`;
  });
const key = fc.constantFrom(
  'name',
  'NAME',
  'filename',
  'FileName',
  'name*',
  'filename*',
  'size',
  'x',
);
const space = fc.constantFrom('', ' ', '  ', '\t');
const param = fc
  .tuple(space, key, space, space, fc.oneof(quoted, rawQuoted, bare, extended), space)
  .map(([a, k, b, c, v, d]) => `;${a}${k}${b}=${c}${v}${d}`);
/** A plain `name` first most of the time, as clients send it, so that many parts are taken. */
const nameFirst = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(space, quoted).map(([a, v]) => `;${a}name=${v}`) },
  { weight: 1, arbitrary: fc.constant('') },
);
const disposition = fc
  .tuple(
    space,
    fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom('form-data', 'Form-Data') },
      { weight: 1, arbitrary: fc.constantFrom('attachment', '', 'form-data"') },
    ),
    space,
    nameFirst,
    fc.array(
      fc.oneof(
        { weight: 6, arbitrary: param },
        { weight: 1, arbitrary: fc.constantFrom(';', '; ', ';;') },
      ),
      { maxLength: 3 },
    ),
  )
  .map(([a, type, b, name, params]) => `${a}${type}${b}${name}${params.join('')}`);
const contentType = fc.oneof(
  fc.constantFrom('text/plain', 'application/octet-stream', 'IMAGE/PNG', '', ' ; charset=utf-8'),
  fc
    .tuple(
      fc.constantFrom('text/plain', 'text/html'),
      space,
      fc.constantFrom('utf-8', '"ISO-8859-1"', 'x', ''),
    )
    .map(([t, s, c]) => `${t};${s}charset=${c}`),
);
const extraLine = fc.tuple(
  fc.constantFrom('x-a', 'x-b', 'content-id'),
  fc.oneof({ weight: 9, arbitrary: fc.string({ maxLength: 20 }) }, fc.string({ maxLength: 600 })),
);
const header: fc.Arbitrary<RawPartHeader> = fc
  .record({
    dispositions: fc.oneof(
      { weight: 8, arbitrary: fc.array(disposition, { minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.array(disposition, { maxLength: 2 }) },
    ),
    types: fc.array(contentType, { maxLength: 2 }),
    encodings: fc.oneof(
      { weight: 4, arbitrary: fc.constant([]) },
      fc.array(fc.constantFrom('binary', ' 8BIT', 'base64', 'quoted-printable'), { maxLength: 1 }),
    ),
    extra: fc.oneof(
      { weight: 4, arbitrary: fc.array(extraLine, { maxLength: 3 }) },
      fc.array(extraLine, { maxLength: 9 }),
    ),
  })
  .map(({ dispositions, types, encodings, extra }) => {
    const result: Record<string, string[]> = Object.create(null);
    const add = (k: string, v: string) => {
      result[k] ??= [];
      (result[k] as string[]).push(v);
    };
    for (const d of dispositions) add('content-disposition', d);
    for (const t of types) add('content-type', t);
    for (const e of encodings) add('content-transfer-encoding', e);
    for (const [k, v] of extra) add(k, v);
    return result;
  });

describe('readPartHeader', () => {
  it('agrees with the reference on generated headers, well-formed or not', (t) => {
    let taken = 0;
    let refused = 0;
    fc.assert(
      fc.property(header, (h) => {
        const expected = reference(h);
        assert.deepEqual(scanned(h), expected, JSON.stringify(h));
        if (expected) taken++;
        else refused++;
      }),
      { numRuns: 4000, seed: 37 },
    );
    t.diagnostic(`${taken} taken, ${refused} refused`);
    // Both answers were given often enough for the agreement to mean something.
    assert.ok(taken > 400 && refused > 400, `${taken} taken, ${refused} refused`);
  });

  it('agrees with the reference on any text as the disposition', () => {
    const alphabet = fc.constantFrom(...'form-data; name="a\\b"*=\' \tfilename%é\u00ff'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 40 }), (value) => {
        const h = { 'content-disposition': [value] };
        assert.deepEqual(scanned(h), reference(h), JSON.stringify(value));
      }),
      { numRuns: 3000, seed: 38 },
    );
  });

  it('answers each odd header a client was seen to send', () => {
    const cd = (value: string) => ({ 'content-disposition': [value] });
    const taken: [RawPartHeader, Partial<PartHeader>][] = [
      [cd('form-data; name="resume"; filename="cv.txt"'), { name: 'resume', filename: 'cv.txt' }],
      [cd('form-data; name=resume'), { name: 'resume', filename: undefined }],
      [cd('FORM-DATA ;NAME = "a" ; filename=""'), { name: 'a', filename: '' }],
      [cd('form-data; name="a\\"b"'), { name: 'a"b' }],
      // Browsers send Windows paths unescaped: the backslashes stay.
      [cd('form-data; name="f"; filename="C:\\dir\\cv.txt"'), { filename: 'C:\\dir\\cv.txt' }],
      [cd('form-data; name="f"; filename*=UTF-8\'\'na%C3%AFve.txt'), { filename: 'naïve.txt' }],
      [
        cd('form-data; name="f"; filename="plain.txt"; filename*=UTF-8\'\'fancy.txt'),
        { filename: 'fancy.txt' },
      ],
      [cd("form-data; name*=utf-8'en'r%C3%A9sum%C3%A9"), { name: 'résumé' }],
      [cd(`form-data; name="${Buffer.from('résumé').toString('latin1')}"`), { name: 'résumé' }],
      [cd('form-data; name="a"; size=123; creation-date="x";'), { name: 'a' }],
      [
        { ...cd('form-data; name="a"'), 'content-type': ['Text/Plain; charset="UTF-8"'] },
        { contentType: 'text/plain', charset: 'utf-8' },
      ],
      [{ ...cd('form-data; name="a"'), 'content-transfer-encoding': ['8bit'] }, { name: 'a' }],
    ];
    for (const [h, expected] of taken) {
      const head = readPartHeader(h, LIMITS, decodeName);
      for (const [k, v] of Object.entries(expected)) {
        assert.equal(head[k as keyof PartHeader], v, `${JSON.stringify(h)} ${k}`);
      }
    }
    const refused: [RawPartHeader, string][] = [
      [{}, 'A part has no Content-Disposition header.'],
      [{ 'content-type': ['text/plain'] }, 'A part has no Content-Disposition header.'],
      [cd('form-data'), 'A part has no name.'],
      [cd('form-data; filename="a.txt"'), 'A part has no name.'],
      [cd('form-data; name=""'), 'A part has no name.'],
      [cd('attachment; name="a"'), 'A part\'s Content-Disposition is "attachment", not form-data.'],
      [cd('form-data; name="a"; name="b"'), "A part's Content-Disposition gives its name twice."],
      [cd('form-data; NAME="a"; name="b"'), "A part's Content-Disposition gives its name twice."],
      [
        cd('form-data; name="a"; name*=UTF-8\'\'b'),
        "A part's Content-Disposition gives its name twice.",
      ],
      [cd('form-data; name="a; filename="b'), "A part's Content-Disposition does not parse."],
      [cd('form-data; name="a" junk'), "A part's Content-Disposition does not parse."],
      [cd('form-data; name'), "A part's Content-Disposition does not parse."],
      [cd('form-data; name='), "A part's Content-Disposition does not parse."],
      [cd('form-data name="a"'), "A part's Content-Disposition does not parse."],
      [
        cd('form-data; name="f"; filename*=koi8-r\'\'x'),
        "A part's name* or filename* names a charset other than UTF-8 or ISO-8859-1.",
      ],
      [
        cd('form-data; name="f"; filename*=UTF-8\'\'%G0'),
        "A part's Content-Disposition has an unreadable name* or filename*.",
      ],
      [cd(`form-data; name="${'n'.repeat(41)}"`), "A part's name is longer than 40 bytes."],
      [
        { 'content-disposition': ['form-data; name="a"', 'form-data; name="b"'] },
        'A part has more than one Content-Disposition header.',
      ],
      [
        { ...cd('form-data; name="a"'), 'content-type': ['text/plain', 'text/html'] },
        'A part has more than one Content-Type header.',
      ],
      [
        { ...cd('form-data; name="a"'), 'content-transfer-encoding': ['base64'] },
        "A part's Content-Transfer-Encoding is not supported; send its bytes as they are.",
      ],
      [
        { ...cd('form-data; name="a"'), 'x-h': Array.from({ length: 8 }, () => 'v') },
        'A part has more than 8 header lines.',
      ],
      [
        { ...cd('form-data; name="a"'), 'x-big': ['v'.repeat(600)] },
        "A part's header is larger than 600 bytes.",
      ],
    ];
    for (const [h, message] of refused) {
      assert.throws(
        () => readPartHeader(h, LIMITS, decodeName),
        { name: 'MultipartError', message },
        JSON.stringify(h),
      );
    }
    // A name that is not valid text in the form's charset: the decoder's own 400.
    assert.throws(
      () => readPartHeader(cd('form-data; name="r\xe9sum\xe9"'), LIMITS, decodeName),
      ParseError,
    );
  });
});
