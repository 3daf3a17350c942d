/**
 * Compiled SQL, kept per query shape. Building and compiling a Kysely query cost about a sixth
 * of a request that reads one row; queries of one shape (the same table, joins, conditions,
 * ordering and paging, whatever the values) have the same SQL, so it is compiled once, with
 * markers where the values go, and later runs only put their values in the markers' places.
 * @module
 */
import type { Compilable } from 'kysely';
import type { AnyModel } from '../../models/model.ts';
import type { BoundedCache } from '../../utils/bounded-cache.ts';
import type { Database } from '../database.ts';
import { modelPlans } from './model-plans.ts';

/** SQL and its parameters, ready to run. */
export interface CompiledStatement {
  /** The SQL text. */
  readonly sql: string;
  /** Its parameters, in order. */
  readonly parameters: readonly unknown[];
  /** Where the dialect keeps its prepared statement of this SQL (compiled shapes only). */
  readonly slot?: StatementSlot;
}

/**
 * What a dialect prepared for one compiled shape's SQL, kept with the shape (see
 * `DialectAdapter.execute`): SQLite's prepared statement, found again with the shape
 * instead of by its SQL text in a map per query. `owner` is the connection it belongs to: a
 * statement of another (closed, reopened) connection is prepared again.
 */
export interface StatementSlot {
  /** The connection the statement belongs to. */
  owner: unknown;
  /** The dialect's prepared statement. */
  prepared: unknown;
}

/** What stands in the place of parameter `index` while a query is built. */
export type Slot = (index: number) => unknown;

/** A parameter's place, while a shape is compiled; never sent to a database. */
class Marker {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

/**
 * The compiled SQL of one shape: where each value goes, and the dialect's prepared statement
 * of it (see {@link StatementSlot}). Made by {@link compileShape}, kept by whoever keyed it.
 */
export interface Shape {
  readonly sql: string;
  /** For each parameter of the SQL, the index of the value that goes there. */
  readonly positions: readonly number[];
  readonly slot: StatementSlot;
}

/**
 * The compiled shapes of a database, in its caches (`db.caches`); bounded, as a client can
 * vary some shapes (the length of an `__in` list).
 */
export const MAX_SHAPES = 2000;

/** `db`'s cache of compiled shapes by key. */
function shapesOf(db: Database): BoundedCache<string, Shape> {
  return db.caches.cache<string, Shape>('compiled statements', MAX_SHAPES);
}

/**
 * The statement of `key`'s shape with `parameters` in place, when that shape was compiled
 * before; else undefined (then {@link compileStatement} compiles it).
 */
export function cachedStatement(
  db: Database,
  key: string,
  parameters: readonly unknown[],
): CompiledStatement | undefined {
  const shape = shapesOf(db).get(key);
  return shape ? bindShape(shape, parameters) : undefined;
}

/**
 * The statement of `key`'s shape with `parameters` in place. `build(slot)` builds the query
 * with `slot(i)` where value `i` goes; it runs once per shape, with markers. When the
 * compiled SQL holds anything but markers as parameters (a builder that put a value in
 * directly), the shape is not kept: the query is compiled with its values each time.
 */
export function compileStatement(
  db: Database,
  key: string,
  parameters: readonly unknown[],
  build: (slot: Slot) => Compilable<any>,
): CompiledStatement {
  return keptStatement(shapesOf(db), key, parameters, build);
}

/**
 * The statement of the shape `key` names in `kept`, with `parameters` in place: compiled by
 * `build` and kept on first use (the oldest shape going first past the cache's bound). A
 * builder that put a value into the SQL is compiled with its values each time, and nothing is
 * kept.
 */
export function keptStatement<K>(
  kept: BoundedCache<K, Shape>,
  key: K,
  parameters: readonly unknown[],
  build: (slot: Slot) => Compilable<any>,
): CompiledStatement {
  let shape = kept.get(key);
  if (shape === undefined) {
    const compiled = compileShape(parameters.length, build);
    if (compiled === null) return build((i) => parameters[i]).compile();
    shape = kept.set(key, compiled);
  }
  return bindShape(shape, parameters);
}

/**
 * The shape of the query `build(slot)` builds with markers in the places of its `count`
 * values, compiled; null when the compiled SQL holds anything but markers as parameters (a
 * builder that put a value in directly), as such SQL must be compiled with its values each
 * time.
 */
function compileShape(count: number, build: (slot: Slot) => Compilable<any>): Shape | null {
  const markers: Marker[] = [];
  for (let i = 0; i < count; i++) markers.push(new Marker(i));
  const compiled = build((i) => markers[i]).compile();
  if (!compiled.parameters.every((p) => p instanceof Marker)) return null;
  return {
    sql: compiled.sql,
    positions: compiled.parameters.map((p) => (p as Marker).index),
    slot: { owner: null, prepared: null },
  };
}

/** The statement of `shape` with `parameters` (its values, by index) in their places. */
function bindShape(shape: Shape, parameters: readonly unknown[]): CompiledStatement {
  const { positions } = shape;
  const bound = new Array(positions.length);
  for (let i = 0; i < positions.length; i++) bound[i] = parameters[positions[i] as number];
  return { sql: shape.sql, parameters: bound, slot: shape.slot };
}

/**
 * The part of a statement key that names `model` (see `ModelPlans.key`): two models of one
 * table never share compiled SQL.
 */
export function modelKey(model: AnyModel): string {
  return modelPlans(model).key;
}
