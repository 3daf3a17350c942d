/**
 * The column kinds of issue 39 give the same answers on every database, checked with
 * generated values: floats, small integers, times of day, durations, slugs, UUIDs (also as a
 * primary key, and as the target of a foreign key) and JSON round-trip and sort alike.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  defineModel,
  ImproperlyConfigured,
  InvalidLookupValueError,
  type JsonValue,
  models,
  type Row,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';

const Sample = defineModel({
  name: 'Sample',
  table: 'kinds_sample',
  fields: {
    label: models.SlugField({ unique: true }),
    ratio: models.FloatField({ null: true }),
    small: models.SmallIntegerField({ default: 0 }),
    rank: models.PositiveSmallIntegerField({ default: 0 }),
    opens: models.TimeField({ null: true }),
    length: models.DurationField({ null: true }),
    token: models.UUIDField({ null: true }),
    data: models.JSONField({ null: true }),
  },
});

const Ticket = defineModel({
  name: 'Ticket',
  table: 'kinds_ticket',
  fields: {
    id: models.UUIDField({ primaryKey: true, default: () => randomUUID() }),
    title: models.CharField({ maxLength: 20 }),
  },
});

const Stub = defineModel({
  name: 'Stub',
  table: 'kinds_stub',
  fields: {
    ticket: models.ForeignKey(() => Ticket, { onDelete: 'CASCADE', relatedName: 'stubs' }),
  },
});

// Doubles every database keeps exactly: no -0 (MySQL gives 0 back) and no subnormals (below
// 2.2e-308 MariaDB's text protocol sends five digits: 4.9406564584124654e-320 comes back as
// 4.9407e-320), which the generator reached about once in fifteen runs.
const float = fc
  .double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 })
  .map((v) => (Object.is(v, -0) || Math.abs(v) < Number.MIN_VALUE * 2 ** 52 ? 0 : v));
const time = fc
  .record({
    h: fc.integer({ min: 0, max: 23 }),
    m: fc.integer({ min: 0, max: 59 }),
    s: fc.integer({ min: 0, max: 59 }),
    us: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 999_999 })),
  })
  .map(({ h, m, s, us }) => {
    const two = (n: number) => String(n).padStart(2, '0');
    const base = `${two(h)}:${two(m)}:${two(s)}`;
    return us ? `${base}.${String(us).padStart(6, '0')}` : base;
  });
const duration = fc.integer({ min: -(2 ** 52), max: 2 ** 52 });
/** Whether `value` holds, at any depth, an object with the one-character key `"`. */
function hasQuoteKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasQuoteKey);
  return Object.entries(value).some(([key, inner]) => key === '"' || hasQuoteKey(inner));
}

// JSON without -0 (JSON text has none) and with keys of plain characters. Without the key `"`
// alone: Node.js 24.21's JSON.parse (V8) gives it back as `\` once the key `\` alone was
// parsed in the same process (`JSON.parse('{"\\\\":1}'); JSON.parse('{"\\"":1}')` has the
// key "\\"; Node.js 22 gives '"'), which the generator reached in a CI run. It
// is the runtime's bug, not the databases': on each of them the JSON text reaches JSON.parse.
// V8's key cache, nodejs/node#63785 (open; also seen on Node 26): remove the filter once fixed.
const json: fc.Arbitrary<JsonValue> = fc
  .jsonValue({ maxDepth: 3 })
  .map((v) => JSON.parse(JSON.stringify(v)) as JsonValue)
  .filter((v) => !hasQuoteKey(v));

function byNumber<T>(key: (x: T) => number) {
  return (a: { v: T; i: number }, b: { v: T; i: number }) => key(a.v) - key(b.v) || a.i - b.i;
}

