/**
 * The models a project registers for typing, so that the reverse side of its relations is
 * known at compile time. TypeScript cannot add `articles` to the type of `User` when `Article`
 * is declared later with `ForeignKey(User, { relatedName: 'articles' })`; a project lists its
 * models once in {@link ModelRegistry} (declaration merging) and every model's type then reads
 * the relations pointing at it from there: filter keys (`articles__title__icontains`),
 * `Model.related(row, 'articles')`.
 *
 * @example
 * ```ts-fragment
 * declare module '@restframework/core' {
 *   interface ModelRegistry {
 *     Article: typeof Article; // the key is the model's name: `article_set` is its default reverse name
 *   }
 * }
 * const authors = User.objects.filter({ articles__title__icontains: 'fastify' }); // typed
 * ```
 * @module
 */
import type { AnyModel, FieldsOf } from './model.ts';

/**
 * The registered models, by model name. Empty here: a project adds its models by declaration
 * merging (see the module example). A model left out is still queried at run time by every
 * reverse name; only its relations' reverse names are missing from the types of their targets.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging.
export interface ModelRegistry {}

type IsAny<T> = 0 extends 1 & T ? true : false;

/** `ArticleTag` → `article_tag`, as the run-time `snakeCase` for plain model names. */
type SnakeCase<S extends string, First extends boolean = true> = S extends `${infer C}${infer R}`
  ? C extends Lowercase<C>
    ? `${C}${SnakeCase<R, false>}`
    : `${First extends true ? '' : '_'}${Lowercase<C>}${SnakeCase<R, false>}`
  : S;

/** One reverse relation: its name on the target, the model holding it, and whether it holds many rows. */
interface ReverseEntry<N extends string, S, Many extends boolean> {
  /** The reverse name on the target. */
  readonly name: N;
  /** The model holding the relation. */
  readonly model: S;
  /** Whether the name holds many rows. */
  readonly many: Many;
}

/** The reverse name of a relation: `relatedName` as declared, else Django's default; none for `'+'`. */
type NameOf<Given, Default extends string> = [Given] extends [string]
  ? string extends Given
    ? never // declared from a variable: not known at compile time
    : Given extends '+'
      ? never
      : Given
  : Default;

/** Same type both ways (a model's type compared with a relation's target). */
type Same<X, Y> = [X] extends [Y] ? ([Y] extends [X] ? true : false) : false;

/**
 * The reverse relations that the fields of registered model `S` (registered as `Key`) give to
 * model `M`. A relation whose target type is not known (`'self'`) is taken as one to `S`.
 */
type ReverseFrom<S, Key extends string, M> = {
  [K in keyof FieldsOf<S>]: FieldsOf<S>[K] extends {
    readonly __manyToMany: infer T;
    readonly __relatedName: infer Given;
  }
    ? Same<IsAny<FieldsOf<T>> extends true ? S : T, M> extends true
      ? ReverseEntry<NameOf<Given, `${SnakeCase<Key>}_set`>, S, true>
      : never
    : FieldsOf<S>[K] extends {
          readonly __relatedModel: infer T;
          readonly traits: infer O;
        }
      ? Same<IsAny<FieldsOf<T>> extends true ? S : T, M> extends true
        ? ReverseEntry<
            NameOf<
              O extends { readonly relatedName: infer Given } ? Given : undefined,
              DefaultName<Key, FieldsOf<S>[K]>
            >,
            S,
            FieldsOf<S>[K] extends { readonly __oneToOne: true } ? false : true
          >
        : never
      : never;
}[keyof FieldsOf<S>];

type DefaultName<Key extends string, Field> = Field extends { readonly __oneToOne: true }
  ? SnakeCase<Key>
  : `${SnakeCase<Key>}_set`;

/**
 * The reverse relations of model `M` from the registered models, by name: the model at the
 * other end and whether the name holds many rows (a foreign key's or a many-to-many's) or one
 * (a one-to-one's).
 *
 * @example
 * ```ts-fragment
 * type UserReverse = ReverseRelationsOf<typeof User>; // { articles: { model: typeof Article; many: true } }
 * ```
 */
export type ReverseRelationsOf<M> = {
  [E in Entries<M> as E extends ReverseEntry<infer N, unknown, boolean>
    ? N
    : never]: ReverseRelation<
    E extends ReverseEntry<string, infer S, boolean> ? S : never,
    E extends ReverseEntry<string, unknown, infer Many> ? Many : never
  >;
};

/** One entry of {@link ReverseRelationsOf}. */
export interface ReverseRelation<S, Many> {
  /** The model that declares the relation (whose rows the reverse name reaches). */
  readonly model: S;
  /** True when the name holds many rows (a foreign key's, a many-to-many's), false for one (a one-to-one's). */
  readonly many: Many;
}

type Entries<M> = {
  [Key in keyof ModelRegistry & string]: ModelRegistry[Key] extends infer S extends AnyModel
    ? ReverseFrom<S, Key, M>
    : never;
}[keyof ModelRegistry & string];
