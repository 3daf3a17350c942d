/**
 * Types inferred from serializer declarations: what a serializer renders and what it accepts.
 *
 * @example
 * ```ts
 * class CommentSerializer extends Serializer.with({
 *   fields: { email: new EmailField(), content: new CharField({ maxLength: 200 }), created: new DateTimeField({ readOnly: true }) },
 * }) {}
 * type Comment = Representation<CommentSerializer>; // { email: string; content: string; created: string }
 * type CommentInput = Input<CommentSerializer>;     // { email?: string; content?: string }
 * ```
 * @module
 */
import type { AnyModel, Row } from '../models/model.ts';

/** Anything with the phantom types of a field. */
interface Typed {
  readonly valueType: unknown;
  readonly representationType: unknown;
  readonly options: unknown;
}

type IsAny<T> = 0 extends 1 & T ? true : false;

/**
 * The declared options of a field. A field built without options inside a declaration
 * (`new CharField()` in `Serializer.with({ fields })`) infers its options as `any` from the
 * declaration's `Field<any, any, any>`; that means no options, not every option at once.
 */
type OptionsOf<F> = F extends { readonly options: infer O } ? (IsAny<O> extends true ? {} : O) : {};

type NullIf<O, T> = O extends { readonly allowNull: true } ? T | null : T;

/** What a field renders (with `null` when it allows null). */
export type FieldRepresentation<F> = F extends Typed
  ? NullIf<OptionsOf<F>, F['representationType']>
  : unknown;

/** What a field accepts once validated (with `null` when it allows null). */
export type FieldInput<F> = F extends Typed ? NullIf<OptionsOf<F>, F['valueType']> : unknown;

type IsWriteOnly<F> = OptionsOf<F> extends { readonly writeOnly: true } ? true : false;
type IsReadOnly<F> = OptionsOf<F> extends { readonly readOnly: true } ? true : false;

// `-readonly`: the declaration's keys are readonly (it is a const type parameter), the data
// built from it is not.

/** The rendered object of declared fields (write-only fields left out). */
export type DeclaredRepresentation<D> = {
  -readonly [K in keyof D as IsWriteOnly<D[K]> extends true ? never : K]: FieldRepresentation<D[K]>;
};

/** The accepted object of declared fields (read-only fields left out; every key optional). */
export type DeclaredInput<D> = {
  -readonly [K in keyof D as IsReadOnly<D[K]> extends true ? never : K]?: FieldInput<D[K]>;
};

/** The value type of a model field or computed property called `K`. */
type ModelValue<M extends AnyModel, K> = K extends keyof Row<M>
  ? Row<M>[K]
  : K extends keyof M['properties']
    ? M['properties'][K] extends { get(row: any): infer T }
      ? T
      : unknown
    : K extends 'url'
      ? string
      : unknown;

type NamesOf<M extends AnyModel, F> = F extends readonly (infer N extends string)[]
  ? N
  : Extract<keyof Row<M>, string>;

/** The rendered object of a model serializer declaration. */
export type ModelRepresentation<M extends AnyModel, F, D> = {
  [K in NamesOf<M, F> as K extends keyof D
    ? IsWriteOnly<D[K]> extends true
      ? never
      : K
    : K]: K extends keyof D ? FieldRepresentation<D[K]> : ModelValue<M, K>;
};

/** The accepted object of a model serializer declaration (read-only and `id`/`url` left out). */
export type ModelInput<M extends AnyModel, F, D> = {
  [K in NamesOf<M, F> as K extends keyof D
    ? IsReadOnly<D[K]> extends true
      ? never
      : K
    : K extends 'id' | 'url'
      ? never
      : K]?: K extends keyof D ? FieldInput<D[K]> : ModelValue<M, K>;
};

/** What a serializer (instance type) renders. */
export type Representation<S> = S extends { readonly representationType: infer R } ? R : never;

/** What a serializer (instance type) accepts. */
export type Input<S> = S extends { readonly valueType: infer V } ? V : never;

/** Every key optional, at every depth: the body of a PATCH. */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;
