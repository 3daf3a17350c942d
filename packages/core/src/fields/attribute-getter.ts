/**
 * Compiles a field's `source` into a getter, once per serializer class.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { type AnyModel, Model } from '../models/model.ts';
import { getPrefetched } from '../models/prefetched-rows.ts';

/** A compiled getter and the relation path a query must load for it. */
export interface CompiledGetter {
  readonly get: (instance: unknown) => unknown;
  /** `user` for `user.username`; undefined when no relation is crossed. */
  readonly relatedPath: string | undefined;
  /**
   * The key the getter reads when it is nothing but `instance[key]` (a column or a plain
   * property), so compiled serializers can read it inline; undefined otherwise.
   */
  readonly key?: string;
}

type Step = (value: any) => unknown;

/**
 * Builds the getter of a source path. With a model, each step is checked now (a typo fails at
 * start-up) and reads a column, a computed property, or a related row loaded by the query; a
 * `null` on the way gives `null`. Without a model, steps read plain object keys.
 *
 * `relationValue: 'key'` makes a path that ends on a relation read its key column
 * (`user_id`), which needs no join.
 *
 * `rowAttributes: true` (read-only fields) lets the first step name what the model does not
 * declare: an annotation of the query (`favorites_count`), or any attribute a developer put
 * on the row, read when the row is rendered (a function there is called, as DRF calls a
 * method). As in DRF, a name the row does not have fails then (`REST_ERR_FIELD_SOURCE`,
 * naming the source), not at start-up: only the query knows its annotations. A step after a
 * relation stays checked at start-up: a related row holds only its model's columns.
 */
export function compileGetter(
  path: readonly string[],
  model: AnyModel | null,
  where: string,
  relationValue: 'row' | 'key' = 'row',
  rowAttributes = false,
): CompiledGetter {
  if (path.length === 0) return { get: (instance) => instance, relatedPath: undefined };
  const steps: Step[] = [];
  const keys: (string | undefined)[] = [];
  const relations: string[] = [];
  let current: AnyModel | null = model;
  for (let i = 0; i < path.length; i++) {
    const name = path[i] as string;
    const last = i === path.length - 1;
    if (!current) {
      steps.push((obj) => obj[name]);
      keys.push(name);
      continue;
    }
    const property = Object.hasOwn(current.properties, name) ? current.properties[name] : undefined;
    if (property) {
      steps.push((row) => property.get(row));
      current = null;
      continue;
    }
    const field = current.getField(name);
    if (!field && isManyRelation(current, name)) {
      // A many-to-many or a reverse relation: the rows prefetched for the record.
      steps.push(prefetchedRows(name, current.name, relations, where));
      current = null;
      continue;
    }
    if (!field && rowAttributes && i === 0) {
      steps.push(rowAttribute(name, current.name, path, where));
      current = null;
      continue;
    }
    if (!field) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_SOURCE',
        `${where}: the source "${path.join('.')}" does not resolve: ${current.name} has no field or property "${name}".`,
      );
    }
    if (field.isRelation && !(last && relationValue === 'key')) {
      relations.push(field.name);
      const modelName = current.name;
      steps.push((row) => {
        const related = row[name];
        if (related === undefined) {
          throw new ImproperlyConfigured(
            'REST_ERR_FIELD_SOURCE',
            `${where}: ${modelName}.${name} is not loaded. Add .selectRelated('${relations.join('__')}') to the query ` +
              '(generic views do this for you from the serializer).',
          );
        }
        return related;
      });
      current = field.relatedModel;
      continue;
    }
    const attname = field.attname;
    steps.push((row) => row[attname]);
    keys.push(attname);
    current = null;
  }
  const relatedPath = relations.length ? relations.join('__') : undefined;
  if (steps.length === 1) {
    const only = steps[0] as Step;
    const key = keys.length === 1 ? keys[0] : undefined;
    return {
      get: (instance) => (instance == null ? null : only(instance)),
      relatedPath,
      ...(key === undefined ? {} : { key }),
    };
  }
  return {
    get: (instance) => {
      let value: unknown = instance;
      for (const step of steps) {
        if (value === null || value === undefined) return null;
        value = step(value);
      }
      return value;
    },
    relatedPath,
  };
}

/**
 * The step that reads `name` from a row of `modelName` that its model does not declare (an
 * annotation, an attribute set by the developer): a function is called on the row; a name the
 * row does not have at all is a declaration mistake, reported with what to change.
 */
function rowAttribute(
  name: string,
  modelName: string,
  path: readonly string[],
  where: string,
): Step {
  return (row) => {
    const value = row[name];
    if (value === undefined && !(name in row)) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_SOURCE',
        `${where}: the source "${path.join('.')}" does not resolve: ${modelName} has no field or property ` +
          `"${name}", and the row has no such attribute. Annotate it in the view's query set ` +
          `(.annotate({ ${name}: ... })), or correct the source.`,
      );
    }
    return typeof value === 'function' ? value.call(row) : value;
  };
}

/** True when `name` is a many-to-many or a reverse relation (`relatedName`) of `model`. */
export function isManyRelation(model: AnyModel, name: string): boolean {
  if (Object.hasOwn(model.manyToMany, name)) return true;
  if (!model.reverseRelations.find(name)) Model.registerPendingRelations();
  return model.reverseRelations.find(name) !== undefined;
}

/**
 * The step that reads the many relation `name` of a row of `modelName`: the rows
 * `prefetchRelated` loaded for it (or a list the developer put on the row); a row without them
 * fails naming the query to add, as an unloaded foreign key does, rather than querying per row.
 */
export function prefetchedRows(
  name: string,
  modelName: string,
  before: readonly string[],
  where: string,
): Step {
  const path = [...before, name].join('__');
  return (row) => {
    const prefetched = getPrefetched(row, name);
    if (prefetched !== undefined) return prefetched;
    const own = row[name];
    if (Array.isArray(own)) return own;
    throw new ImproperlyConfigured(
      'REST_ERR_FIELD_SOURCE',
      `${where}: ${modelName}.${name} is not loaded. Add .prefetchRelated('${path}') to the query ` +
        '(one query for all the rows of a page, not one per row).',
    );
  };
}
