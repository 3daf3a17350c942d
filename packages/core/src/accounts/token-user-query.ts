/**
 * The one statement `TokenAuthentication` runs per request: a token's row and its user's,
 * found by the key's digest. It is compiled once per `Auth` and database and then only bound,
 * so a request costs one indexed lookup and no query building.
 *
 * Why this shape: a join of the two tables costs SQLite four times as much (17 µs against
 * 4.4 µs), because with STAT4 a join whose plan reads a bound value is prepared again every
 * time the value changes. The token lookup sits in a derived table with a literal `LIMIT 1`:
 * SQLite plans it on its own, by the unique index, and the join to the user is by primary key.
 * Two separate lookups (what the query sets did) cost twice the statement overhead.
 *
 * Nothing is cached between requests: a revoked token or a deactivated user is refused by the
 * next request (the opt-in `tokenCacheSeconds` of {@link Auth} is the only cache).
 * @module
 */
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { type ColumnRead, compileRowReader, type RowReader } from '../db/plan/row-reader.ts';
import type { AnyModel } from '../models/model.ts';

/** What the statement finds: the user's row (no password hash) and the token's row. */
export interface TokenMatch {
  readonly user: Record<string, unknown> & { id: number };
  readonly token: Readonly<Record<string, unknown>>;
}

/** A compiled token → user lookup for one database (see the module). */
export class TokenUserQuery {
  readonly sql: string;
  readonly #db: Database;
  readonly #readUser: RowReader;
  readonly #readToken: RowReader;

  constructor(db: Database, userModel: AnyModel, tokenModel: AnyModel) {
    this.#db = db;
    const digest = tokenModel.getField('digest');
    const owner = tokenModel.getField('user');
    if (!digest || !owner) throw new Error('TokenUserQuery: the token model lacks digest or user');
    const tokenFields = tokenModel.fieldList.filter((field) => field !== digest);
    // The hash never leaves the database on this path: nothing here needs it.
    const userFields = userModel.fieldList.filter((field) => field.attname !== 'password');
    const inner = db.kysely
      .selectFrom(tokenModel.table)
      .select(tokenFields.map((field) => field.column))
      .where(digest.column, '=', '')
      // A literal: a bound LIMIT makes SQLite prepare the statement again on every run.
      .limit(sql.lit(1))
      .as('t');
    const compiled = db.kysely
      .selectFrom(inner)
      .innerJoin(`${userModel.table} as u`, `u.${userModel.pk.column}`, `t.${owner.column}`)
      .select([
        ...userFields.map((field) => `u.${field.column} as u__${field.attname}`),
        ...tokenFields.map((field) => `t.${field.column} as t__${field.attname}`),
      ] as never)
      .compile();
    if (compiled.parameters.length !== 1)
      throw new Error(`TokenUserQuery: expected one parameter, got ${compiled.parameters.length}`);
    this.sql = compiled.sql;
    // Read as the query layer reads rows: one compiled reader per record, made once here.
    const columns = (fields: typeof userFields, prefix: string): ColumnRead[] =>
      fields.map((field) => [`${prefix}${field.attname}`, field.attname, db.adapter.reader(field)]);
    this.#readUser = compileRowReader(columns(userFields, 'u__'), []);
    this.#readToken = compileRowReader(columns(tokenFields, 't__'), []);
  }

  /**
   * The token with this digest and its user, undefined when no token has it: at once when the
   * driver answered at once (SQLite, its connection idle), else a promise.
   */
  find(digest: string): TokenMatch | undefined | Promise<TokenMatch | undefined> {
    const db = this.#db;
    const parameters = [digest];
    let rows: unknown[] | undefined;
    try {
      rows = db.queryNow(this.sql, parameters);
    } catch (error) {
      throw db.translateError(error, undefined);
    }
    if (rows) return this.#match(rows, digest);
    return db.query(this.sql, parameters).then(
      (later) => this.#match(later, digest),
      (error: unknown) => {
        throw db.translateError(error, undefined);
      },
    );
  }

  #match(rows: readonly unknown[], digest: string): TokenMatch | undefined {
    const raw = rows[0] as Record<string, unknown> | undefined;
    if (!raw) return undefined;
    return {
      user: this.#readUser(raw) as TokenMatch['user'],
      token: { digest, ...this.#readToken(raw) },
    };
  }
}
