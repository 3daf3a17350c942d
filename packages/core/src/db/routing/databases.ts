/**
 * Several named databases (Django's `DATABASES`) and the routers that pick one per query
 * (`DATABASE_ROUTERS`). Made once at start-up; it sets itself as the `routing` of its `default`
 * database, which is what requests and queries without `.using()` start from. An app of one
 * database never makes one, and its queries ask nothing per statement.
 *
 * @example
 * ```ts
 * import { Database, Databases, PrimaryReplicaRouter } from '@restframework/core';
 *
 * const databases = new Databases(
 *   {
 *     default: Database.connect('postgres://app@primary:5432/shop'),
 *     replica1: Database.connect('postgres://app@replica1:5432/shop'),
 *   },
 *   [new PrimaryReplicaRouter({ replicas: ['replica1'] })],
 * );
 * await app.register(restFramework, { databases });
 * ```
 * @module
 */
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import type { AnyModel } from '../../models/model.ts';
import { Database, type QueryRouting } from '../database.ts';
import type { DatabaseRouter, DatabaseSet, RouterHints } from './database-router.ts';

/**
 * Named databases with their routers (see the module). `default` is required: it is the
 * primary, the database of transactions, migrations and of every query no router places.
 *
 * @example
 * ```ts
 * import { Database, Databases } from '@restframework/core';
 *
 * // A script: the same routing as an app's, without Fastify.
 * const databases = new Databases(
 *   { default: Database.connect('sqlite:db.sqlite3'), archive: Database.connect('sqlite:archive.sqlite3') },
 *   [{ dbForRead: (model) => (model.table === 'books_book' ? 'archive' : undefined) }],
 * );
 * Database.setDefault(databases.default);
 * const books = await Book.objects.execute(); // from archive
 * await databases.close();
 * ```
 */
export class Databases implements QueryRouting, DatabaseSet {
  /** The `default` database. */
  readonly default: Database;
  /** The aliases, `default` first. */
  readonly aliases: readonly string[];
  /** The routers, asked in order. */
  readonly routers: readonly DatabaseRouter[];
  readonly #byAlias: ReadonlyMap<string, Database>;
  // The routers that answer each question, found once: a query asks only those.
  readonly #readers: readonly DatabaseRouter[];
  readonly #writers: readonly DatabaseRouter[];
  #closed = false;

  constructor(
    databases: Readonly<Record<string, Database>>,
    routers: readonly DatabaseRouter[] = [],
  ) {
    if (databases === null || typeof databases !== 'object') {
      throw routingError('Databases takes an object of databases by alias: { default: db, ... }.');
    }
    const primary = databases.default;
    if (!(primary instanceof Database)) {
      throw routingError(
        'Databases needs a `default` database (the primary): { default: Database.connect(url), ... }.',
      );
    }
    const byAlias = new Map<string, Database>();
    for (const [alias, db] of Object.entries(databases)) {
      if (!(db instanceof Database)) {
        throw routingError(
          `Databases: "${alias}" is not a Database; give Database.connect(url) for each alias.`,
        );
      }
      const same = [...byAlias].find(([, known]) => known === db);
      if (same) {
        throw routingError(
          `Databases: "${alias}" and "${same[0]}" are the same Database object; connect each once.`,
        );
      }
      if (db.routing !== undefined) {
        throw routingError(
          `Databases: the database "${alias}" belongs to another Databases already; connect it again for this one.`,
        );
      }
      byAlias.set(alias, db);
    }
    if (!Array.isArray(routers)) {
      throw routingError('Databases: the routers must be a list, asked in order.');
    }
    routers.forEach((router, i) => {
      if (router === null || typeof router !== 'object') {
        throw routingError(`Databases: router ${i} is not an object with dbForRead/dbForWrite.`);
      }
      for (const method of ['dbForRead', 'dbForWrite'] as const) {
        if (router[method] !== undefined && typeof router[method] !== 'function') {
          throw routingError(`Databases: router ${i}'s ${method} is not a method.`);
        }
      }
    });
    this.default = primary;
    this.#byAlias = byAlias;
    this.aliases = ['default', ...[...byAlias.keys()].filter((alias) => alias !== 'default')];
    this.routers = Object.freeze([...routers]);
    this.#readers = this.routers.filter((router) => router.dbForRead !== undefined);
    this.#writers = this.routers.filter((router) => router.dbForWrite !== undefined);
    const attached: DatabaseRouter[] = [];
    try {
      for (const router of this.routers) {
        router.attach?.(this);
        attached.push(router);
      }
    } catch (error) {
      for (const router of attached) router.detach?.();
      throw error;
    }
    primary.routing = this;
  }

