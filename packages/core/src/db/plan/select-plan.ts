/**
 * What a SELECT of a model's rows selects and how its rows are read: made once per model,
 * dialect and related paths, then shared by every query of that kind.
 * @module
 */
import type { Compilable, OperationNodeSource, SelectQueryBuilder } from 'kysely';
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import type { AnyModel } from '../../models/model.ts';
import type { AnyModelField } from '../../models/model-field.ts';
import type { Database } from '../database.ts';
import { modelPlans } from './model-plans.ts';
import { JoinSet } from './query-paths.ts';
import {
  type ColumnRead,
  compileRowReader,
  inPlaceRowReader,
  type RelatedRead,
  type RowReader,
} from './row-reader.ts';

/** The select list of a model's rows (and of its related rows) and the reader of its rows. */
export interface SelectPlan {
  readonly columns: readonly string[];
  /** The select list as Kysely nodes, parsed once (Kysely would parse the strings per query). */
  readonly selections: readonly OperationNodeSource[];
  readonly read: RowReader;
  /** Adds the select list to a query (made once, not per query). */
  readonly select: (query: SelectQueryBuilder<any, any, any>) => Compilable<any>;
}

/**
 * The select plan of `model`'s rows with the rows of `related` paths (`user`, `owner__user`)
 * nested, on `db`'s dialect; made on first use. Throws `ImproperlyConfigured` on a related
 * path that does not name relations.
 *
 * @example
 * ```ts
 * declare const raw: Record<string, unknown>; // a row of the query plan.select() made
 *
 * const plan = selectPlan(Profile, db, ['user']);
 * plan.read(raw); // { id: 1, biography: '…', user: { id: 7, username: '…' } }
 * ```
 */
export function selectPlan(
  model: AnyModel,
  db: Database,
  related: readonly string[],
  only: readonly string[] | null = null,
): SelectPlan {
  const plans = modelPlans(model).selectPlans;
  // Without related rows the key is a constant string: no string to build and hash per query.
  let key = related.length === 0 ? db.vendor : `${db.vendor}|${related.join(',')}`;
  if (only !== null) key += `;${only.join(',')}`;
  return plans.get(key) ?? plans.set(key, makeSelectPlan(model, db, related, only));
}

function makeSelectPlan(
  model: AnyModel,
  db: Database,
  related: readonly string[],
  only: readonly string[] | null,
): SelectPlan {
  const joins = new JoinSet(model);
  // `a__b` loads `a` too, as Django's select_related: its row is where `b` is nested.
  const paths = [
    ...new Set(
      related.flatMap((path) =>
        path.split('__').map((_, i, parts) => parts.slice(0, i + 1).join('__')),
      ),
    ),
  ];
  // Joined first: only() checks its paths against the rows loaded.
  const joined = paths.map((path) => {
    const join = joins.join(path, `${model.name}.selectRelated`);
    if (join.multiValued) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_PATH',
        `${model.name}.selectRelated("${path}"): "${path}" holds many rows for one ${model.name}; ` +
          `selectRelated follows foreign keys and one-to-ones only. Use prefetchRelated("${path}").`,
      );
    }
    return join;
  });
  const loads = loadedFields(model, paths, joined, only);
  const columns: string[] = [];
  const localColumns: ColumnRead[] = [];
  for (const field of model.fieldList as readonly AnyModelField[]) {
    if (!loads('', field)) continue;
    columns.push(`${model.table}.${field.column} as ${field.attname}`);
    localColumns.push([field.attname, field.attname, db.adapter.reader(field)]);
  }
  type RelatedNode = RelatedRead & { children: RelatedRead[] };
  const byPath = new Map<string, RelatedNode>();
  const top: RelatedRead[] = [];
  for (let p = 0; p < paths.length; p++) {
    const path = paths[p] as string;
    const join = joined[p] as (typeof joined)[number];
    const relatedColumns: ColumnRead[] = [];
    for (const field of join.model.fieldList as readonly AnyModelField[]) {
      if (!loads(path, field)) continue;
      const key = `${path}__${field.attname}`;
      columns.push(`${join.alias}.${field.column} as ${key}`);
      relatedColumns.push([key, field.attname, db.adapter.reader(field)]);
    }
    const cut = path.lastIndexOf('__');
    const node = {
      name: cut === -1 ? path : path.slice(cut + 2),
      pk: `${path}__${join.model.pk.attname}`,
      columns: relatedColumns,
      children: [] as RelatedRead[],
    };
    byPath.set(path, node);
    // Every prefix of a path comes before it, so a parent is always there.
    (cut === -1 ? top : (byPath.get(path.slice(0, cut)) as RelatedNode).children).push(node);
  }

  const read = top.length ? compileRowReader(localColumns, top) : inPlaceRowReader(localColumns);
  // Kysely's nodes are immutable, so one parse of the select list serves every query.
  const parsed = db.kysely.selectFrom(model.table).select(columns).toOperationNode().selections;
  const selections = (parsed ?? []).map((node) => ({ toOperationNode: () => node.selection }));
  return { columns, selections, read, select: (query) => query.select(selections as never) };
}

/**
 * Which fields a select list loads, per row: `level` is '' for the model's own row, else the
 * related path. Every field without `only`; with it, a row of which some field is named loads
 * those, its primary key and the keys of the relations loaded through it, and a row of which
 * none is named loads every field. Throws `ImproperlyConfigured` on a name that is no field of
 * a loaded row.
 */
function loadedFields(
  model: AnyModel,
  paths: readonly string[],
  joined: readonly { readonly model: AnyModel }[],
  only: readonly string[] | null,
): (level: string, field: AnyModelField) => boolean {
  if (only === null) return () => true;
  const named = new Map<string, Set<string>>();
  for (const entry of only) {
    const cut = entry.lastIndexOf('__');
    const level = cut === -1 ? '' : entry.slice(0, cut);
    const name = cut === -1 ? entry : entry.slice(cut + 2);
    const index = level === '' ? -1 : paths.indexOf(level);
    if (level !== '' && index === -1) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_PATH',
        `${model.name}.only(): "${entry}" goes through "${level}", which selectRelated() does not load` +
          (paths.length ? ` (it loads: ${paths.join(', ')}).` : ' (it loads no relation).'),
      );
    }
    const levelModel = index === -1 ? model : (joined[index] as { model: AnyModel }).model;
    const field = levelModel.getField(name);
    if (!field) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_PATH',
        `${model.name}.only(): ${levelModel.name} has no field "${name}" (in "${entry}"). ` +
          `Fields: ${levelModel.fieldList.map((f: AnyModelField) => f.name).join(', ')}.`,
      );
    }
    let set = named.get(level);
    if (!set) named.set(level, (set = new Set()));
    set.add(field.name);
  }
  return (level, field) => {
    const set = named.get(level);
    if (set === undefined || field.isPrimaryKey || set.has(field.name)) return true;
    // The key of a relation loaded through this row: the row it points to is nested here.
    return paths.includes(level === '' ? field.name : `${level}__${field.name}`);
  };
}
