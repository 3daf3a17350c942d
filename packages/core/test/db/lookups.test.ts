/**
 * The query layer under the filters, on every dialect: a value the column cannot hold throws
 * InvalidLookupValueError (never an empty list), an unsupported lookup is named with the
 * supported ones, create()/update() refuse unknown field names, the new lookups give the same
 * rows everywhere, and filtered queries (through a FilterSet) use the column's index.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  defineModel,
  FilterSet,
  ImproperlyConfigured,
  InvalidLookupValueError,
  models,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';

const Room = defineModel({
  name: 'Room',
  table: 'lk_room',
  fields: {
    city: models.CharField({ maxLength: 50 }),
    capacity: models.IntegerField({ dbIndex: true }),
    opened: models.DateField({ null: true }),
    price: models.DecimalField({ maxDigits: 8, decimalPlaces: 2, default: '1.00' }),
    open: models.BooleanField({ default: true }),
  },
  ordering: ['id'],
});

class RoomFilters extends FilterSet.with({
  model: Room,
  fields: { capacity: ['exact', 'gte', 'lt'] },
}) {}

for (const dialect of testDialects()) {
  describe(`lookups on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    const rooms = () => Room.objects.using(db);
    const ids = async (filter: Record<string, unknown>) =>
      (await rooms().filter(filter).execute()).map((r) => r.id);

    before(async () => {
      db = await dialect.create();
      await db.migrate([Room]);
      await db.transaction(async () => {
        for (let i = 1; i <= 2000; i++) {
          await rooms().create({
            city: i % 2 ? 'Lyon' : 'Paris_1%',
            capacity: i,
            opened: i <= 3 ? `2021-0${i}-1${i}` : null,
          });
        }
      });
      // Fresh statistics, so the planner knows the table is not tiny.
      if (db.vendor === 'postgres') await db.query('analyze lk_room', []);
    });

    after(async () => {
      await db?.close();
    });

    it('throws InvalidLookupValueError for a value the column cannot hold', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ capacity: 'many' }, /^Field 'capacity' expected a number but got "many"\.$/],
        [{ capacity: 1.5 }, /expected a whole number but got "1\.5"/],
        [{ capacity__gte: {} }, /expected a number/],
        [{ capacity__in: [1, 'x'] }, /expected a number but got "x"/],
        [{ capacity__range: [1, 'x'] }, /expected a number/],
        [
          { opened: '2023-02-30' },
          /^Field 'opened' expected a date \(YYYY-MM-DD\) but got "2023-02-30"\.$/,
        ],
        [{ opened__year: 'soon' }, /^Field 'opened__year' expected a number but got "soon"\.$/],
        [{ price__lt: 'cheap' }, /Field 'price' expected a number/],
        [{ open: 'yes' }, /Field 'open' expected either True or False/],
        [{ city: { a: 1 } }, /Field 'city' expected a string/],
        [{ city__icontains: 'a\u0000' }, /Field 'city' expected a string without NUL characters/],
        [{ city__in: ['Lyon', '\u0000'] }, /Field 'city' expected a string without NUL characters/],
      ];
      for (const [filter, message] of cases) {
        await assert.rejects(
          async () => rooms().filter(filter).execute(),
          (error: Error) => error instanceof InvalidLookupValueError && message.test(error.message),
          JSON.stringify(filter),
        );
      }
    });

    it('converts text a column can hold, and finds no row past its range', async () => {
      assert.deepEqual(await ids({ capacity: '7' }), [7]);
      assert.deepEqual(await ids({ capacity__in: ['1', 2] }), [1, 2]);
      assert.deepEqual(await ids({ capacity: 1e10 }), []);
      assert.equal((await ids({ capacity__range: [-1e10, 3] })).length, 3);
    });

    it('names an unsupported lookup and the supported ones', () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [
          { city__nope: 1 },
          /unsupported lookup "nope" for city \(a char field\); supported lookups: exact, in, range, gt, gte, lt, lte, isnull, iexact, contains/,
        ],
        [
          { capacity__icontains: 1 },
          /unsupported lookup "icontains" for capacity \(a integer field\); supported lookups: exact, in, range, gt, gte, lt, lte, isnull\./,
        ],
        [{ city__year: 2020 }, /unsupported lookup "year" for city/],
        [
          { capacity__unaccent__icontains: 1 },
          /unsupported lookup "unaccent__icontains" for capacity/,
        ],
        [{ capacity__unaccent: 1 }, /unsupported lookup "unaccent__exact" for capacity/],
        [
          { open__gt: true },
          /unsupported lookup "gt" for open \(a boolean field\); supported lookups: exact, in, isnull\./,
        ],
      ];
      for (const [filter, message] of cases) {
        assert.throws(
          () => rooms().filter(filter).compile(),
          (error: Error & { code?: string }) =>
            error instanceof ImproperlyConfigured &&
            error.code === 'REST_ERR_QUERY_LOOKUP' &&
            message.test(error.message),
          JSON.stringify(filter),
        );
      }
    });

    it('refuses unknown field names in create(), update() and updateRow()', async () => {
      const row = (await rooms().get({ pk: 1 })) as Record<string, unknown>;
      const attempts: [string, () => Promise<unknown>][] = [
        ['create', () => rooms().create({ city: 'x', capacity: 1, capacit: 2 } as never)],
        [
          'update',
          () =>
            rooms()
              .filter({ pk: 1 })
              .update({ capacit: 2 } as never),
        ],
        ['updateRow', () => rooms().updateRow(row as never, { capacit: 2 } as never)],
      ];
      for (const [what, attempt] of attempts) {
        await assert.rejects(attempt, (error: Error & { code?: string }) => {
          assert.equal(error.code, 'REST_ERR_MODEL_PATH', what);
          assert.match(
            error.message,
            /Room has no field "capacit"\. Fields: id, city, capacity, opened, price, open\./,
          );
          return true;
        });
      }
      assert.equal(await rooms().count(), 2000, 'nothing was written');
    });

    it('gives the same rows for the new lookups on every database', async () => {
      assert.deepEqual(await ids({ city__iexact: 'LYON', capacity__lt: 6 }), [1, 3, 5]);
      assert.deepEqual(await ids({ city__iexact: 'paris_1%', capacity__lt: 5 }), [2, 4]);
      assert.deepEqual(await ids({ city__iexact: 'parisx1%', capacity__lt: 5 }), []);
      assert.deepEqual(await ids({ city__iendswith: 'YON', capacity__lt: 6 }), [1, 3, 5]);
      assert.deepEqual(await ids({ city__iendswith: '_1%', capacity__lt: 5 }), [2, 4]);
      assert.deepEqual(await ids({ city__iendswith: 'x1%', capacity__lt: 5 }), []);
      assert.deepEqual(await ids({ city__endswith: 'ON', capacity__lt: 5 }), []);
      assert.deepEqual(await ids({ city__endswith: 'on', capacity__lt: 5 }), [1, 3]);
      if (db.adapter.capabilities.accentFolding) {
        assert.deepEqual(await ids({ city__unaccent__iexact: 'LYÔN', capacity__lt: 4 }), [1, 3]);
        assert.deepEqual(await ids({ city__unaccent: 'Lyon', capacity__lt: 4 }), [1, 3]);
      }
      assert.deepEqual(await ids({ capacity__range: [10, 12] }), [10, 11, 12]);
      assert.deepEqual(await ids({ opened__year: 2021 }), [1, 2, 3]);
      assert.deepEqual(await ids({ opened__year: 2020 }), []);
      assert.deepEqual(await ids({ opened__month: 2 }), [2]);
      assert.deepEqual(await ids({ opened__day: 13 }), [3]);
      assert.deepEqual(await ids({ city__search: 'lyon', capacity__lt: 4 }), [1, 3]);
      assert.deepEqual(
        (
          await rooms()
            .filterAny([{ capacity: 1 }, { capacity: 5 }, { capacity__gt: 1998 }])
            .execute()
        ).map((r) => r.id),
        [1, 5, 1999, 2000],
      );
      assert.deepEqual(await rooms().filterAny([]).execute(), []);
      if (db.adapter.capabilities.regex) {
        assert.deepEqual(await ids({ city__regex: '^Ly', capacity__lt: 4 }), [1, 3]);
        assert.deepEqual(await ids({ city__iregex: '^ly', capacity__lt: 4 }), [1, 3]);
      } else {
        assert.throws(
          () => rooms().filter({ city__regex: '^Ly' }).compile(),
          new RegExp(
            `the "regex" lookup needs regular expressions, which ${db.vendor} does not have`,
          ),
        );
      }
    });

    it("filters through a FilterSet use the column's index (equality and range)", async () => {
      for (const data of [
        [['capacity', '5']],
        [
          ['capacity__gte', '10'],
          ['capacity__lt', '20'],
        ],
      ] as [string, string][][]) {
        const filterset = new RoomFilters(new Map(data), rooms());
        assert.ok(filterset.isValid());
        const plan = (await (await filterset.qs).orderBy().explain()).join('\n');
        if (db.vendor === 'sqlite')
          assert.match(plan, /USING (COVERING )?INDEX lk_room_capacity/, plan);
        else if (db.vendor === 'mysql') assert.match(plan, /\bkey=lk_room_capacity/, plan);
        else
          assert.match(
            plan,
            /Index (Only )?Scan using lk_room_capacity|Bitmap Index Scan on lk_room_capacity/,
            plan,
          );
      }
    });
  });
}
