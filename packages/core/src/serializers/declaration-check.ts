/**
 * Compile-time checks of serializer declarations: every name a declaration gives (`fields`,
 * `exclude`, `readOnlyFields`, `extraKwargs` keys, `declaredFields` keys) must exist, and every
 * option must be one the serializer class knows. `.with()` intersects its argument with
 * {@link DeclarationCheck}, so a typo is a type error at the word that is wrong; the same
 * mistakes fail at start-up too (`REST_ERR_SERIALIZER_OPTION`, `REST_ERR_SERIALIZER_FIELD`).
 *
 * Add-ons add options by declaration merging, on {@link ModelSerializerOptions}
 * (tricks adds `nestedProxyField`).
 *
 * @example
 * ```ts-fragment
 * ModelSerializer.with({ model: Book, fields: ['id', 'titel'] });
 * //                                                ~~~~~~~ '"titel"' is not assignable to '"id" | "title" | ...'
 * ModelSerializer.with({ model: Book, fields: ['id'], readOnlyField: ['id'] });
 * //                                                  ~~~~~~~~~~~~~ not assignable to 'never'
 * ```
 * @module
 */
import type { AnyModel } from '../models/model.ts';
import type { ModelSerializerDeclaration } from './model-serializer.ts';
import type {
  AllNames,
  AvailableNames,
  DeclaredOf,
  ModelSerializerTraits,
  TraitsOf,
} from './serializer-types.ts';

/** Every key of `D` that is not in `Known` typed `never`: the compiler names the stranger. */
type NoOthers<D, Known> = { readonly [K in Exclude<keyof D, Known>]: never };

/** The names listed in `fields` (every name `'__all__'` stands for, with `'__all__'`). */
type Listed<M, D, T extends ModelSerializerTraits> = D extends {
  readonly fields: readonly (infer N extends string)[];
}
  ? N
  : AllNames<M, T, DeclaredOf<D>>;

type ExtraKwargsOf<D> = D extends { readonly extraKwargs: infer X } ? X : {};

/**
 * Names `readOnlyFields` or `extraKwargs` also give: `fields` may list them even when the
 * model's type does not know them, for a reverse relation (`articles` of a `Tag`, named by
 * `Article`'s relation) is no name of the model's own type. The start-up check asks the same.
 */
export type ListedElsewhere<D> =
  | (D extends { readonly readOnlyFields: readonly (infer R extends string)[] } ? R : never)
  | (keyof ExtraKwargsOf<D> & string);

type ModelDeclarationCheck<M, D, T extends ModelSerializerTraits> = NoOthers<
  D,
  keyof ModelSerializerDeclaration
> & {
  readonly fields:
    | readonly (
        | AvailableNames<
            M,
            T,
            DeclaredOf<D>,
            D extends { readonly nestedProxyField: true } ? true : false
          >
        | ListedElsewhere<D>
      )[]
    | '__all__';
  readonly exclude?: readonly Listed<M, D, T>[];
  readonly readOnlyFields?: readonly Listed<M, D, T>[];
  readonly extraKwargs?: NoOthers<ExtraKwargsOf<D>, Listed<M, D, T>>;
  readonly declaredFields?: NoOthers<DeclaredOf<D>, Listed<M, D, T>>;
};

/** What a declaration given to `.with()` of serializer class `C` must also satisfy. */
export type DeclarationCheck<C, D> = D extends { readonly model: infer M extends AnyModel }
  ? ModelDeclarationCheck<M, D, TraitsOf<C>>
  : NoOthers<D, 'fields'>;
