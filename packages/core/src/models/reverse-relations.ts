/**
 * The relations that point at a model from other models (Django's reverse accessors): a
 * foreign key's `relatedName` (`Author` → `books`), a one-to-one's (`User` → `profile`) and a
 * many-to-many's (`Tag` → `articles`). A model keeps them by name; the relation registers itself
 * on its target once the target is known.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { snakeCase } from '../utils/text.ts';
import type { AnyManyToManyField } from './many-to-many-field.ts';
import type { AnyModel } from './model.ts';
import type { AnyModelField } from './model-field.ts';

/** A relation seen from its target. */
export interface ReverseRelation {
  /** The name on the target: the `relatedName`, else `<model>_set` (`<model>` for a one-to-one). */
  readonly name: string;
  /** The kind of the forward relation. */
  readonly kind: 'foreign_key' | 'one_to_one' | 'many_to_many';
  /** The model that declares the relation. */
  readonly model: AnyModel;
  /** The forward relation. */
  readonly field: AnyModelField | AnyManyToManyField;
}

/** The reverse name of a relation: its `relatedName`, or Django's default; undefined for `'+'`. */
export function reverseName(field: AnyModelField | AnyManyToManyField): string | undefined {
  const given =
    field.kind === 'many_to_many'
      ? (field as AnyManyToManyField).options.relatedName
      : (field as AnyModelField).extra.relatedName;
  if (given === '+') return undefined;
  if (given !== undefined) return given;
  const base = snakeCase(field.model.name);
  return field.kind === 'one_to_one' ? base : `${base}_set`;
}

/**
 * The reverse relations of one model. A `relatedName` given twice, or taken by a field of the
 * target, fails with `REST_ERR_MODEL_RELATED_NAME`; a default name two relations would share is
 * kept by neither (asking for it says to give `relatedName`).
 *
 * @example
 * ```ts-fragment
 * Author.check(); // relations declared with a function as target register here
 * Author.reverseRelations.get('books'); // { name: 'books', kind: 'foreign_key', model: Book, field: Book.fields.author }
 * Author.reverseRelations.list().map((r) => r.name); // ['books']
 * ```
 */
export class ReverseRelations {
  readonly #target: AnyModel;
  readonly #byName = new Map<string, ReverseRelation>();
  readonly #ambiguous = new Map<string, string[]>();
  readonly #registered = new Set<AnyModelField | AnyManyToManyField>();

  constructor(target: AnyModel) {
    this.#target = target;
  }

  /** Registers `field` (a relation whose target is this model); once per field. */
  add(field: AnyModelField | AnyManyToManyField): void {
    if (this.#registered.has(field)) return;
    this.#registered.add(field);
    const name = reverseName(field);
    if (name === undefined) return;
    // A symmetrical relation is its own reverse (friends): no second name.
    if (field.kind === 'many_to_many' && (field as AnyManyToManyField).symmetrical) return;
    const explicit =
      field.kind === 'many_to_many'
        ? (field as AnyManyToManyField).options.relatedName !== undefined
        : (field as AnyModelField).extra.relatedName !== undefined;
    const where = `${field.model.name}.${field.name}`;
    const target = this.#target;
    const taken = target.has(name) || Object.hasOwn(target.manyToMany, name);
    const other = this.#byName.get(name);
    if (explicit && taken) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_RELATED_NAME',
        `${where}: relatedName "${name}" is already a field of ${target.name}. Give ${where} another relatedName.`,
      );
    }
    if (explicit && other) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_RELATED_NAME',
        `${where}: relatedName "${name}" on ${target.name} is also the reverse name of ${other.model.name}.${other.field.name}. Give one of them another relatedName.`,
      );
    }
    if (taken || this.#ambiguous.has(name)) return;
    if (other) {
      // Two default names alike (two keys from one model): neither keeps it.
      this.#byName.delete(name);
      this.#ambiguous.set(name, [`${other.model.name}.${other.field.name}`, where]);
      return;
    }
    const kind = field.kind as ReverseRelation['kind'];
    this.#byName.set(name, Object.freeze({ name, kind, model: field.model, field }));
  }

  /** The reverse relation called `name`, or a start-up style error naming the known ones. */
  get(name: string): ReverseRelation {
    const found = this.#byName.get(name);
    if (found) return found;
    const ambiguous = this.#ambiguous.get(name);
    if (ambiguous) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_RELATED_NAME',
        `${this.#target.name}.${name} is the default reverse name of both ${ambiguous.join(' and ')}. Give them a relatedName each.`,
      );
    }
    throw new ImproperlyConfigured(
      'REST_ERR_MODEL_RELATION',
      `${this.#target.name} has no relation "${name}". Its relations: ${
        [...Object.keys(this.#target.manyToMany), ...this.#byName.keys()].join(', ') || 'none'
      }. (A relation declared with a function as its target is known once its model was checked: migrate, or Model.check().)`,
    );
  }

  /** The reverse relation called `name`, or undefined. */
  find(name: string): ReverseRelation | undefined {
    return this.#byName.get(name);
  }

  /** Every reverse relation, in the order they were registered. */
  list(): readonly ReverseRelation[] {
    return [...this.#byName.values()];
  }
}
