/**
 * Compares the models with the state the migrations produce and lists the operations that
 * take one to the other (Django's `MigrationAutodetector`). Renames are never guessed: a
 * renamed model or field is a removal and an addition unless the caller names the rename.
 * A change that needs a value for existing rows (a NOT NULL field without a default) fails
 * with a message saying what to add, unless the caller gives the value.
 * @module
 */
import { canonical, type FieldSpec, type JsonValue, sameFieldSpec } from './field-spec.ts';
import { MigrationError } from './migration-error.ts';
import type { IndexSpec, ModelSpec } from './model-spec.ts';
import { type Operation, operationKind } from './operations/operation-registry.ts';
import type { ProjectState } from './project-state.ts';

/** What the developer told `makemigrations`. */
export interface AutodetectorOptions {
  /** Renames: `Old` → `New` for a model, `Model.old` → `new` for a field (model by its new name). */
  readonly renames?: ReadonlyMap<string, string>;
  /** Values existing rows get, by `Model.field`, for NOT NULL fields without a default. */
  readonly fills?: ReadonlyMap<string, JsonValue>;
}

/**
 * The operations that take `from` (the migrations' state) to `to` (the models' state).
 *
 * @example
 * ```ts
 * const graph = new MigrationGraph(await loadMigrations('migrations'));
 * const operations = detectChanges(graph.finalState, ProjectState.fromModels([Book]), {
 *   renames: new Map([['Book.title', 'name']]),
 * });
 * ```
 */
export function detectChanges(
  from: ProjectState,
  to: ProjectState,
  options: AutodetectorOptions = {},
): Operation[] {
  const current = from.clone();
  const operations: Operation[] = [];
  const emit = (operation: Operation) => {
    operationKind(operation)?.stateForwards(operation, current);
    operations.push(operation);
  };
  const renames = options.renames ?? new Map<string, string>();
  const fills = options.fills ?? new Map<string, JsonValue>();

  for (const [old, renamed] of renames) {
    if (old.includes('.')) continue;
    if (!current.has(old)) fail(`--rename ${old}:${renamed}: the migrations have no model ${old}.`);
    if (!to.has(renamed)) fail(`--rename ${old}:${renamed}: the models have no model ${renamed}.`);
    if (current.has(renamed))
      fail(`--rename ${old}:${renamed}: the migrations already have a model ${renamed}.`);
    const table = (to.get(renamed) as ModelSpec).table;
    const oldTable = (current.get(old) as ModelSpec).table;
    emit({ op: 'RenameModel', from: old, to: renamed, ...(table !== oldTable ? { table } : {}) });
  }
  for (const model of to.models) {
    const existing = current.get(model.name);
    if (existing && existing.table !== model.table) {
      emit({ op: 'RenameModel', from: model.name, to: model.name, table: model.table });
    }
  }
  for (const [key, renamed] of renames) {
    const dot = key.indexOf('.');
    if (dot === -1) continue;
    const modelName = key.slice(0, dot);
    const old = key.slice(dot + 1);
    const model = current.get(modelName);
    const target = to.get(modelName);
    if (!model || !target)
      fail(
        `--rename ${key}:${renamed}: no model ${modelName} in both the migrations and the models.`,
      );
    if (!Object.hasOwn(model.fields, old))
      fail(`--rename ${key}:${renamed}: the migrations' ${modelName} has no field ${old}.`);
    if (!Object.hasOwn(target.fields, renamed))
      fail(`--rename ${key}:${renamed}: the model ${modelName} has no field ${renamed}.`);
    if (Object.hasOwn(model.fields, renamed))
      fail(
        `--rename ${key}:${renamed}: the migrations' ${modelName} already has a field ${renamed}.`,
      );
    emit({ op: 'RenameField', model: modelName, from: old, to: renamed });
  }

  // Indexes that go (or change) first: a field they use may go next.
  for (const model of to.models) {
    const existing = current.get(model.name);
    if (!existing) continue;
    for (const index of missingFrom(existing.indexes, model.indexes)) {
      emit({ op: 'RemoveIndex', model: model.name, name: index.name });
    }
    for (const index of missingFrom(existing.uniqueConstraints, model.uniqueConstraints)) {
      emit({ op: 'RemoveUniqueConstraint', model: model.name, name: index.name });
    }
  }

  // A new model's many-to-manys come as fields of their own once every model is there (their
  // join tables refer to both sides).
  for (const model of creationOrder(to.models.filter((m) => !current.has(m.name)))) {
    emit({ op: 'CreateModel', ...model, fields: columnsOf(model.fields) });
  }

  for (const model of to.models) {
    const existing = current.get(model.name) as ModelSpec;
    for (const [name, field] of Object.entries(model.fields)) {
      const before = existing.fields[name];
      const key = `${model.name}.${name}`;
      if (!before) {
        const fill = fills.get(key);
        if (
          field.kind !== 'many_to_many' &&
          !field.null &&
          field.default === undefined &&
          !field.primaryKey &&
          fill === undefined
        ) {
          fail(
            `${key} is a new NOT NULL field without a default, and existing rows need a value. ` +
              renameAdvice(existing, model, name) +
              `Give the field a default (default: ...), make it null: true, or pass --default ${key}=<JSON value> ` +
              '(used once, for the existing rows).',
          );
        }
        emit({
          op: 'AddField',
          model: model.name,
          name,
          field,
          ...(fill !== undefined ? { fill } : {}),
        });
      } else if (!sameFieldSpec(before, field)) {
        const fill = fills.get(key);
        if (
          field.kind !== 'many_to_many' &&
          before.null &&
          !field.null &&
          field.default === undefined &&
          fill === undefined
        ) {
          fail(
            `${key} becomes NOT NULL and has no default, and existing rows may hold NULL. ` +
              `Give the field a default, or pass --default ${key}=<JSON value> (written into the rows that hold NULL).`,
          );
        }
        emit({
          op: 'AlterField',
          model: model.name,
          name,
          field,
          ...(fill !== undefined ? { fill } : {}),
        });
      }
    }
    for (const name of Object.keys(existing.fields)) {
      if (!Object.hasOwn(model.fields, name)) emit({ op: 'RemoveField', model: model.name, name });
    }
  }

  for (const model of creationOrder(current.models.filter((m) => !to.has(m.name))).reverse()) {
    emit({ op: 'DeleteModel', name: model.name });
  }

  for (const model of to.models) {
    const existing = current.get(model.name) as ModelSpec;
    for (const index of missingFrom(model.indexes, existing.indexes)) {
      emit({ op: 'AddIndex', model: model.name, index: copy(index) });
    }
    for (const index of missingFrom(model.uniqueConstraints, existing.uniqueConstraints)) {
      emit({ op: 'AddUniqueConstraint', model: model.name, constraint: copy(index) });
    }
  }

  if (!current.equals(to)) {
    throw new Error(
      'The autodetector missed a change: the replayed state differs from the models.',
    );
  }
  return operations;
}

