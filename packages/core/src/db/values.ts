/**
 * `values()` and `valuesList()`: some fields of the rows (and annotations), as records or
 * lists, in one SELECT of those columns.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from '../models/model.ts';
import type { Database } from './database.ts';
import type { ValueReader } from './dialect/dialect-adapter.ts';
import { bindAnnotations } from './expressions/annotations.ts';
import type { Finish } from './plan/prepared-select.ts';
import { JoinSet } from './plan/query-paths.ts';
import type { QueryState } from './query-state.ts';

/** What a `values()` query selects, the relations it joins, and how it reads a row. */
export interface ValuesPlan {
  /** The relations to join (`author` for `author__username`). */
  readonly related: readonly string[];
  readonly kind: string;
  readonly select: Finish;
  /** The values of a driver's row, in the order of the fields asked. */
  readonly read: (raw: Record<string, unknown>) => unknown[];
}

/**
 * The plan of `values(...fields)` over `state`: each name a field of the model (`author_id`
 * or `author` for the key), a `relation__field` path across foreign keys, or an annotation.
 * Throws `ImproperlyConfigured` on any other name.
 */
export function valuesPlan(
  model: AnyModel,
  db: Database,
  state: QueryState,
  fields: readonly string[],
): ValuesPlan {
  const where = `${model.name}.objects.values()`;
  if (fields.length === 0) {
    throw new ImproperlyConfigured(
      'REST_ERR_MODEL_PATH',
      `${where} needs the names of the fields to read.`,
    );
  }
  const annotations = bindAnnotations(model, state.annotations, db, new JoinSet(model));
  const joins = new JoinSet(model);
  const related = new Set<string>();
  const columns: string[] = [];
  const readers: (ValueReader | undefined)[] = [];
  const keys: string[] = [];
  fields.forEach((name, i) => {
    const annotation = annotations?.get(name);
    if (annotation) {
      // Selected under its name by the query already.
      keys.push(name);
      readers.push(annotation.read);
      return;
    }
    const cut = name.lastIndexOf('__');
    if (cut !== -1) related.add(name.slice(0, cut));
    const column = joins.resolve(name, where);
    // With `__`, which no annotation name has: never the alias of a selected annotation.
    const key = `v__${i}`;
    columns.push(`${column.ref} as ${key}`);
    keys.push(key);
    readers.push(db.adapter.reader(column.field) ?? undefined);
  });
  return {
    related: [...related],
    kind: `values|${JSON.stringify(fields)}`,
    select: (query) => query.select(columns),
    read: (raw) =>
      keys.map((key, i) => {
        const reader = readers[i];
        return reader ? reader(raw[key]) : raw[key];
      }),
  };
}
