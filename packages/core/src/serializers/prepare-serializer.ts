/**
 * Class preparation of serializers: what is built once per serializer class and shared by
 * every request — the bound fields, the `validate<Field>` hooks, the relation paths a query
 * must load, and the compiled representation. Nothing here runs per request; `serializer.ts`
 * holds what does.
 *
 * The plan records what the class *declares* (fields, options, hooks found by name), never
 * which methods a class overrides: per-request code calls the overridable methods
 * (`runValidation`, `toRepresentation`, ...) every time, so an override that only calls
 * `super` runs the same steps as no override, and one that changes the result is honoured.
 *
 * @example
 * ```ts
 * class CommentSerializer extends Serializer.with({ fields: { content: new CharField() } }) {}
 * const plan = CommentSerializer.prepare(); // built on first use, then the same object
 * plan.writable.map((field) => field.fieldName); // ['content']
 * ```
 * @module
 */
import type { AnyField } from '../fields/field.ts';
import { readsSerializer } from '../fields/serializer-method-field.ts';
import type { AnyModel } from '../models/model.ts';
import { pascalCase } from '../utils/text.ts';
import { compileRepresentation, type RepresentFunction } from './representation-compiler.ts';

/** A serializer class, once prepared: bound fields and hooks, built once and shared. */
export interface PreparedSerializer {
  /** Every field of the serializer, bound, in declaration order. */
  readonly fields: readonly AnyField[];
  /** The fields by name. */
  readonly byName: ReadonlyMap<string, AnyField>;
  /** The fields a representation renders (all but write-only ones). */
  readonly readable: readonly AnyField[];
  /** The fields a body may send (all but read-only ones). */
  readonly writable: readonly AnyField[];
  /** `validate<Field>` hooks by field name. */
  readonly hooks: ReadonlyMap<string, (value: unknown) => unknown>;
  /** Relation paths the query must load for dotted sources (`user` for `user.username`). */
  readonly relatedPaths: readonly string[];
  /**
   * Many relations the query must prefetch for the fields that read them (`tags` for a list of
   * tag keys, `comments__author` for nested comments with their author).
   */
  readonly prefetchPaths: readonly string[];
  /** The model of a model serializer; null for a plain serializer. */
  readonly model: AnyModel | null;
  /**
   * The class's default representation, compiled once (see `representation-compiler.ts`):
   * what `Serializer.prototype.toRepresentation` runs.
   */
  readonly represent: RepresentFunction;
}

/**
 * Builds the plan of the serializer class `cls` from its unbound `fields` (see
 * `Serializer.buildFields`): binds them against `model`, finds the `validate<Field>` hooks
 * (`reservedHooks` holds the names that look like hooks but are the serializer's own methods),
 * collects the relation paths of dotted sources and the many relations read, including those of
 * a nested serializer (`nestedPlan(field)` gives its plan: of the same record with `source: '*'`,
 * else of the related rows), and compiles the representation.
 */
export function prepareSerializer(
  cls: { readonly name: string; readonly prototype: object },
  fields: Readonly<Record<string, AnyField>>,
  model: AnyModel | null,
  reservedHooks: object,
  nestedPlan: (field: AnyField) => PreparedSerializer | undefined,
): PreparedSerializer {
  const proto = cls.prototype as Record<string, unknown>;
  const hooks = new Map<string, (value: unknown) => unknown>();
  const list: AnyField[] = [];
  for (const [name, field] of Object.entries(fields)) {
    field.bind(name, cls.name, model);
    if (readsSerializer(field)) field.bindMethod(proto, cls.name);
    list.push(field);
    for (const hookName of [`validate${pascalCase(name)}`, `validate_${name}`]) {
      const hook = proto[hookName];
      if (typeof hook === 'function' && !(hookName in reservedHooks)) {
        hooks.set(name, hook as (value: unknown) => unknown);
        break;
      }
    }
  }
  const relatedPaths = new Set<string>();
  const prefetchPaths = new Set<string>();
  for (const field of list) {
    if (field.writeOnly) continue;
    if (field.relatedPath) relatedPaths.add(field.relatedPath);
    if (field.prefetchPath) prefetchPaths.add(field.prefetchPath);
    const nested = nestedPlan(field);
    if (!nested) continue;
    if (field.sourceAttrs.length === 0) {
      // The same record (`source: '*'`): what it reads is read from this row.
      for (const path of nested.relatedPaths) relatedPaths.add(path);
      for (const path of nested.prefetchPaths) prefetchPaths.add(path);
      continue;
    }
    // Related rows (`comments`, `author`): what it reads of them is loaded with them
    // (`comments__author` for comments rendered with their author).
    const base = field.prefetchPath ?? field.relatedPath;
    if (base === undefined) continue;
    const through = (path: string) => `${base}__${path}`;
    for (const path of nested.prefetchPaths) prefetchPaths.add(through(path));
    // Behind many rows, their own related rows are prefetched; behind one related row
    // (`author`), they are joined with it (`author__publisher`).
    const into = field.prefetchPath ? prefetchPaths : relatedPaths;
    for (const path of nested.relatedPaths) into.add(through(path));
  }
  const readable = list.filter((f) => !f.writeOnly);
  return {
    fields: list,
    byName: new Map(list.map((f) => [f.fieldName, f])),
    readable,
    writable: list.filter((f) => !f.readOnly),
    hooks,
    relatedPaths: [...relatedPaths],
    prefetchPaths: [...prefetchPaths],
    model,
    represent: compileRepresentation(readable),
  };
}
