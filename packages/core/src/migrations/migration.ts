/**
 * What a migration file exports, and a migration as the loader read it.
 * @module
 */
import type { Operation } from './operations/operation-registry.ts';

/**
 * The default export of a migration file: the migrations it depends on (by file name without
 * the extension) and its operations, applied in order.
 *
 * @example
 * ```ts
 * import type { Migration } from '@restframework/core';
 *
 * export default {
 *   dependencies: ['0001_initial'],
 *   operations: [
 *     { op: 'AddField', model: 'Book', name: 'pages', field: { kind: 'integer', default: 200 } },
 *   ],
 * } satisfies Migration;
 * ```
 */
export interface Migration {
  /** The migrations of the app that must run first, by name (`['0001_initial']`). */
  readonly dependencies?: readonly string[];
  /** What it changes, in order (`CreateModel`, `AddField`, ...). */
  readonly operations: readonly Operation[];
}

/** A migration file, read and checked. */
export interface LoadedMigration {
  /** The file name without its extension (`0002_book_pages`). */
  readonly name: string;
  /** The file's path, for messages. */
  readonly file: string;
  /** The migrations that must run first, by name. */
  readonly dependencies: readonly string[];
  /** Its operations, in order. */
  readonly operations: readonly Operation[];
}