/**
 * Renames that are likely (Django's questioner asks about these): a model that went and one
 * that came with the same fields, or in a model a field that went and one that came with the
 * same definition. Keys and values as {@link AutodetectorOptions.renames} takes them. Never
 * applied without asking: `makemigrations` asks when a terminal is attached.
 *
 * @example
 * ```ts
 * const graph = new MigrationGraph(await loadMigrations('migrations'));
 * renameCandidates(graph.finalState, ProjectState.fromModels([Book])); // Map { 'Book.title' => 'name' }
 * ```
 */
export function renameCandidates(from: ProjectState, to: ProjectState): Map<string, string> {
  const result = new Map<string, string>();
  const gone = from.models.filter((m) => !to.has(m.name));
  const came = to.models.filter((m) => !from.has(m.name));
  for (const old of gone) {
    const match = came.find(
      (m) =>
        canonical(m.fields) === canonical(old.fields) && ![...result.values()].includes(m.name),
    );
    if (match) result.set(old.name, match.name);
  }
  for (const model of to.models) {
    const before = from.get(model.name);
    if (!before) continue;
    const added = Object.entries(model.fields).filter(
      ([name]) => !Object.hasOwn(before.fields, name),
    );
    const taken = new Set<string>();
    for (const [oldName, oldSpec] of Object.entries(before.fields)) {
      if (Object.hasOwn(model.fields, oldName)) continue;
      const match = added.find(
        ([name, spec]) =>
          !taken.has(name) && sameFieldSpec(withoutColumn(spec), withoutColumn(oldSpec)),
      );
      if (!match) continue;
      taken.add(match[0]);
      result.set(`${model.name}.${oldName}`, match[0]);
    }
  }
  return result;
}

/**
 * For a new NOT NULL field of a model that lost fields in the same change: the advice to pass
 * `--rename` first (a rename keeps the old column's values, where `--default` with a new column
 * would drop them). Empty when no field went.
 */
function renameAdvice(before: ModelSpec, after: ModelSpec, name: string): string {
  const gone = Object.keys(before.fields).filter((old) => !Object.hasOwn(after.fields, old));
  if (gone.length === 0) return '';
  const spec = after.fields[name] as FieldSpec;
  const same = gone.find((old) =>
    sameFieldSpec(withoutColumn(before.fields[old] as FieldSpec), withoutColumn(spec)),
  );
  const old = same ?? (gone.length === 1 ? gone[0] : '<old name>');
  const which = same || gone.length === 1 ? `${before.name}.${old}` : `one of ${gone.join(', ')}`;
  return (
    `If it is ${which} renamed, pass --rename ${before.name}.${old}:${name} first: a rename keeps ` +
    'the column and its values, which a new field filled with --default would lose. Otherwise: '
  );
}

function withoutColumn(spec: FieldSpec): FieldSpec {
  const { column: _column, ...rest } = spec;
  return rest;
}

function fail(message: string): never {
  throw new MigrationError('REST_ERR_MIGRATION_DETECT', message);
}

function copy(index: IndexSpec): IndexSpec {
  return { name: index.name, fields: [...index.fields] };
}

/** The indexes of `list` that `other` lacks (same name and fields). */
function missingFrom(
  list: readonly IndexSpec[] | undefined,
  other: readonly IndexSpec[] | undefined,
): IndexSpec[] {
  return (list ?? []).filter(
    (index) =>
      !(other ?? []).some((o) => o.name === index.name && o.fields.join() === index.fields.join()),
  );
}

/** The fields that are columns (a many-to-many is added after the models it joins). */
function columnsOf(fields: Readonly<Record<string, FieldSpec>>): Record<string, FieldSpec> {
  return Object.fromEntries(Object.entries(fields).filter(([, f]) => f.kind !== 'many_to_many'));
}

/** Models that others refer to first (within the list), so foreign keys can be declared. */
function creationOrder(list: readonly ModelSpec[]): ModelSpec[] {
  const byName = new Map(list.map((m) => [m.name, m]));
  const result: ModelSpec[] = [];
  const seen = new Set<string>();
  const visit = (model: ModelSpec) => {
    if (seen.has(model.name)) return;
    seen.add(model.name);
    for (const field of Object.values(model.fields)) {
      const related = field.to && field.kind !== 'many_to_many' ? byName.get(field.to) : undefined;
      if (related) visit(related);
    }
    result.push(model);
  };
  for (const model of list) visit(model);
  return result;
}
