/**
 * fast-check arbitraries for hostile request bodies: for every field of a resource, a valid
 * value most of the time and anything at all otherwise (wrong types, null, empty and huge
 * strings, lone surrogates, emoji, numbers out of range, NaN and Infinity, arrays where
 * objects belong), plus extra keys such as `__proto__`; and the three encodings a client may
 * send them in (JSON, url-encoded with dotted keys, multipart).
 */

import { type MultipartPart, multipartBody } from '@restframework/core/testing';
import fc from 'fast-check';

/** A JSON object as an ordered list of entries, so `__proto__` and repeated keys survive. */
export class JsonObject {
  readonly entries: readonly (readonly [string, JsonValue])[];
  constructor(entries: readonly (readonly [string, JsonValue])[]) {
    this.entries = entries;
  }
}

/** A JSON token written as is (`1e999`, which parses to Infinity). */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject | RawJson;

/** JSON text of a value (lone surrogates escaped, as JSON.stringify does). */
export function toJson(value: JsonValue): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof JsonObject) {
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  return JSON.stringify(value) ?? 'null';
}

/** Form fields for a value: objects become dotted keys, lists repeat their key. */
export function toFormFields(value: JsonValue, prefix = ''): [string, string][] {
  if (value instanceof JsonObject) {
    return value.entries.flatMap(([k, v]) => toFormFields(v, prefix ? `${prefix}.${k}` : k));
  }
  if (Array.isArray(value)) return value.flatMap((v) => toFormFields(v, prefix));
  const text =
    value instanceof RawJson ? value.text : value === null ? '' : String(value as unknown);
  return [[prefix, text]];
}

/** A url-encoded body; `raw` pieces are appended without encoding (`%ZZ`, `&&=`). */
export function urlEncoded(fields: readonly [string, string][], raw = ''): string {
  const body = new URLSearchParams(fields.map(([k, v]): [string, string] => [k, v])).toString();
  return raw ? `${body}&${raw}` : body;
}

/** A multipart body of text fields (and files) for `inject()`. */
export function multipart(parts: readonly MultipartPart[]) {
  return multipartBody(parts, 'fuzzBoundary7MA4YWxkTrZu0gW');
}

// ---------------------------------------------------------------------------------------------

/** Any UTF-16 code unit: lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

const NASTY_STRINGS = [
  '',
  ' ',
  '   ',
  '\u0000',
  '\uD800',
  '\uDFFF',
  'a\uD83D',
  '😀📚',
  '\u202Etxt.exe',
  '\u200B',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-0',
  '0x10',
  '1_000',
  '9'.repeat(400),
  "'; DROP TABLE books_book; --",
  '" OR 1=1 --',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'true',
  '2021-02-30',
  '2021-13-01',
  '0000-00-00',
  '99999-01-01',
  '+002021-01-01',
  'http://',
  'javascript:alert(1)',
  'a@b',
  '<script>alert(1)</script>',
  '%00',
  '../../etc/passwd',
  'published ',
  'PUBLISHED',
];

/** Strings a client should not send: odd Unicode, near-numbers, injections, huge ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: codeUnit, maxLength: 20 }),
  fc.constantFrom(...NASTY_STRINGS),
  fc.constantFrom(101, 201, 256, 10_000, 200_000).map((n) => 'x'.repeat(n)),
);

/** Numbers out of any column's range, fractions, and tokens JSON.parse turns into Infinity. */
export const hostileNumber: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    -1,
    0,
    2 ** 31,
    2 ** 32,
    2 ** 53 + 2,
    -(2 ** 63),
    1e308,
    5e-324,
    0.1,
    12.345,
    1e21,
  ),
  fc
    .constantFrom('1e999', '-1e999', `1${'0'.repeat(400)}`, '-0', '0.0000000000000000000001', '1E2')
    .map((t) => new RawJson(t)),
);

/** Keys that are no field, or that attack prototypes. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'id',
    'url',
    'toString',
    'hasOwnProperty',
    '',
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: codeUnit, maxLength: 6 }),
);

/** Any JSON value, a few levels deep. */
export const anyJson: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    hostileNumber,
    hostileString,
    fc.array(tie('value'), { maxLength: 3 }),
    fc
      .array(fc.tuple(hostileKey, tie('value')), { maxLength: 3 })
      .map((entries) => new JsonObject(entries)),
  ),
})).value;

/** A field's valid values and how often to send one instead of anything at all. */
export type FieldSpec = fc.Arbitrary<JsonValue> | { readonly [name: string]: FieldSpec };

function isGroup(spec: FieldSpec): spec is { readonly [name: string]: FieldSpec } {
  return !(spec instanceof fc.Arbitrary);
}

/**
 * An object for `spec`: each field absent, valid, or anything (valid three times in four),
 * groups likewise (or replaced by anything: a string, a list, null), plus hostile extra keys.
 */
export function objectFor(spec: { readonly [name: string]: FieldSpec }): fc.Arbitrary<JsonObject> {
  const fields = Object.entries(spec).map(([name, field]) =>
    fc.option(
      fc.tuple(
        fc.constant(name),
        isGroup(field)
          ? fc.oneof({ weight: 5, arbitrary: objectFor(field) }, { weight: 1, arbitrary: anyJson })
          : fc.oneof({ weight: 3, arbitrary: field }, { weight: 1, arbitrary: anyJson }),
      ),
      { freq: 5 },
    ),
  );
  const extra = fc.array(fc.tuple(hostileKey, anyJson), { maxLength: 2 });
  return fc.tuple(fc.tuple(...fields), fc.boolean(), extra).map(([present, extraFirst, more]) => {
    const entries = present.filter((e): e is [string, JsonValue] => e !== null);
    return new JsonObject(extraFirst ? [...more, ...entries] : [...entries, ...more]);
  });
}

