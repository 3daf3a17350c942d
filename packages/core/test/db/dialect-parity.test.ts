/**
 * The same answers on every database, checked with generated values: text round-trips and
 * sorts by code point (trailing spaces and control characters included), decimals round-trip
 * exactly and sort numerically, datetimes round-trip to the millisecond and sort in time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  defineModel,
  models,
  type Row,
  UniqueViolationError,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';

const Item = defineModel({
  name: 'Item',
  table: 'parity_item',
  fields: {
    name: models.CharField({ maxLength: 40, unique: true }),
    note: models.TextField({ blank: true }),
    amount: models.DecimalField({ maxDigits: 15, decimalPlaces: 4, null: true }),
    at: models.DateTimeField({ null: true }),
  },
});

/** Code point order: what byte order of UTF-8 is (JavaScript's `<` compares UTF-16 units). */
function byCodePoint(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

// Any code point but NUL (PostgreSQL stores none in text) and lone surrogates (not UTF-8),
// with spaces, tabs and the characters either side of them made likely.
const character = fc.oneof(
  fc.constantFrom(' ', '\t', '\n', '!', 'a', 'A', 'é', 'É', '\u{10348}', '\uffff', '\u00a0'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const text = fc
  .array(character, { maxLength: 12 })
  .map((chars) => chars.join(''))
  .filter((s) => !s.includes('\u0000') && [...s].length <= 40);

const SCALE = 10_000n;
/** A decimal of up to 11 integer digits and 4 places, as text with exactly 4 places. */
const decimal = fc.bigInt(-(10n ** 15n) + 1n, 10n ** 15n - 1n).map((units) => {
  const sign = units < 0n ? '-' : '';
  const abs = units < 0n ? -units : units;
  return {
    units,
    text: `${sign}${abs / SCALE}.${(abs % SCALE).toString().padStart(4, '0')}`,
  };
});

const instant = fc
  .date({
    min: new Date('0001-01-01T00:00:00.000Z'),
    max: new Date('9999-12-31T23:59:59.999Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString());

for (const dialect of testDialects()) {
  describe(`the same answers on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    const items = () => Item.objects.using(db);

    before(async () => {
      db = await dialect.create();
      await db.migrate([Item]);
    });
    after(() => dialect.drop(db));

    it('keeps text exactly and sorts it by code point', async () => {
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(text, { minLength: 1, maxLength: 8 }), async (names) => {
          await items().delete();
          for (const name of names) await items().create({ name, note: name });
          const rows = await items().orderBy('name').execute();
          assert.deepEqual(
            rows.map((r) => r.name),
            [...names].sort(byCodePoint),
          );
          for (const row of rows) assert.equal(row.note, row.name);
          const descending = await items().orderBy('-note', 'id').execute();
          assert.deepEqual(
            descending.map((r) => r.note),
            [...names].sort(byCodePoint).reverse(),
          );
          // Equality is exact: a trailing space or a case change is another value.
          const [first] = names as [string];
          assert.deepEqual(
            (await items().filter({ name: first }).execute()).map((r) => r.name),
            [first],
          );
        }),
        { numRuns: 25 },
      );
    });

    it('tells apart values that differ only by trailing spaces, and refuses an exact duplicate', async () => {
      await items().delete();
      for (const name of ['a', 'a ', 'a\t', 'a  ']) await items().create({ name });
      assert.deepEqual(
        (await items().orderBy('name').execute()).map((r) => r.name),
        ['a', 'a\t', 'a ', 'a  '],
      );
      await assert.rejects(items().create({ name: 'a ' }), (error: unknown) => {
        assert.ok(error instanceof UniqueViolationError);
        assert.deepEqual(error.fields, ['name']);
        return true;
      });
      assert.equal(await items().filter({ name__startswith: 'a ' }).count(), 2);
    });

    it('keeps decimals exactly and sorts them numerically', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(decimal, { minLength: 1, maxLength: 8 }), async (values) => {
          await items().delete();
          const made: Row<typeof Item>[] = [];
          for (const [i, value] of values.entries())
            made.push(await items().create({ name: `d${i}`, amount: value.text }));
          assert.deepEqual(
            made.map((r) => r.amount),
            values.map((v) => v.text),
          );
          const rows = await items().orderBy('amount', 'id').execute();
          const expected = values
            .map((v, i) => ({ ...v, i }))
            .sort((a, b) => (a.units < b.units ? -1 : a.units > b.units ? 1 : a.i - b.i));
          assert.deepEqual(
            rows.map((r) => r.amount),
            expected.map((v) => v.text),
          );
        }),
        { numRuns: 20 },
      );
    });

    it('keeps datetimes to the millisecond, in UTC, and sorts them in time', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.option(instant), { minLength: 1, maxLength: 8 }),
          async (values) => {
            await items().delete();
            for (const [i, at] of values.entries()) {
              const row = await items().create({ name: `t${i}`, at });
              assert.equal(row.at, at);
            }
            const rows = await items().orderBy('-at', 'id').execute();
            // NULL is the smallest value: last, descending.
            const expected = values
              .map((at, i) => ({ at, i }))
              .sort((a, b) =>
                a.at === b.at
                  ? a.i - b.i
                  : a.at === null
                    ? 1
                    : b.at === null
                      ? -1
                      : Date.parse(b.at) - Date.parse(a.at),
              );
            assert.deepEqual(
              rows.map((r) => r.at),
              expected.map((v) => v.at),
            );
            const some = values.find((v) => v !== null);
            if (some)
              assert.equal(
                await items().filter({ at__gte: some }).count(),
                values.filter((v) => v !== null && Date.parse(v) >= Date.parse(some)).length,
              );
          },
        ),
        { numRuns: 20 },
      );
    });
  });
}
