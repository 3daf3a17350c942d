/**
 * A model's history of ten migrations, made by the autodetector from ten versions of the
 * models (plus a data migration written by hand), applied one by one to a database holding
 * rows on every dialect: the rows are checked after each step, a unique constraint the rows
 * violate fails and changes nothing, then everything rolls back to zero and forward again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type AnyModel,
  type Database,
  defineModel,
  loadMigrations,
  MigrationError,
  MigrationExecutor,
  MigrationGraph,
  makeMigration,
  models,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';

/** One version of the models: what changes from step to step. */
interface Version {
  readonly authorModel?: string;
  readonly authorTable?: string;
  readonly nameLength?: number;
  readonly pages?: boolean;
  readonly isbnNull?: boolean;
  readonly titleField?: string;
  readonly uniqueIsbn?: boolean;
  readonly titleIndex?: boolean;
}

function version(v: Version): AnyModel[] {
  const Author = defineModel({
    name: v.authorModel ?? 'Author',
    table: v.authorTable ?? 'author',
    fields: { name: models.CharField({ maxLength: v.nameLength ?? 100 }) },
  });
  const title = v.titleField ?? 'title';
  const Book = defineModel({
    name: 'Book',
    table: 'book',
    fields: {
      [title]: models.CharField({ maxLength: 100 }),
      author: models.ForeignKey(Author, { onDelete: 'CASCADE' }),
      isbn: models.CharField({ maxLength: 20, ...(v.isbnNull ? { null: true } : {}) }),
      ...(v.pages ? { pages: models.IntegerField({ default: 100 }) } : {}),
    },
    ...(v.uniqueIsbn ? { uniqueConstraints: [{ fields: ['isbn'] }] } : {}),
    ...(v.titleIndex ? { indexes: [{ fields: [title] }] } : {}),
  });
  return [Author, Book];
}

const DEDUPE = `import type { Migration } from '@restframework/core';

export default {
  dependencies: ['0006_rename_title_book_name'],
  operations: [
    {
      op: 'RunCode',
      description: 'Number the books that share an ISBN',
      code: async ({ models }) => {
        const seen = new Set();
        for (const book of await models.Book.objects.orderBy('id').execute()) {
          if (book.isbn !== null && seen.has(book.isbn)) {
            await models.Book.objects.updateRow(book, { isbn: book.isbn + '-' + book.id });
          }
          seen.add(book.isbn);
        }
      },
      reverseCode: async () => {},
    },
  ],
} satisfies Migration;
`;