/** An object with every field of `spec` present and valid. */
export function validObjectFor(spec: {
  readonly [name: string]: FieldSpec;
}): fc.Arbitrary<JsonObject> {
  const fields = Object.entries(spec).map(([name, field]) =>
    fc.tuple(fc.constant(name), isGroup(field) ? validObjectFor(field) : field),
  );
  return fc.tuple(...fields).map((entries) => new JsonObject(entries));
}

/** Replaces the `n`-th leaf (in depth-first order, modulo their number) of `object` by `value`. */
function replaceLeaf(object: JsonObject, n: number, value: JsonValue): JsonObject {
  const leaves = (o: JsonObject): number =>
    o.entries.reduce((sum, [, v]) => sum + (v instanceof JsonObject ? leaves(v) : 1), 0);
  let target = n % Math.max(1, leaves(object));
  const walk = (o: JsonObject): JsonObject =>
    new JsonObject(
      o.entries.map(([k, v]) => {
        if (v instanceof JsonObject) return [k, walk(v)] as const;
        return [k, target-- === 0 ? value : v] as const;
      }),
    );
  return walk(object);
}

/**
 * Bodies for `spec`: a valid one, a valid one with one leaf replaced by anything (the most
 * telling case: every other check passes), or {@link objectFor}'s free mix.
 */
export function bodyFor(spec: { readonly [name: string]: FieldSpec }): fc.Arbitrary<JsonObject> {
  const valid = validObjectFor(spec);
  return fc.oneof(
    valid,
    fc.tuple(valid, fc.nat(), anyJson).map(([o, n, v]) => replaceLeaf(o, n, v)),
    objectFor(spec),
    objectFor(spec),
  );
}

// Valid values of the bookstore's fields ---------------------------------------------------------

const text = (max: number) =>
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(max, 40) })
    .filter((s) => s.trim().length > 0)
    .map((s) => s.trim());

const date = fc
  .date({
    min: new Date('1900-01-01T00:00:00Z'),
    max: new Date('2100-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));
const positive = fc.integer({ min: 0, max: 2_147_483_647 });
const price = fc.oneof(
  fc.integer({ min: -99_999_999, max: 99_999_999 }).map((c) => (c / 100).toFixed(2)),
  fc.integer({ min: 0, max: 1000 }).map((n) => n / 2),
);
const email = fc.emailAddress().filter((e) => e.length <= 200);
const url = fc.webUrl().filter((u) => u.length <= 200);
const nullableText = fc.option(text(1000), { nil: null });

/** A Book body (spec 2.3): isbn values are made unique so valid creates can succeed. */
export const BOOK: { readonly [name: string]: FieldSpec } = {
  title: text(100),
  description: nullableText,
  summary: nullableText,
  publishing_information: {
    publication_date: date,
    isbn: fc.uuid(),
    pages: positive,
  },
  stock_information: {
    stock_count: positive,
    price,
    state: fc.constantFrom('published', 'not_published', 'in_progress'),
  },
};

/** An Author body (spec 2.4), two levels of groups. */
export const AUTHOR: { readonly [name: string]: FieldSpec } = {
  salutation: text(10),
  name: text(200),
  birth_date: fc.option(date, { nil: null }),
  biography: nullableText,
  contact_information: {
    personal_contact_information: {
      email,
      phone_number: fc.option(text(200), { nil: null }),
      website: fc.option(url, { nil: null }),
    },
    business_contact_information: {
      company: fc.option(text(200), { nil: null }),
      company_email: fc.option(email, { nil: null }),
      company_phone_number: fc.option(text(200), { nil: null }),
      company_website: fc.option(url, { nil: null }),
    },
  },
};

/** A Profile body (spec 2.5): read-only fields sent too; `user` among ids with and without a profile. */
export function profileSpec(userIds: readonly number[]): { readonly [name: string]: FieldSpec } {
  return {
    username: text(150),
    full_name: text(150),
    email,
    biography: text(1000),
    hobbies: text(1000),
    user: fc.constantFrom(...userIds),
  };
}

/** An Upload body without its file (spec 2.6). */
export const UPLOAD_FIELDS: { readonly [name: string]: FieldSpec } = {
  username: text(255),
};

/** File names a client may send: path tricks, odd Unicode, executable types, nothing at all. */
export const hostileFileName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'resume.txt',
    'page.html',
    'image.svg',
    'script.js',
    '../../../etc/passwd',
    '..\\..\\boot.ini',
    '/absolute/path.txt',
    '.',
    '..',
    '.hidden',
    'CON',
    'nul.txt',
    'a\u0000b.txt',
    'evil\u202Etxt.exe',
    '😀.txt',
    `${'x'.repeat(300)}.txt`,
    '',
    ' ',
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: codeUnit, maxLength: 10 }),
);

/** File contents: empty, small, binary. */
export const fileContent: fc.Arbitrary<Buffer> = fc.oneof(
  fc.constant(Buffer.alloc(0)),
  fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)),
  fc.constant(Buffer.from('<html><script>alert(document.domain)</script></html>')),
);
