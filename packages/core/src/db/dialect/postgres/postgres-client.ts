/**
 * The `pg.Client` the PostgreSQL adapter's pool makes: it prepares each query once per
 * connection, and answers `query(text, values)` through pg's callback form.
 *
 * Named statements: Kysely sends every query as an unnamed statement, which the server parses
 * and plans on every run; a named one is parsed once per connection and then only bound and
 * executed. The toolkit's queries come from a bounded set of texts (values always travel as
 * parameters), so naming them is safe.
 *
 * The callback form: pg's promise form (`client.query(text, values)` with no callback, as
 * Kysely calls it) made the rows of nearly every query outlive V8's young-generation
 * collections on Node 24 (pg 8.23): under load a list of 100 books promoted about 33 KB per
 * request to the old generation, against almost none through the callback form, and the
 * collector's extra work made a page of 100 rows cost 10–20 % more CPU (bench/RESULTS.md,
 * seventh session).
 * @module
 */
import type pg from 'pg';
import { BoundedCache } from '../../../utils/bounded-cache.ts';

/** Past this many distinct texts, further ones run unnamed: the server's memory stays bounded. */
const MAX_NAMED_STATEMENTS = 2000;

/** Only data statements are named; transaction control and DDL run as they are. */
const NAMEABLE = /^\s*(?:select|insert|update|delete|with)\b/i;

/**
 * The statement names of one adapter's pool: one name per text, shared by every connection of
 * the pool (each prepares it on first use). Past {@link MAX_NAMED_STATEMENTS} texts, further
 * ones run unnamed rather than pushing older names out: a name pushed out would be given
 * again under a new one, and every connection would keep both prepared on the server.
 *
 * @example
 * ```ts
 * const names = new StatementNames();
 * names.nameOf('select 1'); // 'rf0'
 * names.nameOf('begin'); // undefined: only data statements are named
 * ```
 */
export class StatementNames {
  readonly #names = new BoundedCache<string, string>(
    'PostgreSQL statement names',
    MAX_NAMED_STATEMENTS,
  );
  /** Names are never reused: a name once given may still be prepared on some connection. */
  #named = 0;

  /**
   * The statement name of a query text (`rf12`), or undefined for a text that is not named:
   * not a data statement, or past the limit.
   */
  nameOf(text: string): string | undefined {
    let name = this.#names.get(text);
    if (name === undefined) {
      if (this.#names.size >= MAX_NAMED_STATEMENTS || !NAMEABLE.test(text)) return undefined;
      name = this.#names.set(text, `rf${this.#named++}`);
    }
    return name;
  }

  /** Gives `text` a new name from now on, if `name` is still its name. */
  rename(text: string, name: string): void {
    if (this.#names.get(text) === name) this.#names.delete(text);
  }

  /**
   * Gives every text a new name from now on. After a migration changed a table, a statement
   * prepared before it may no longer match the table (PostgreSQL refuses it: "cached plan must
   * not change result type"); under new names every connection prepares the texts again.
   */
  clear(): void {
    this.#names.clear();
  }
}

/** PostgreSQL's refusal of a statement prepared before its table changed. */
function isStalePlan(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return (
    e?.code === '0A000' && String(e.message).includes('cached plan must not change result type')
  );
}

type QueryConfig = { text: string; values: unknown[]; name?: string };

/** The two client classes, made from the `pg` module the adapter loaded (see {@link postgresClients}). */
export interface PostgresClients {
  /**
   * A `pg.Client` that runs `query(text, values)` through pg's callback form and answers with a
   * promise of its own (see the module's note); every other form of `query` is left as it is.
   */
  readonly CallbackQueryClient: typeof pg.Client;
  /** A `CallbackQueryClient` that runs `query(text, values)` as the named statement of its text. */
  readonly NamedStatementClient: typeof pg.Client;
}

/**
 * The client classes for a `pg` module, their named statements in `names` (the adapter's
 * own). They extend `pg.Client`, so they are made once the driver is loaded (it is an optional
 * peer dependency, loaded when a postgres URL is used): once per adapter.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 *
 * const { NamedStatementClient } = postgresClients(pg, new StatementNames());
 * const pool = new pg.Pool({ connectionString: 'postgres://127.0.0.1/shop', Client: NamedStatementClient });
 * ```
 */
export function postgresClients(
  driver: typeof pg,
  names: StatementNames = new StatementNames(),
): PostgresClients {
  class CallbackQueryClient extends driver.Client {
    // pg's overloads, as one signature.
    override query(...args: any[]): any {
      const [text, values, callback] = args;
      if (typeof text !== 'string' || !Array.isArray(values) || callback !== undefined)
        return (super.query as (...rest: unknown[]) => unknown)(...args);
      const config: QueryConfig = { text, values };
      const name = this.nameOf(text);
      if (name !== undefined) config.name = name;
      return this.#run(config).catch((error: unknown) => {
        // Another process migrated the table since this connection prepared the statement:
        // prepare it again under a new name. (Inside a transaction the retry fails as the
        // transaction is aborted, and the caller gets that error.)
        if (name === undefined || !isStalePlan(error)) throw error;
        names.rename(text, name);
        const retry: QueryConfig = { text, values };
        const renamed = this.nameOf(text);
        if (renamed !== undefined) retry.name = renamed;
        return this.#run(retry);
      });
    }

    #run(config: QueryConfig): Promise<unknown> {
      return new Promise((resolve, reject) => {
        super.query(config, (error: Error | undefined, result: unknown) =>
          error ? reject(error) : resolve(result),
        );
      });
    }

    /** The statement name `query(text, values)` runs under; none here. */
    protected nameOf(_text: string): string | undefined {
      return undefined;
    }
  }

  class NamedStatementClient extends CallbackQueryClient {
    protected override nameOf(text: string): string | undefined {
      return names.nameOf(text);
    }
  }

  return { CallbackQueryClient, NamedStatementClient };
}