for (const dialect of testDialects()) {
  describe(`the new column kinds on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    const samples = () => Sample.objects.using(db);

    before(async () => {
      db = await dialect.create();
      await db.migrate([Sample, Ticket, Stub]);
    });
    after(() => dialect.drop(db));

    it('keeps floats and sorts them numerically', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(float, { minLength: 1, maxLength: 8 }), async (values) => {
          await samples().delete();
          for (const [i, ratio] of values.entries()) {
            const row = await samples().create({ label: `f${i}`, ratio });
            assert.equal(row.ratio, ratio);
          }
          const rows = await samples().orderBy('ratio', 'id').execute();
          const expected = values.map((v, i) => ({ v, i })).sort(byNumber((v) => v));
          assert.deepEqual(
            rows.map((r) => r.ratio),
            expected.map((e) => e.v),
          );
          const [first] = values as [number];
          assert.equal(
            await samples().filter({ ratio__gte: first }).count(),
            values.filter((v) => v >= first).length,
          );
        }),
        { numRuns: 15 },
      );
    });

    it('keeps small integers in their range; a value past it matches nothing', async () => {
      await samples().delete();
      const values = [-32768, -1, 0, 7, 32767];
      for (const [i, small] of values.entries())
        await samples().create({ label: `s${i}`, small, rank: Math.abs(small) % 32768 });
      const rows = await samples().orderBy('-small').execute();
      assert.deepEqual(
        rows.map((r) => r.small),
        [...values].reverse(),
      );
      assert.equal(await samples().filter({ small: 40000 }).count(), 0);
      assert.equal(await samples().filter({ small__lt: 40000 }).count(), values.length);
      assert.equal(
        await samples()
          .filter({ small__range: [-40000, 0] })
          .count(),
        3,
      );
      // The database refuses a negative positive small integer (its CHECK), on every dialect.
      await assert.rejects(samples().create({ label: 'neg', rank: -1 }));
    });

    it('keeps times of day to the microsecond and sorts them', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(time, { minLength: 1, maxLength: 8 }), async (values) => {
          await samples().delete();
          for (const [i, opens] of values.entries()) {
            const row = await samples().create({ label: `t${i}`, opens });
            assert.equal(row.opens, opens);
          }
          const rows = await samples().orderBy('opens', 'id').execute();
          const expected = values
            .map((v, i) => ({ v, i }))
            .sort((a, b) => (a.v < b.v ? -1 : a.v > b.v ? 1 : a.i - b.i));
          assert.deepEqual(
            rows.map((r) => r.opens),
            expected.map((e) => e.v),
          );
          const [first] = values as [string];
          assert.equal(
            await samples().filter({ opens__lte: first }).count(),
            values.filter((v) => v <= first).length,
          );
        }),
        { numRuns: 15 },
      );
      // A short form is the same time.
      await samples().delete();
      await samples().create({ label: 'short', opens: '09:30' });
      assert.equal((await samples().get({ opens: '09:30:00' })).opens, '09:30:00');
      await assert.rejects(samples().filter({ opens: '25:00' }).count(), InvalidLookupValueError);
    });

    it('keeps durations as microseconds and sorts them', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(duration, { minLength: 1, maxLength: 8 }), async (values) => {
          await samples().delete();
          for (const [i, length] of values.entries()) {
            const row = await samples().create({ label: `d${i}`, length });
            assert.equal(row.length, length);
          }
          const rows = await samples().orderBy('-length', 'id').execute();
          const expected = values.map((v, i) => ({ v, i })).sort(byNumber((v) => -v));
          assert.deepEqual(
            rows.map((r) => r.length),
            expected.map((e) => e.v),
          );
        }),
        { numRuns: 15 },
      );
    });

    it('keeps UUIDs lower-case with dashes, whatever form they were given in', async () => {
      await samples().delete();
      const token = randomUUID();
      const row = await samples().create({
        label: 'u',
        token: token.toUpperCase().replaceAll('-', ''),
      });
      assert.equal(row.token, token);
      assert.equal((await samples().get({ token: `{${token.toUpperCase()}}` })).label, 'u');
      await assert.rejects(
        samples().filter({ token: 'not-a-uuid' }).count(),
        InvalidLookupValueError,
      );
    });

    it('a UUID primary key: made by its default, found, and followed by a foreign key', async () => {
      const ticket = await Ticket.objects.using(db).create({ title: 'gig' });
      assert.match(ticket.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const stub = await Stub.objects.using(db).create({ ticket_id: ticket.id.toUpperCase() });
      assert.equal(stub.ticket_id, ticket.id);
      const found = await Stub.objects
        .using(db)
        .filter({ ticket__title: 'gig' })
        .selectRelated('ticket')
        .execute();
      assert.deepEqual(
        found.map((s) => s.ticket_id),
        [ticket.id],
      );
      assert.equal((await Ticket.objects.using(db).get({ pk: ticket.id })).title, 'gig');
    });

    it('keeps JSON values (objects, arrays, strings, numbers, booleans) and filters by isnull', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(json, { minLength: 1, maxLength: 6 }), async (values) => {
          await samples().delete();
          const made: Row<typeof Sample>[] = [];
          for (const [i, data] of values.entries())
            made.push(await samples().create({ label: `j${i}`, data }));
          const rows = await samples().orderBy('id').execute();
          assert.deepEqual(
            rows.map((r) => r.data),
            values,
          );
          assert.equal(
            await samples().filter({ data__isnull: true }).count(),
            values.filter((v) => v === null).length,
          );
        }),
        { numRuns: 20 },
      );
      await assert.rejects(
        samples()
          .filter({ data: { a: 1 } })
          .count(),
        InvalidLookupValueError,
      );
      // @ts-expect-error: a JSONField takes isnull only (a type error too)
      await assert.rejects(samples().filter({ data__contains: 'a' }).count(), ImproperlyConfigured);
    });
  });
}