for (const dialect of testDialects()) {
  describe(`a model history on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let folder: string;
    before(async () => {
      db = await dialect.create();
      folder = mkdtempSync(join(tmpdir(), 'rf-migrations-'));
    });
    after(async () => {
      await dialect.drop(db);
      rmSync(folder, { recursive: true, force: true });
    });

    const executor = async () =>
      new MigrationExecutor(db, new MigrationGraph(await loadMigrations(folder)), 'shop');
    const make = async (v: Version, options: Parameters<typeof makeMigration>[2] = {}) => {
      const made = await makeMigration(folder, version(v), options);
      assert.ok(made, 'a migration was written');
      return made;
    };
    const migrate = async (target?: string) =>
      (await executor()).migrate(target === undefined ? {} : { target });
    const rows = (sql: string) => db.query(sql, []);
    const books = (title = 'title') =>
      rows(`select "id", "${title}" as "title", "isbn" from "book" order by "id"`);

    it('applies ten steps over rows, rolls back to zero and forward again', async () => {
      // 1. create
      assert.equal((await make({})).name, '0001_initial');
      assert.deepEqual((await migrate()).applied, ['0001_initial']);
      await rows(`insert into "author" ("name") values ('Ursula'), ('Octavia')`);
      await rows(
        `insert into "book" ("title", "author_id", "isbn") values ('Earthsea', 1, '111'), ('Kindred', 2, '222'), ('Dawn', 2, '222')`,
      );

      // 2. add a field with a default over existing rows
      assert.equal((await make({ pages: true })).name, '0002_book_pages');
      await migrate();
      assert.deepEqual(
        (await rows(`select "pages" from "book" order by "id"`)).map((r: any) => r.pages),
        [100, 100, 100],
      );

      // 3. make a field nullable
      await make({ pages: true, isbnNull: true });
      await migrate();
      await rows(
        `insert into "book" ("title", "author_id", "isbn", "pages") values ('Blank', 1, null, 5)`,
      );
      assert.equal((await books()).length, 4);

      // 4. shorten a char, 5. lengthen it
      await make({ pages: true, isbnNull: true, nameLength: 40 });
      await migrate();
      await make({ pages: true, isbnNull: true, nameLength: 200 });
      await migrate();
      const long = 'L'.repeat(150);
      await rows(`insert into "author" ("name") values ('${long}')`);
      assert.deepEqual(
        (await rows(`select "name" from "author" order by "id"`)).map((r: any) => r.name),
        ['Ursula', 'Octavia', long],
      );

      // 6. rename a field (told, never guessed)
      const renamed = { pages: true, isbnNull: true, nameLength: 200, titleField: 'name' };
      await assert.rejects(makeMigration(folder, version(renamed), { dryRun: true }), (error) => {
        // Without the flag, the rename would be a removal and an addition of a NOT NULL field.
        assert.ok(error instanceof MigrationError);
        assert.equal(error.code, 'REST_ERR_MIGRATION_DETECT');
        assert.match(error.message, /Book\.name is a new NOT NULL field without a default/);
        return true;
      });
      const rename = await make(renamed, { renames: new Map([['Book.title', 'name']]) });
      assert.equal(rename.name, '0006_rename_title_book_name');
      assert.deepEqual(
        rename.operations.map((o) => o.op),
        ['RenameField'],
      );
      await migrate();
      assert.deepEqual(
        (await books('name')).map((r: any) => r.title),
        ['Earthsea', 'Kindred', 'Dawn', 'Blank'],
      );

      // 7. a unique constraint the rows violate: a clear error, nothing changed
      const unique = { ...renamed, uniqueIsbn: true };
      const failing = await make(unique);
      const before = await (await executor()).status();
      await assert.rejects(migrate(), (error) => {
        assert.ok(error instanceof MigrationError);
        assert.equal(error.code, 'REST_ERR_MIGRATION_FAILED');
        assert.match(
          error.message,
          /0007_book_isbn_uniq\.ts: Create unique constraint book_isbn_uniq on Book\(isbn\) failed/,
        );
        assert.match(error.message, /duplicate values/);
        // Its one statement failed: nothing of it ran, though only PostgreSQL and SQLite roll back.
        assert.match(
          error.message,
          db.adapter.supportsTransactionalDdl
            ? /Nothing of this migration was applied/
            : /the statements before this one stay applied, and are recorded/,
        );
        return true;
      });
      assert.deepEqual(await (await executor()).status(), before);
      assert.equal(await db.adapter.indexExists(db.kysely, 'book_isbn_uniq'), false);
      assert.deepEqual(
        (await books('name')).map((r: any) => r.isbn),
        ['111', '222', '222', null],
      );
      // The developer puts a data migration first.
      unlinkSync(failing.file);
      writeFileSync(join(folder, '0007_dedupe_isbn.ts'), DEDUPE);
      await make(unique);
      assert.deepEqual((await migrate()).applied, ['0007_dedupe_isbn', '0008_book_isbn_uniq']);
      assert.deepEqual(
        (await books('name')).map((r: any) => r.isbn),
        ['111', '222', '222-3', null],
      );
      await assert.rejects(
        rows(
          `insert into "book" ("name", "author_id", "isbn", "pages") values ('Again', 1, '111', 1)`,
        ),
      );

      // 9. an index, 10. remove a field, 11. rename a model (and its table)
      await make({ ...unique, titleIndex: true });
      await migrate();
      assert.equal(await db.adapter.indexExists(db.kysely, 'book_name_idx'), true);
      const { pages: _pages, ...withoutPages } = { ...unique, titleIndex: true };
      assert.deepEqual(
        (await make(withoutPages)).operations.map((o) => o.op),
        ['RemoveField'],
      );
      await migrate();
      await make(
        { ...withoutPages, authorModel: 'Writer', authorTable: 'writer' },
        { renames: new Map([['Author', 'Writer']]) },
      );
      const last = await migrate();
      assert.deepEqual(last.applied, ['0011_rename_author_writer']);
      assert.deepEqual(
        (
          await rows(
            `select "b"."name", "w"."name" as "writer" from "book" "b" join "writer" "w" on "w"."id" = "b"."author_id" order by "b"."id"`,
          )
        ).map((r: any) => `${r.name}/${r.writer}`),
        ['Earthsea/Ursula', 'Kindred/Octavia', 'Dawn/Octavia', 'Blank/Ursula'],
      );
      // The foreign key still holds after the rename (and the rebuilds before it).
      await assert.rejects(
        rows(`insert into "book" ("name", "author_id", "isbn") values ('X', 99, 'x')`),
      );

      // Back to before the rename of the field, rows kept; the removed field returns with its default.
      const back = await migrate('0005');
      assert.equal(back.unapplied.length, 6);
      assert.deepEqual(
        (await rows(`select "title", "pages", "isbn" from "book" order by "id"`)).map(
          (r: any) => `${r.title}/${r.pages}/${r.isbn}`,
        ),
        ['Earthsea/100/111', 'Kindred/100/222', 'Dawn/100/222-3', 'Blank/100/null'],
      );
      assert.equal(await db.adapter.indexExists(db.kysely, 'book_isbn_uniq'), false);

      // Forward to the end, then to zero: no table of the app is left.
      await migrate();
      assert.equal((await rows(`select count(*) as "n" from "writer"`)).length, 1);
      // Rolling 0005 back makes the name 40 characters long again: the 150-character one goes
      // first (PostgreSQL and MySQL refuse it; SQLite would keep it).
      await rows(`delete from "writer" where "name" = '${long}'`);
      const zero = await migrate('zero');
      assert.equal(zero.unapplied.length, 11);
      const tables = (await db.kysely.introspection.getTables()).map((t) => t.name);
      assert.deepEqual(
        tables.filter((t) => !t.startsWith('restframework_')),
        [],
      );

      // And forward again on the empty database.
      assert.equal((await migrate()).applied.length, 11);
      await rows(`insert into "writer" ("name") values ('N')`);
      await rows(`insert into "book" ("name", "author_id", "isbn") values ('B', 1, '1')`);
      assert.equal((await books('name')).length, 1);
      assert.ok((await (await executor()).status()).every((s) => s.applied));
    });
  });
}
