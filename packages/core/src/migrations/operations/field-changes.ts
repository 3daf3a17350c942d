/**
 * Changes to one field of a model spec, shared by the field operations: the order of the
 * fields is kept, and the model's indexes follow a renamed field.
 * @module
 */
import type { FieldSpec } from '../field-spec.ts';
import type { IndexSpec, ModelSpec } from '../model-spec.ts';
import { StateError } from './operation.ts';

/** The model with field `name` set to `spec` (added at the end when new). */
export function withField(model: ModelSpec, name: string, spec: FieldSpec): ModelSpec {
  return { ...model, fields: { ...model.fields, [name]: spec } };
}

/** The model without field `name`; refuses while an index or constraint still uses it. */
export function withoutField(model: ModelSpec, name: string): ModelSpec {
  const user = [...(model.indexes ?? []), ...(model.uniqueConstraints ?? [])].find((i) =>
    i.fields.includes(name),
  );
  if (user) {
    throw new StateError(
      `${model.name}.${name} is used by the index or constraint ${user.name}: remove that first.`,
    );
  }
  const fields = { ...model.fields };
  delete fields[name];
  return { ...model, fields };
}

/** The model with field `from` renamed to `to`, in place, indexes following. */
export function withRenamedField(model: ModelSpec, from: string, to: string): ModelSpec {
  const fields = Object.fromEntries(
    Object.entries(model.fields).map(([name, spec]) => [name === from ? to : name, spec]),
  );
  const follow = (list: readonly IndexSpec[] | undefined) =>
    list?.map((i) => ({ ...i, fields: i.fields.map((f) => (f === from ? to : f)) }));
  const indexes = follow(model.indexes);
  const uniqueConstraints = follow(model.uniqueConstraints);
  return {
    ...model,
    fields,
    ...(indexes ? { indexes } : {}),
    ...(uniqueConstraints ? { uniqueConstraints } : {}),
  };
}

/**
 * The value existing rows get when a NOT NULL column without a fill comes back (reversing a
 * removal): the field's default, or the empty value of its kind where one exists.
 */
export function restoreValue(spec: FieldSpec): unknown {
  if (spec.null) return null;
  if (spec.default !== undefined) return spec.default;
  switch (spec.kind) {
    case 'char':
    case 'text':
    case 'email':
    case 'url':
    case 'slug':
    case 'file':
      return '';
    case 'integer':
    case 'positive_integer':
    case 'big_integer':
    case 'small_integer':
    case 'positive_small_integer':
    case 'float':
    case 'duration':
    case 'decimal':
      return 0;
    case 'time':
      return '00:00:00';
    case 'json':
      return {};
    case 'boolean':
      return false;
    default:
      return null;
  }
}
