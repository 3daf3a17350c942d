import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  CheckViolationError,
  type ConditionBuilder,
  type Database,
  DoesNotExist,
  type Filter,
  ForeignKeyViolationError,
  MultipleObjectsReturned,
  NotNullViolationError,
  type QuerySet,
  type Row,
  UniqueViolationError,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import { sql as rawSql } from 'kysely';
import { ALL_MODELS, Book, Profile, User } from '../fixtures/library-models.ts';

type BookRow = Row<typeof Book>;

for (const dialect of testDialects()) {
  describe(`queries on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;

    before(async () => {
      db = await dialect.create();
      const report = await db.migrate(ALL_MODELS);
      assert.deepEqual(report.createdTables, ['lib_user', 'lib_profile', 'lib_book']);
    });
    after(() => dialect.drop(db));

    beforeEach(async () => {
      await Book.objects.using(db).delete();
      await Profile.objects.using(db).delete();
      await User.objects.using(db).delete();
    });

    const books = () => Book.objects.using(db);
    const users = () => User.objects.using(db);
    const profiles = () => Profile.objects.using(db);
    const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id);

    async function seedBooks(): Promise<BookRow[]> {
      const data = [
        { title: 'b', isbn: '3', price: '10.00', published: '2020-05-01', summary: 'Zed' },
        { title: 'a', isbn: '1', price: '9.50', published: null, summary: 'apple' },
        { title: 'C', isbn: '2', price: '100', published: '2019-01-31', summary: null },
        { title: 'a', isbn: '10', price: '0.01', published: '2021-12-31', summary: '100% _real_' },
      ];
      const rows: BookRow[] = [];
      for (const d of data) rows.push(await books().create(d));
      return rows;
    }

    it('migrates idempotently', async () => {
      const report = await db.migrate(ALL_MODELS);
      assert.deepEqual(report.createdTables, []);
      assert.deepEqual(report.addedColumns, []);
    });

    it('creates rows with defaults and exact round-trips', async () => {
      const row = await books().create({ title: 'Dune', isbn: 'x1', price: '12.5' });
      assert.equal(typeof row.id, 'number');
      assert.equal(row.price, '12.50');
      assert.equal(row.pages, 200);
      assert.equal(row.in_print, true);
      assert.equal(row.state, 'published');
      assert.equal(row.published, null);
      assert.equal(row.summary, null);
      assert.match(row.added, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const again = await books().get({ pk: row.id });
      assert.deepEqual(again, row);

      const other = await books().create({
        title: 'T',
        isbn: 'x2',
        price: '99999999.99',
        in_print: false,
        published: '2023-02-28',
        pages: 0,
      });
      assert.equal(other.price, '99999999.99');
      assert.equal(other.in_print, false);
      assert.equal(other.published, '2023-02-28');
      assert.equal(other.pages, 0);
      assert.equal((await books().get({ in_print: false })).id, other.id);
    });

    it('fills blank text fields with an empty string, as Django does', async () => {
      const user = await users().create({ username: 'ann' });
      assert.equal(user.first_name, '');
      assert.equal(user.email, '');
    });

    it('filters with lookups', async () => {
      const [b3, b1, b2, b10] = (await seedBooks()) as [BookRow, BookRow, BookRow, BookRow];
      assert.deepEqual(ids(await books().filter({ title: 'a' }).execute()), [b1.id, b10.id]);
      assert.deepEqual(
        ids(
          await books()
            .filter({ isbn__in: ['1', '2'] })
            .execute(),
        ),
        [b1.id, b2.id],
      );
      assert.deepEqual(ids(await books().filter({ isbn__in: [] }).execute()), []);
      assert.deepEqual(ids(await books().filter({ price__gte: '10' }).execute()), [b2.id, b3.id]);
      assert.deepEqual(ids(await books().filter({ price__lt: '9.5' }).execute()), [b10.id]);
      assert.deepEqual(ids(await books().filter({ published__isnull: true }).execute()), [b1.id]);
      assert.deepEqual(ids(await books().filter({ published: null }).execute()), [b1.id]);
      assert.deepEqual(ids(await books().filter({ published__gt: '2020-01-01' }).execute()), [
        b10.id,
        b3.id,
      ]);
      assert.deepEqual(ids(await books().filter({ summary__icontains: 'APP' }).execute()), [b1.id]);
      assert.deepEqual(ids(await books().filter({ summary__contains: 'app' }).execute()), [b1.id]);
      assert.deepEqual(ids(await books().filter({ summary__contains: 'APP' }).execute()), []);
      // % and _ are matched literally, never as wildcards.
      assert.deepEqual(ids(await books().filter({ summary__contains: '0% _' }).execute()), [
        b10.id,
      ]);
      assert.deepEqual(ids(await books().filter({ summary__icontains: '%' }).execute()), [b10.id]);
      assert.deepEqual(ids(await books().filter({ summary__contains: '_r' }).execute()), [b10.id]);
      assert.deepEqual(ids(await books().filter({ summary__istartswith: 'z' }).execute()), [b3.id]);
      assert.deepEqual(ids(await books().exclude({ title: 'a' }).execute()), [b2.id, b3.id]);
      assert.deepEqual(ids(await books().filter({ title: 'a' }).filter({ isbn: '10' }).execute()), [
        b10.id,
      ]);
    });

    it('binds the values of a custom condition with a shape, its SQL compiled once per key', async () => {
      const [b3, b1, b2, b10] = (await seedBooks()) as [BookRow, BookRow, BookRow, BookRow];
      const isbnAfter = (isbn: string) => ({ key: 'isbn-after', parameters: [isbn] });
      const after: ConditionBuilder = (eb, ref, [isbn]) => eb(ref('isbn'), '>', isbn);
      assert.deepEqual(ids(await books().where(after, isbnAfter('1')).execute()), [
        b10.id,
        b2.id,
        b3.id,
      ]);
      // The same shape again: its own value is bound, not the first one's.
      assert.deepEqual(ids(await books().where(after, isbnAfter('2')).execute()), [b3.id]);
      // Next to a filter, before or after it, each value keeps its place.
      assert.deepEqual(
        ids(await books().filter({ title: 'a' }).where(after, isbnAfter('1')).execute()),
        [b10.id],
      );
      assert.deepEqual(
        ids(await books().where(after, isbnAfter('1')).filter({ title: 'C' }).execute()),
        [b2.id],
      );
      // A builder that writes a value in directly is compiled with it every time.
      const titled = (title: string) =>
        books()
          .where((eb, ref) => eb(ref('title'), '=', title), { key: 'title-inline', parameters: [] })
          .execute();
      assert.deepEqual(ids(await titled('a')), [b1.id, b10.id]);
      assert.deepEqual(ids(await titled('b')), [b3.id]);
      // Without a shape it is built every time.
      assert.deepEqual(
        ids(
          await books()
            .where((eb, ref) => eb(ref('title'), '=', 'C'))
            .execute(),
        ),
        [b2.id],
      );
    });

    it('orders by the model default, descending, and by several terms', async () => {
      const [b3, b1, b2, b10] = (await seedBooks()) as [BookRow, BookRow, BookRow, BookRow];
      // isbn is text: byte order puts '10' between '1' and '2'.
      assert.deepEqual(ids(await books().execute()), [b1.id, b10.id, b2.id, b3.id]);
      assert.deepEqual(ids(await books().orderBy('-isbn').execute()), [
        b3.id,
        b2.id,
        b10.id,
        b1.id,
      ]);
      assert.deepEqual(ids(await books().orderBy('title', '-isbn').execute()), [
        b2.id,
        b10.id,
        b1.id,
        b3.id,
      ]);
    });

    it('orders decimals numerically', async () => {
      const [b3, b1, b2, b10] = (await seedBooks()) as [BookRow, BookRow, BookRow, BookRow];
      assert.deepEqual(ids(await books().orderBy('price').execute()), [
        b10.id,
        b1.id,
        b3.id,
        b2.id,
      ]);
      assert.deepEqual(ids(await books().orderBy('-price').execute()), [
        b2.id,
        b3.id,
        b1.id,
        b10.id,
      ]);
    });

    it('sorts NULL as the smallest value on every dialect', async () => {
      const [b3, b1, b2, b10] = (await seedBooks()) as [BookRow, BookRow, BookRow, BookRow];
      assert.deepEqual(ids(await books().orderBy('published').execute()), [
        b1.id,
        b2.id,
        b3.id,
        b10.id,
      ]);
      assert.deepEqual(ids(await books().orderBy('-published').execute()), [
        b10.id,
        b3.id,
        b2.id,
        b1.id,
      ]);
      assert.deepEqual(ids(await books().orderBy('summary').execute()), [
        b2.id,
        b10.id,
        b3.id,
        b1.id,
      ]);
    });

    it('compares text by code point: upper case before lower case, digits as text', async () => {
      const names = ['alice20', 'Bob', 'alice120', 'ÆLFRED', 'bob', '', 'Zoë'];
      for (const username of names) await users().create({ username });
      const rows = await users().orderBy('username').execute();
      assert.deepEqual(
        rows.map((r) => r.username),
        ['', 'Bob', 'Zoë', 'alice120', 'alice20', 'bob', 'ÆLFRED'],
      );
    });

    it('orders across a relation with one LEFT JOIN, keeping rows without one', async () => {
      const zed = await users().create({ username: 'zed', email: 'a@x.org' });
      const amy = await users().create({ username: 'amy', email: 'z@x.org' });
      const p1 = await profiles().create({ user_id: zed.id });
      const p2 = await profiles().create({ user_id: amy.id });
      const p3 = await profiles().create({ user_id: null });
      const query = profiles().orderBy('user__username', '-user__email', 'user__id');
      const sql = query.compile().sql.toLowerCase();
      assert.equal(sql.match(/left join/g)?.length, 1);
      assert.deepEqual(ids(await query.execute()), [p3.id, p2.id, p1.id]);
      assert.deepEqual(ids(await profiles().orderBy('-user__username').execute()), [
        p1.id,
        p2.id,
        p3.id,
      ]);
      assert.deepEqual(ids(await profiles().filter({ user__username: 'amy' }).execute()), [p2.id]);
      assert.deepEqual(ids(await profiles().filter({ user__isnull: true }).execute()), [p3.id]);
    });

    it('loads related rows in the same query', async () => {
      const ann = await users().create({ username: 'ann', first_name: 'Ann', last_name: 'Lee' });
      const p1 = await profiles().create({ user: ann, biography: 'bio' });
      const p2 = await profiles().create({});
      let queries = 0;
      const stop = db.onQuery(() => queries++);
      const rows = (await profiles().selectRelated('user').execute()) as Array<
        Row<typeof Profile> & { user: Row<typeof User> | null }
      >;
      stop();
      assert.equal(queries, 1);
      assert.equal(rows[0]?.id, p1.id);
      assert.equal(rows[0]?.user?.username, 'ann');
      assert.equal(rows[0]?.user_id, ann.id);
      assert.equal(User.properties.full_name.get(rows[0]?.user), 'Ann Lee');
      assert.equal(rows[1]?.id, p2.id);
      assert.equal(rows[1]?.user, null);
    });

    it('loads a relation of a relation (a__b loads a too, as Django), nested, in one query', async () => {
      const ann = await users().create({ username: 'ann' });
      const withUser = await profiles().create({ user: ann, biography: 'ann' });
      const withoutUser = await profiles().create({ biography: 'nobody' });
      await books().create({ title: 'A', isbn: '1', price: '1.50', owner: withUser });
      await books().create({ title: 'B', isbn: '2', price: '2.25', owner: withoutUser });
      await books().create({ title: 'C', isbn: '3', price: '3' });
      let queries = 0;
      const stop = db.onQuery(() => queries++);
      const rows = (await books().selectRelated('owner__user').execute()) as unknown as Array<
        Record<string, unknown> & { owner: (Record<string, unknown> & { user: unknown }) | null }
      >;
      stop();
      assert.equal(queries, 1);
      assert.deepEqual(
        rows.map((row) => [row.title, row.price, row.owner?.biography ?? null]),
        [
          ['A', '1.50', 'ann'],
          ['B', '2.25', 'nobody'],
          ['C', '3.00', null],
        ],
      );
      assert.equal((rows[0]?.owner?.user as { username?: string } | null)?.username, 'ann');
      assert.equal(rows[1]?.owner?.user, null);
      assert.equal(rows[2]?.owner, null);
      // Records hold the model's fields and the related rows, no flat `owner__...` keys.
      assert.deepEqual(Object.keys(rows[0] ?? {}), [
        ...Book.fieldList.map((field) => field.attname),
        'owner',
      ]);
      assert.deepEqual(Object.keys(rows[0]?.owner ?? {}), [
        ...Profile.fieldList.map((field) => field.attname),
        'user',
      ]);
    });

    it('runs a statement at once where the driver is synchronous (execute)', async () => {
      await seedBooks();
      // Compiled by the dialect: its quotes and placeholders.
      const { sql } =
        rawSql`select count(*) as ${rawSql.ref('n')} from ${rawSql.table('lib_book')} where ${rawSql.ref('price')} > ${'5'}`.compile(
          db.kysely,
        );
      const heard: string[] = [];
      const stop = db.onQuery((q) => heard.push(q.sql));
      const rows = db.execute({ sql, parameters: ['5'] });
      if (db.vendor === 'sqlite') {
        // The rows themselves, not a promise; listeners hear of it as of any query.
        assert.ok(Array.isArray(rows));
        assert.equal(Number((rows[0] as { n: unknown }).n), 3);
        assert.deepEqual(heard, [sql]);
        assert.throws(() => db.execute({ sql: 'select * from no_such_table', parameters: [] }), {
          message: /no_such_table/,
        });
      } else {
        // An asynchronous driver: a promise of the same rows, heard once when it ran.
        assert.ok(!Array.isArray(rows));
        const later = await rows;
        assert.equal(Number((later[0] as { n: unknown }).n), 3);
        assert.deepEqual(heard, [sql]);
        await assert.rejects(
          Promise.resolve(db.execute({ sql: 'select * from no_such_table', parameters: [] })),
          { message: /no_such_table/ },
        );
      }
      assert.equal(heard.length, 2, 'the failed statement was heard too');
      stop();
      // query() gives the same rows either way.
      assert.equal(Number(((await db.query(sql, ['5']))[0] as { n: unknown }).n), 3);
    });

    it('looks rows up as filter().orderBy().slice(0, 2) does, its SQL planned once per state and keys', async () => {
      const [b3, b1, b2, b10] = (await seedBooks()) as [BookRow, BookRow, BookRow, BookRow];
      const lookup = async (qs: QuerySet<any>, filter: Filter, limit?: number) => {
        const rows = qs.lookup(filter, limit);
        return (Array.isArray(rows) ? rows : await rows) as Array<
          { id: number } & Record<string, any>
        >;
      };
      const base = books();
      // Each twice: the first call plans, the second runs the plan (or goes the general way
      // when its value binds otherwise: null, out of range, a list of another length).
      const filters: Filter[] = [
        { pk: b1.id },
        { pk: b2.id },
        { pk: 999_999 },
        { pk: 2 ** 40 },
        { pk: -1 },
        { isbn: '10' },
        { title: 'a' },
        { published: null },
        { published: '2019-01-31' },
        { published__isnull: true },
        { isbn__in: ['1', '2'] },
        { isbn__in: ['1', '2', '3'] },
        { isbn__in: [] },
        { title: 'a', isbn: '10' },
        { isbn: '10', title: 'a' },
        { price__gte: '10' },
      ];
      for (const filter of filters) {
        const expected = await base.filter(filter).orderBy().slice(0, 2).execute();
        for (let i = 0; i < 2; i++)
          assert.deepEqual(await lookup(base, filter), expected, JSON.stringify(filter));
      }

      // The plan binds each lookup's own value, with the SQL of the first.
      const heard: string[] = [];
      const stop = db.onQuery((q) => heard.push(q.sql));
      assert.deepEqual(ids(await lookup(base.all(), { pk: b3.id })), [b3.id]);
      assert.deepEqual(ids(await lookup(base.all(), { pk: b10.id })), [b10.id]);
      stop();
      assert.equal(heard.length, 2);
      assert.equal(heard[0], heard[1]);

      // The state's own conditions and the limit apply.
      const onlyA = base.filter({ title: 'a' });
      assert.deepEqual(ids(await lookup(onlyA, { pk: b1.id })), [b1.id]);
      assert.deepEqual(ids(await lookup(onlyA, { pk: b2.id })), []);
      assert.deepEqual(ids(await lookup(onlyA, { pk: b10.id })), [b10.id]);
      assert.equal((await lookup(base, { title: 'a' }, 1)).length, 1);
      assert.equal((await lookup(base, { title: 'a' })).length, 2);
      assert.equal((await lookup(base, { title: 'a' }, 1)).length, 1);

      // Related rows are loaded; a key across a relation still finds its rows.
      const ann = await users().create({ username: 'ann' });
      const bob = await users().create({ username: 'bob' });
      const pa = await profiles().create({ user: ann });
      const pb = await profiles().create({ user: bob });
      const withUser = profiles().selectRelated('user');
      for (const [profile, name] of [
        [pa, 'ann'],
        [pb, 'bob'],
      ] as const) {
        const [row] = await lookup(withUser, { pk: profile.id });
        assert.equal(row?.user.username, name);
        const [byName] = await lookup(profiles(), { user__username: name });
        assert.equal(byName?.id, profile.id);
      }

      // get() goes through it too.
      assert.equal((await base.get({ pk: b2.id })).id, b2.id);
      await assert.rejects(base.get({ pk: 999_999 }), DoesNotExist);
      await assert.rejects(base.get({ title: 'a' }), MultipleObjectsReturned);
    });

    it('appends the primary key to an ordering that is not unique', () => {
      assert.deepEqual(books().orderBy('title').withStableOrdering().ordering, ['title', 'id']);
      assert.deepEqual(books().orderBy('-isbn').withStableOrdering().ordering, ['-isbn']);
      assert.deepEqual(profiles().orderBy('user__username').withStableOrdering().ordering, [
        'user__username',
        'id',
      ]);
      assert.deepEqual(books().withStableOrdering().ordering, ['isbn']);
    });

    it('counts, checks existence, slices and gets', async () => {
      const [, b1, b2, b10] = (await seedBooks()) as [BookRow, BookRow, BookRow, BookRow];
      assert.equal(await books().count(), 4);
      assert.equal(await books().filter({ title: 'a' }).count(), 2);
      assert.equal(await books().slice(1, 3).count(), 2);
      assert.equal(await books().slice(3).count(), 1);
      assert.deepEqual(ids(await books().slice(1, 3).execute()), [b10.id, b2.id]);
      assert.deepEqual(ids(await books().slice(1, 3).slice(1).execute()), [b2.id]);
      assert.equal(await books().filter({ isbn: 'none' }).exists(), false);
      assert.equal(await books().exists(), true);
      assert.equal((await books().get({ isbn: '1' })).id, b1.id);
      assert.equal((await books().first())?.id, b1.id);
      await assert.rejects(books().get({ isbn: 'none' }), DoesNotExist);
      await assert.rejects(books().get({ title: 'a' }), MultipleObjectsReturned);
    });

    it('updates only the columns sent, so concurrent writers of different columns both win', async () => {
      const book = await books().create({ title: 'Old', isbn: 'u1', price: '1.00' });
      let seen = '';
      const stop = db.onQuery((q) => {
        if (q.sql.toLowerCase().startsWith('update')) seen = q.sql;
      });
      const stale = { ...book };
      const afterTitle = await books().updateRow(book, { title: 'New' });
      stop();
      const setClause = seen.slice(0, seen.indexOf(' where '));
      assert.match(setClause, /set ["`]title["`] = /);
      assert.doesNotMatch(setClause, /price/);
      assert.equal(afterTitle.title, 'New');
      // A writer holding the old row changes another column and keeps the new title.
      const afterPrice = await books().updateRow(stale, { price: '2.50' });
      assert.equal(afterPrice.title, 'New');
      assert.equal(afterPrice.price, '2.50');
      // A value equal to the stale row's is still written: another writer changed it since.
      const restored = await books().updateRow(stale, { price: '1.00' });
      assert.equal(restored.price, '1.00');
      // skipUnchanged (PUT) leaves alone what equals the row it was given.
      const current = await books().get({ pk: book.id });
      const other = await books().updateRow(current, { price: '3.00' });
      const kept = await books().updateRow(
        current,
        { title: 'PUT', price: '1.00' },
        { skipUnchanged: true },
      );
      assert.equal(kept.title, 'PUT');
      assert.equal(kept.price, other.price);
      await books().filter({ pk: book.id }).delete();
      await assert.rejects(books().updateRow(book, { title: 'x' }), DoesNotExist);
    });

    it('bulk-updates and deletes, also through a relation filter', async () => {
      const ann = await users().create({ username: 'ann' });
      const bob = await users().create({ username: 'bob' });
      await profiles().create({ user_id: ann.id, biography: 'a' });
      await profiles().create({ user_id: bob.id, biography: 'b' });
      assert.equal(
        await profiles().filter({ user__username: 'ann' }).update({ biography: 'changed' }),
        1,
      );
      assert.equal((await profiles().get({ user__username: 'ann' })).biography, 'changed');
      assert.equal(await profiles().filter({ user__username: 'bob' }).delete(), 1);
      assert.equal(await profiles().count(), 1);
    });

    it('raises typed integrity errors that name the field', async () => {
      await books().create({ title: 'A', isbn: 'dup', price: '1' });
      await assert.rejects(
        books().create({ title: 'B', isbn: 'dup', price: '1' }),
        (error: unknown) => {
          assert.ok(error instanceof UniqueViolationError);
          assert.deepEqual(error.fields, ['isbn']);
          assert.equal(error.model, Book);
          return true;
        },
      );
      await assert.rejects(books().create({ title: 'B', isbn: 'n1' }), (error: unknown) => {
        assert.ok(error instanceof NotNullViolationError);
        assert.deepEqual(error.fields, ['price']);
        return true;
      });
      await assert.rejects(
        books().create({ title: 'B', isbn: 'c1', price: '1', pages: -1 }),
        (error: unknown) => {
          assert.ok(error instanceof CheckViolationError);
          assert.deepEqual(error.fields, ['pages']);
          return true;
        },
      );
      await assert.rejects(profiles().create({ user_id: 999999 }), ForeignKeyViolationError);
    });

    it('commits a transaction, or rolls all of it back', async () => {
      await db.transaction(async () => {
        await books().create({ title: 'A', isbn: 't1', price: '1' });
        await books().create({ title: 'B', isbn: 't2', price: '1' });
      });
      assert.equal(await books().count(), 2);
      const committed: string[] = [];
      await assert.rejects(
        db.transaction(async () => {
          db.onRollback(() => {
            committed.push('rolled back');
          });
          await db.onCommit(() => {
            committed.push('committed');
          });
          await books().create({ title: 'C', isbn: 't3', price: '1' });
          await books().create({ title: 'D', isbn: 't1', price: '1' });
        }),
        UniqueViolationError,
      );
      assert.deepEqual(committed, ['rolled back']);
      assert.equal(await books().count(), 2);
      assert.equal(await books().filter({ isbn: 't3' }).exists(), false);
    });

    it('keeps a query made while a transaction is open out of it', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let opened!: () => void;
      const open = new Promise<void>((resolve) => {
        opened = resolve;
      });
      const transaction = db.transaction(async () => {
        await books().create({ title: 'T', isbn: 'r1', price: '1' });
        // update() is built and run with Kysely: it must run inside the transaction too.
        assert.equal(await books().filter({ isbn: 'r1' }).update({ title: 'U' }), 1);
        opened();
        await gate;
        throw new Error('roll back');
      });
      await open;
      // Outside the transaction's async context: another request's query.
      const seen = books().filter({ isbn: 'r1' }).exists();
      const written = books().create({ title: 'W', isbn: 'r2', price: '1' });
      release();
      await assert.rejects(transaction, /roll back/);
      assert.equal(await seen, false);
      assert.equal((await written).isbn, 'r2');
      assert.deepEqual(
        (await books().orderBy('isbn').execute()).map((b) => b.isbn),
        ['r2'],
      );
    });

    it('shows the query plan using the unique index', async () => {
      await seedBooks();
      const plan = (await books().filter({ isbn: '1' }).explain()).join('\n');
      if (db.vendor !== 'postgres') assert.match(plan, /lib_book_isbn_key/);
      else assert.match(plan, /Scan|Index/);
    });
  });
}

const postgres = testDialects().find((dialect) => dialect.name === 'postgres');
describe('named statements on PostgreSQL', {
  skip: postgres?.skip ?? 'no PostgreSQL dialect',
}, () => {
  const dialect = postgres as NonNullable<typeof postgres>;
  it('prepares a query once per connection, unless told not to', async () => {
    const prepared = async (preparedStatements: boolean) => {
      const one = await dialect.create({ poolSize: 1, preparedStatements });
      try {
        await one.migrate(ALL_MODELS);
        await User.objects.using(one).create({ username: 'ann' });
        for (let i = 0; i < 3; i++) {
          const rows = await User.objects.using(one).filter({ username: 'ann' }).execute();
          assert.equal(rows.length, 1);
        }
        const rows = (await one.query(
          'select name from pg_prepared_statements where statement like $1',
          ['%from "lib_user" where%'],
        )) as { name: string }[];
        return rows.map((row) => row.name);
      } finally {
        await dialect.drop(one);
      }
    };
    const named = await prepared(true);
    assert.equal(named.length, 1, `prepared: ${named.join(', ')}`);
    assert.match(named[0] as string, /^rf\d+$/);
    assert.deepEqual(await prepared(false), []);
  });
});
