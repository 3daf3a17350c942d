/**
 * The values `create`, `bulkCreate`, `getOrCreate`'s defaults, `update` and `updateRow` take,
 * checked at compile time: each key is a column of the model (`title`, `author_id`) or a
 * foreign key by name (`author`, given the related row or its key), with the column's type. A
 * key that names no column (`nope: 1`) or a value of another type (`pages: 'many'`) is a type
 * error; the same mistakes made at run time (keys computed from input) throw
 * `ImproperlyConfigured` naming the field.
 *
 * @example
 * ```ts-fragment
 * await Book.objects.create({ title: 'Dune', author: ann, pages: 412 });
 * // @ts-expect-error: Book has no field nope
 * await Book.objects.create({ title: 'Dune', nope: 1 });
 * ```
 * @module
 */
import type { FieldsOf, Row } from '../models/model.ts';
import type { QueryExpression } from './expressions/query-expression.ts';
import type { ForwardName } from './typed-filter.ts';

type IsAny<T> = 0 extends 1 & T ? true : false;

/** A foreign key given by name: the related row (its key is read) or the key itself. */
type RelatedValue<M, K extends string> =
  | Row<M>[`${K}_id` & keyof Row<M>]
  | Readonly<Record<string, unknown>>;

/** What `create` and `bulkCreate` take for one row of `M` (missing fields take their defaults). */
export type CreateValues<M> =
  IsAny<FieldsOf<M>> extends true
    ? Readonly<Record<string, unknown>>
    : { [K in keyof Row<M>]?: Row<M>[K] } & { [K in ForwardName<M>]?: RelatedValue<M, K> };

/** What `update` takes: {@link CreateValues}, or an expression of the stored row (`F('views').add(1)`). */
export type UpdateValues<M> =
  IsAny<FieldsOf<M>> extends true
    ? Readonly<Record<string, unknown>>
    : { [K in keyof Row<M>]?: Row<M>[K] | QueryExpression<any> } & {
        [K in ForwardName<M>]?: RelatedValue<M, K> | QueryExpression<any>;
      };
