/**
 * `getOrCreate` and `updateOrCreate`, as Django's: race-safe, a unique violation by a
 * concurrent writer answered by reading the row it wrote.
 * @module
 */
import type { AnyModel } from '../models/model.ts';
import { DoesNotExist, UniqueViolationError } from './database-errors.ts';
import type { QuerySet } from './query-set.ts';
import type { Filter } from './query-state.ts';

/**
 * The values of a new row from a lookup and defaults: the lookup's plain keys (`{ username:
 * 'ann' }`, not `name__iexact`), then the defaults over them, as Django builds them.
 */
export function createValues(
  lookup: Filter,
  defaults: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(lookup)) if (!key.includes('__')) values[key] = lookup[key];
  return { ...values, ...defaults };
}

/** The first row matching `lookup`, or undefined. */
async function find<M extends AnyModel>(qs: QuerySet<M>, lookup: Filter) {
  try {
    return await qs.get(lookup);
  } catch (error) {
    if (error instanceof DoesNotExist) return undefined;
    throw error;
  }
}

/** Creates in a savepoint; on a unique violation (another writer was first) reads its row. */
async function createOrFind<M extends AnyModel>(
  qs: QuerySet<M>,
  lookup: Filter,
  values: Record<string, unknown>,
) {
  const db = qs.db;
  try {
    return { row: await db.atomic(() => qs.create(values as never)), created: true };
  } catch (error) {
    if (!(error instanceof UniqueViolationError)) throw error;
    const row = await find(qs, lookup);
    if (row === undefined) throw error;
    return { row, created: false };
  }
}

/** See `QuerySet.getOrCreate`. */
export async function getOrCreate<M extends AnyModel>(
  qs: QuerySet<M>,
  lookup: Filter,
  defaults: Readonly<Record<string, unknown>>,
) {
  const found = await find(qs, lookup);
  if (found !== undefined) return { row: found, created: false };
  return createOrFind(qs, lookup, createValues(lookup, defaults));
}

/** See `QuerySet.updateOrCreate`. */
export async function updateOrCreate<M extends AnyModel>(
  qs: QuerySet<M>,
  lookup: Filter,
  defaults: Readonly<Record<string, unknown>>,
) {
  return qs.db.atomic(async () => {
    const locked = qs.selectForUpdate();
    const found = await find(locked, lookup);
    if (found !== undefined)
      return { row: await qs.updateRow(found, defaults as never), created: false };
    const result = await createOrFind(locked, lookup, createValues(lookup, defaults));
    if (result.created) return result;
    return { row: await qs.updateRow(result.row, defaults as never), created: false };
  });
}