  /**
   * The database an alias names.
   *
   * @example
   * ```ts
   * import type { Databases } from '@restframework/core';
   *
   * declare const databases: Databases;
   * const replica = databases.get('replica1');
   * ```
   */
  get(alias: string): Database {
    const db = this.#byAlias.get(alias);
    if (db === undefined) {
      throw routingError(
        `No database is named ${JSON.stringify(alias)}; the databases are ${this.aliases.map((a) => `"${a}"`).join(', ')}.`,
      );
    }
    return db;
  }

  /**
   * The database a read of `model` runs on: the first router's answer, else `default`.
   *
   * @example
   * ```ts
   * import type { Databases } from '@restframework/core';
   *
   * declare const databases: Databases;
   * databases.forRead(Book).vendor; // 'postgres'
   * ```
   */
  forRead(model: AnyModel, instance?: object): Database {
    const readers = this.#readers;
    if (readers.length === 0) return this.default;
    const hints = this.#hints(instance);
    for (const router of readers) {
      const alias = router.dbForRead?.(model, hints);
      if (alias !== undefined && alias !== null) return this.#routed(alias, 'dbForRead');
    }
    return this.default;
  }

  /**
   * The database a write of `model` runs on: the first router's answer, else `default`. The
   * current request counts as having written from now on (its reads may then go elsewhere).
   *
   * @example
   * ```ts
   * import type { Databases } from '@restframework/core';
   *
   * declare const databases: Databases;
   * databases.forWrite(Book) === databases.default; // true without routers
   * ```
   */
  forWrite(model: AnyModel, instance?: object): Database {
    const request = Database.currentRequest();
    const writers = this.#writers;
    let db = this.default;
    if (writers.length !== 0) {
      const hints = this.#hints(instance);
      for (const router of writers) {
        const alias = router.dbForWrite?.(model, hints);
        if (alias !== undefined && alias !== null) {
          db = this.#routed(alias, 'dbForWrite');
          break;
        }
      }
    }
    if (request !== undefined) request.wrote = true;
    return db;
  }

  /**
   * Closes every database and stops the routers' timers. Safe to call twice.
   *
   * @example
   * ```ts
   * import type { Databases } from '@restframework/core';
   *
   * declare const databases: Databases;
   * await databases.close();
   * ```
   */
  async close(): Promise<void> {
    this.release();
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#byAlias.values()].map((db) => db.close()));
  }

  /**
   * Stops the routers' timers and the routing of `default`, leaving the databases open: what
   * the `restFramework` plugin does when an app that made this from its options closes (the
   * app's databases are the caller's to close, as a single `database` is).
   */
  release(): void {
    for (const router of this.routers) router.detach?.();
    if (this.default.routing === this) this.default.routing = undefined;
  }

  #hints(instance: object | undefined): RouterHints {
    return {
      ...(instance === undefined ? {} : { instance }),
      inTransaction: this.default.inTransaction,
      wroteInRequest: Database.currentRequest()?.wrote === true,
    };
  }

  #routed(alias: string, method: string): Database {
    const db = this.#byAlias.get(alias);
    if (db === undefined) {
      throw routingError(
        `A database router's ${method} answered ${JSON.stringify(alias)}, which names no database; the databases are ${this.aliases.map((a) => `"${a}"`).join(', ')}.`,
      );
    }
    return db;
  }
}

function routingError(message: string): ImproperlyConfigured {
  return new ImproperlyConfigured('REST_ERR_DATABASE_ROUTING', message);
}
