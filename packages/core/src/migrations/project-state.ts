/**
 * The models as a list of migrations leaves them, built in memory by replaying the
 * operations (Django's `ProjectState`): never read from a live database.
 * @module
 */
import type { AnyModel } from '../models/model.ts';
import { canonical } from './field-spec.ts';
import { type ModelSpec, modelSpecOf, renderModel } from './model-spec.ts';

/**
 * Model specs by name. Operations change a state through {@link ProjectState.set} and
 * {@link ProjectState.remove}; {@link ProjectState.clone} keeps a state before a change.
 *
 * @example
 * ```ts
 * const state = new ProjectState();
 * state.set({ name: 'Tag', table: 'tag', fields: { id: { kind: 'auto', primaryKey: true } } });
 * state.render('Tag').table; // 'tag'
 * ```
 */
export class ProjectState {
  readonly #models: Map<string, ModelSpec>;
  #rendered: Map<string, AnyModel> | undefined;

  /** The state of declared models (what `makemigrations` compares with the migrations). */
  static fromModels(models: readonly AnyModel[]): ProjectState {
    for (const model of models) model.check();
    return new ProjectState(models.map(modelSpecOf));
  }

  constructor(models: Iterable<ModelSpec> = []) {
    this.#models = new Map([...models].map((m) => [m.name, m]));
  }

  /** The model specs, in the order they were added. */
  get models(): ModelSpec[] {
    return [...this.#models.values()];
  }

  /** The spec of a model, or undefined. */
  get(name: string): ModelSpec | undefined {
    return this.#models.get(name);
  }

  /** Whether the state has a model of this name. */
  has(name: string): boolean {
    return this.#models.has(name);
  }

  /** Adds or replaces a model (keeping its place when it exists). */
  set(spec: ModelSpec): void {
    this.#models.set(spec.name, spec);
    this.#rendered = undefined;
  }

  /** Removes a model. */
  remove(name: string): void {
    this.#models.delete(name);
    this.#rendered = undefined;
  }

  /** Replaces every model by `fn(model)` (to follow a rename through relations). */
  mapModels(fn: (spec: ModelSpec) => ModelSpec): void {
    for (const [name, spec] of this.#models) this.#models.set(name, fn(spec));
    this.#rendered = undefined;
  }

  /** A copy that changes independently. */
  clone(): ProjectState {
    return new ProjectState(this.models);
  }

  /** The working model of a spec in this state (rendered once per state version). */
  render(name: string): AnyModel {
    this.#rendered ??= new Map();
    let model = this.#rendered.get(name);
    if (model) return model;
    const spec = this.#models.get(name);
    if (!spec) {
      throw new Error(
        `the model ${name} does not exist in the state the earlier migrations produce (models: ${
          this.models.map((m) => m.name).join(', ') || 'none'
        }).`,
      );
    }
    const rendered = this.#rendered;
    model = renderModel(spec, (other) =>
      other === name ? (model as AnyModel) : this.render(other),
    );
    rendered.set(name, model);
    return model;
  }

  /** Every model rendered, by name (what a data migration receives). */
  renderAll(): Record<string, AnyModel> {
    return Object.fromEntries(this.models.map((m) => [m.name, this.render(m.name)]));
  }

  /** True when both states hold the same models (order of models ignored). */
  equals(other: ProjectState): boolean {
    if (this.#models.size !== other.#models.size) return false;
    for (const [name, spec] of this.#models) {
      const theirs = other.#models.get(name);
      if (!theirs || canonical(theirs) !== canonical(spec)) return false;
    }
    return true;
  }
}
