/**
 * Django's database routers (`DATABASE_ROUTERS`), in TypeScript spelling: an object that says
 * which named database a read or a write of a model goes to. `Databases` asks its routers in
 * order; the first that answers an alias wins, and when none does the query runs on `default`.
 *
 * @example
 * ```ts
 * import type { DatabaseRouter } from '@restframework/core';
 *
 * // Analytics models live in their own database, everything else in `default`.
 * const analytics: DatabaseRouter = {
 *   dbForRead: (model) => (model.table.startsWith('analytics_') ? 'analytics' : undefined),
 *   dbForWrite: (model) => (model.table.startsWith('analytics_') ? 'analytics' : undefined),
 * };
 * ```
 * @module
 */
import type { AnyModel } from '../../models/model.ts';
import type { Database } from '../database.ts';

/**
 * What a router is told besides the model (Django's `**hints`): the row concerned, if any,
 * and what the current request and transaction did, so that a router can keep a request's
 * reads where its writes went.
 */
export interface RouterHints {
  /** The row being written or read relative to (`updateRow`), when there is one. */
  readonly instance?: object;
  /** A transaction is open on the `default` database in this async context. */
  readonly inTransaction: boolean;
  /**
   * The current request already wrote (routed a write or opened a transaction). Always false
   * outside a request: a script has no request to read its writes back in.
   */
  readonly wroteInRequest: boolean;
}

/**
 * A database router (Django's contract): each method answers the alias of a database of
 * `Databases`, or undefined for "no opinion" (the next router is asked). Both are optional.
 * They run for every query that names no database (`.using()` skips them), so they must answer
 * at once from what they hold: a router that needs to look at a server does so on a timer of its
 * own (see `PrimaryReplicaRouter`).
 */
export interface DatabaseRouter {
  /** The alias of the database a read of `model` goes to, or undefined for no opinion. */
  dbForRead?(model: AnyModel, hints: RouterHints): string | undefined;
  /** The alias of the database a write of `model` goes to, or undefined for no opinion. */
  dbForWrite?(model: AnyModel, hints: RouterHints): string | undefined;
  /**
   * Called once when the router is given to `Databases` (before any query), with its
   * databases: a router that checks its servers starts doing so here.
   */
  attach?(databases: DatabaseSet): void;
  /** Called when the databases close: stop timers. */
  detach?(): void;
}

/** What a router may read of its `Databases`: the databases by alias. */
export interface DatabaseSet {
  /** The aliases, `default` first. */
  readonly aliases: readonly string[];
  /** The database an alias names; throws `REST_ERR_DATABASE_ROUTING` for an unknown one. */
  get(alias: string): Database;
}
