/**
 * `AddIndex`, `RemoveIndex`, `AddUniqueConstraint`, `RemoveUniqueConstraint`: indexes over
 * fields of a model, plain or unique. Both kinds are indexes in the database (a unique
 * constraint is a unique index), built by one pair of functions.
 * @module
 */
import type { AnyModel } from '../../models/model.ts';
import type { IndexSpec, ModelSpec } from '../model-spec.ts';
import type { ProjectState } from '../project-state.ts';
import { modelIndexes } from '../schema-index.ts';
import {
  modelIn,
  type OperationContext,
  type OperationKind,
  requireName,
  StateError,
} from './operation.ts';

/** `{ op: 'AddIndex', model, index: { name, fields } }`. */
export interface AddIndexOperation {
  readonly op: 'AddIndex';
  readonly model: string;
  readonly index: IndexSpec;
}

/** `{ op: 'RemoveIndex', model, name }`. */
export interface RemoveIndexOperation {
  readonly op: 'RemoveIndex';
  readonly model: string;
  readonly name: string;
}

/** `{ op: 'AddUniqueConstraint', model, constraint: { name, fields } }`. */
export interface AddUniqueConstraintOperation {
  readonly op: 'AddUniqueConstraint';
  readonly model: string;
  readonly constraint: IndexSpec;
}

/** `{ op: 'RemoveUniqueConstraint', model, name }`. */
export interface RemoveUniqueConstraintOperation {
  readonly op: 'RemoveUniqueConstraint';
  readonly model: string;
  readonly name: string;
}

type ListKey = 'indexes' | 'uniqueConstraints';

function addToState(state: ProjectState, modelName: string, key: ListKey, index: IndexSpec): void {
  const model = modelIn(state, modelName);
  if (!index || typeof index !== 'object') throw new StateError('needs { name, fields }.');
  requireName(index.name, 'the index name');
  if (!Array.isArray(index.fields) || index.fields.length === 0) {
    throw new StateError(`${index.name}: fields must be a non-empty list of field names.`);
  }
  for (const field of index.fields) {
    if (!Object.hasOwn(model.fields, field)) {
      throw new StateError(`${index.name}: ${model.name} has no field ${JSON.stringify(field)}.`);
    }
  }
  if (namesOf(model).includes(index.name)) {
    throw new StateError(`${model.name} already has an index or constraint ${index.name}.`);
  }
  state.set({
    ...model,
    [key]: [...(model[key] ?? []), { name: index.name, fields: [...index.fields] }],
  });
}

function removeFromState(state: ProjectState, modelName: string, key: ListKey, name: string): void {
  const model = modelIn(state, modelName);
  const list = model[key] ?? [];
  if (!list.some((i) => i.name === name)) {
    throw new StateError(
      `${model.name} has no ${key === 'indexes' ? 'index' : 'unique constraint'} ${JSON.stringify(name)} ` +
        `in the state the earlier migrations produce (${list.map((i) => i.name).join(', ') || 'none'}).`,
    );
  }
  const rest = list.filter((i) => i.name !== name);
  const { [key]: _dropped, ...others } = model;
  state.set(rest.length ? { ...others, [key]: rest } : (others as ModelSpec));
}

async function create(model: AnyModel, name: string, { editor }: OperationContext): Promise<void> {
  const index = modelIndexes(model).find((i) => i.name === name);
  if (index) await editor.createIndex(model.table, index);
}

function namesOf(model: ModelSpec): string[] {
  return [...(model.indexes ?? []), ...(model.uniqueConstraints ?? [])].map((i) => i.name);
}

export const AddIndex: OperationKind<AddIndexOperation> = {
  stateForwards: (o, state) => addToState(state, o.model, 'indexes', o.index),
  databaseForwards: (o, context) => create(context.after.render(o.model), o.index.name, context),
  databaseBackwards: (o, { editor, after }) =>
    editor.dropIndex(after.render(o.model).table, o.index.name),
  reversible: () => true,
  describe: (o) => `Create index ${o.index.name} on ${o.model}(${o.index.fields.join(', ')})`,
};

export const RemoveIndex: OperationKind<RemoveIndexOperation> = {
  stateForwards: (o, state) => removeFromState(state, o.model, 'indexes', o.name),
  databaseForwards: (o, { editor, before }) =>
    editor.dropIndex(before.render(o.model).table, o.name),
  databaseBackwards: (o, context) => create(context.before.render(o.model), o.name, context),
  reversible: () => true,
  describe: (o) => `Remove index ${o.name} from ${o.model}`,
};

export const AddUniqueConstraint: OperationKind<AddUniqueConstraintOperation> = {
  stateForwards: (o, state) => addToState(state, o.model, 'uniqueConstraints', o.constraint),
  databaseForwards: (o, context) =>
    create(context.after.render(o.model), o.constraint.name, context),
  databaseBackwards: (o, { editor, after }) =>
    editor.dropIndex(after.render(o.model).table, o.constraint.name),
  reversible: () => true,
  describe: (o) =>
    `Create unique constraint ${o.constraint.name} on ${o.model}(${o.constraint.fields.join(', ')})`,
};

export const RemoveUniqueConstraint: OperationKind<RemoveUniqueConstraintOperation> = {
  stateForwards: (o, state) => removeFromState(state, o.model, 'uniqueConstraints', o.name),
  databaseForwards: (o, { editor, before }) =>
    editor.dropIndex(before.render(o.model).table, o.name),
  databaseBackwards: (o, context) => create(context.before.render(o.model), o.name, context),
  reversible: () => true,
  describe: (o) => `Remove unique constraint ${o.name} from ${o.model}`,
};
