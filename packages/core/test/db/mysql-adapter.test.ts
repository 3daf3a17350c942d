/**
 * The MySQL/MariaDB adapter without a server: URLs, start-up checks of models and options,
 * error translation and value conversion. The dialect-parametrised suites run the rest on a
 * server (TEST_MYSQL_URL).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import {
  CheckViolationError,
  Database,
  DatabaseUnavailableError,
  defineModel,
  ForeignKeyViolationError,
  ImproperlyConfigured,
  MysqlAdapter,
  models,
  NotNullViolationError,
  UniqueViolationError,
} from '@restframework/core';

const Book = defineModel({
  name: 'Book',
  table: 'my_book',
  fields: {
    isbn: models.CharField({ maxLength: 20, unique: true }),
    title: models.CharField({ maxLength: 100 }),
    pages: models.PositiveIntegerField({ default: 1 }),
    added: models.DateTimeField({ null: true }),
  },
});

const adapter = new MysqlAdapter({ connectionString: 'mysql://root@127.0.0.1:1/none' });
const field = (name: string) =>
  Book.getField(name) as NonNullable<ReturnType<typeof Book.getField>>;

describe('MySQL/MariaDB adapter', () => {
  it('opens mysql:// and mariadb:// URLs lazily, with the options of a server', async () => {
    for (const url of ['mysql://root@127.0.0.1:1/x', 'mariadb://root@127.0.0.1:1/x']) {
      const db = Database.connect(url, { poolSize: 2, connectionTimeoutMs: 100 });
      assert.equal(db.vendor, 'mysql');
      assert.equal(db.adapter.returning, false);
      await db.close();
    }
    assert.throws(
      () => Database.connect('mysql://root@127.0.0.1:1/x', { poolSize: 0 }),
      (error: unknown) =>
        error instanceof ImproperlyConfigured &&
        error.code === 'REST_ERR_DATABASE_OPTION' &&
        /poolSize/.test(error.message),
    );
  });

  it('names the package to install when mysql2 is missing', () => {
    // A process in which `mysql2` cannot be resolved, as in an application without it.
    const script = `
      import { registerHooks } from 'node:module';
      registerHooks({
        resolve(specifier, context, next) {
          if (specifier === 'mysql2') throw Object.assign(new Error("Cannot find module 'mysql2'"), { code: 'MODULE_NOT_FOUND' });
          return next(specifier, context);
        },
      });
      const { Database } = await import('@restframework/core');
      try { Database.connect('mysql://root@127.0.0.1:1/x'); console.log('connected'); }
      catch (error) { console.log(JSON.stringify({ code: error.code, message: error.message })); }
      Database.connect('sqlite::memory:').close();
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
    });
    assert.equal(child.status, 0, child.stderr);
    const result = JSON.parse(child.stdout.trim()) as { code: string; message: string };
    assert.equal(result.code, 'REST_ERR_MISSING_PACKAGE');
    assert.match(result.message, /npm install mysql2/);
  });

  it('answers 503 material when the server cannot be reached, within the timeout', async () => {
    const db = Database.connect('mysql://root@127.0.0.1:1/x', { connectionTimeoutMs: 2000 });
    try {
      const started = Date.now();
      await assert.rejects(
        Book.objects.using(db).count(),
        (error: unknown) => error instanceof DatabaseUnavailableError,
      );
      assert.ok(Date.now() - started < 5000);
    } finally {
      await db.close();
    }
  });

  const translations: [string, object, new (...args: any[]) => Error, string[]?][] = [
    [
      'a duplicate key (MariaDB)',
      { errno: 1062, message: "Duplicate entry 'x' for key 'my_book_isbn_key'" },
      UniqueViolationError,
      ['isbn'],
    ],
    [
      'a duplicate key (MySQL 8 names the table)',
      { errno: 1062, message: "Duplicate entry 'x' for key 'my_book.my_book_isbn_key'" },
      UniqueViolationError,
      ['isbn'],
    ],
    [
      'a duplicate primary key',
      { errno: 1062, message: "Duplicate entry '1' for key 'PRIMARY'" },
      UniqueViolationError,
      ['id'],
    ],
    [
      'a NULL in a NOT NULL column',
      { errno: 1048, message: "Column 'title' cannot be null" },
      NotNullViolationError,
      ['title'],
    ],
    [
      'a NOT NULL column left out',
      { errno: 1364, message: "Field 'title' doesn't have a default value" },
      NotNullViolationError,
      ['title'],
    ],
    [
      'a key to no row',
      { errno: 1452, message: 'Cannot add or update a child row' },
      ForeignKeyViolationError,
    ],
    [
      'a row still referenced',
      { errno: 1451, message: 'Cannot delete or update a parent row' },
      ForeignKeyViolationError,
    ],
    [
      'a CHECK (MariaDB)',
      { errno: 4025, message: 'CONSTRAINT `my_book_pages_check` failed for `db`.`my_book`' },
      CheckViolationError,
      ['pages'],
    ],
    [
      'a CHECK (MySQL 8)',
      { errno: 3819, message: "Check constraint 'my_book_pages_check' is violated." },
      CheckViolationError,
      ['pages'],
    ],
    [
      'a refused connection',
      { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
      DatabaseUnavailableError,
    ],
    [
      'a lost connection',
      { code: 'PROTOCOL_CONNECTION_LOST', fatal: true, message: 'Connection lost' },
      DatabaseUnavailableError,
    ],
    [
      'no free connection in time',
      { code: 'POOL_TIMEOUT', message: 'No database connection' },
      DatabaseUnavailableError,
    ],
    [
      'too many connections',
      { errno: 1040, message: 'Too many connections' },
      DatabaseUnavailableError,
    ],
    [
      'a lock wait timeout',
      { errno: 1205, message: 'Lock wait timeout exceeded' },
      DatabaseUnavailableError,
    ],
    ['a deadlock', { errno: 1213, message: 'Deadlock found' }, DatabaseUnavailableError],
    [
      'a statement timeout (MariaDB)',
      { errno: 1969, message: 'Query execution was interrupted' },
      DatabaseUnavailableError,
    ],
    ['a closed pool', { message: 'Pool is closed.' }, DatabaseUnavailableError],
  ];
  for (const [what, error, type, fields] of translations) {
    it(`translates ${what}`, () => {
      const translated = adapter.translateError(error, Book);
      assert.ok(translated instanceof type, String(translated));
      if (fields) assert.deepEqual((translated as UniqueViolationError).fields, fields);
      assert.equal((translated as Error).cause, error);
    });
  }

  it('leaves other errors as they are', () => {
    const error = { errno: 1064, message: 'You have an error in your SQL syntax' };
    assert.equal(adapter.translateError(error, Book), error);
    assert.equal(adapter.translateError(undefined, Book), undefined);
  });

  const limits: [string, Record<string, any>][] = [
    ['a decimal of 66 digits', { d: models.DecimalField({ maxDigits: 66, decimalPlaces: 2 }) }],
    ['a decimal of 31 places', { d: models.DecimalField({ maxDigits: 40, decimalPlaces: 31 }) }],
    ['a VARCHAR longer than a row holds', { c: models.CharField({ maxLength: 16384 }) }],
    [
      'a unique text column past the index size',
      { c: models.CharField({ maxLength: 769, unique: true }) },
    ],
    [
      'an indexed text column past the index size',
      { c: models.CharField({ maxLength: 1000, dbIndex: true }) },
    ],
    ['a unique TextField', { t: models.TextField({ unique: true }) }],
  ];
  for (const [what, fields] of limits) {
    it(`refuses ${what} at start-up, naming the field`, () => {
      const model = defineModel({ name: 'Limit', table: 'my_limit', fields });
      const name = Object.keys(fields)[0] as string;
      assert.throws(
        () => adapter.checkModel(model),
        (error: unknown) =>
          error instanceof ImproperlyConfigured &&
          error.code === 'REST_ERR_DIALECT_LIMIT' &&
          error.message.startsWith(`Limit.${name}: `),
      );
    });
  }

  it('accepts the largest of each', () => {
    const model = defineModel({
      name: 'Largest',
      table: 'my_largest',
      fields: {
        d: models.DecimalField({ maxDigits: 65, decimalPlaces: 30 }),
        c: models.CharField({ maxLength: 16383 }),
        u: models.CharField({ maxLength: 768, unique: true }),
        t: models.TextField(),
      },
    });
    adapter.checkModel(model);
  });

  it('writes datetimes as UTC without a zone, and reads them back as ISO', () => {
    const at = field('added');
    assert.equal(adapter.toDb(at, '2024-02-29T23:30:00.120Z'), '2024-02-29 23:30:00.120');
    assert.equal(adapter.toDb(at, '2024-03-01T01:30:00.120+02:00'), '2024-02-29 23:30:00.120');
    assert.equal(adapter.toDb(at, new Date('0001-01-01T00:00:00Z')), '0001-01-01 00:00:00.000');
    assert.equal(adapter.toDb(at, null), null);
    const read = adapter.reader(at) as (v: unknown) => unknown;
    assert.equal(read('2024-02-29 23:30:00.120000'), '2024-02-29T23:30:00.120Z');
    assert.equal(read(null), null);
  });

  it('refuses to name column types before the server was asked for its collation', () => {
    assert.throws(() => adapter.columnType(field('pages')), /prepareSchema/);
  });
});
