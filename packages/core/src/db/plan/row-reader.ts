/**
 * Readers of a query's rows, from the driver's flat rows to records. With related rows
 * (`selectRelated`): one straight-line function per query shape that builds each record as an
 * object literal, its related rows nested (`profile.user`), so every record of a query has one
 * shape. Without: the driver's row is the record, its values read in place.
 * @module
 */
import type { ValueReader } from '../dialect/dialect-adapter.ts';

/** A column of the flat row: its key there, its name in the record, how its value is read. */
export type ColumnRead = readonly [key: string, attname: string, reader: ValueReader | null];

/** A related row: its name in its parent record, its key column, its columns, its own relations. */
export interface RelatedRead {
  readonly name: string;
  /** The key of its primary key in the flat row: null there means no related row. */
  readonly pk: string;
  readonly columns: readonly ColumnRead[];
  readonly children: readonly RelatedRead[];
}

/** A flat row of the driver in, the record out. */
export type RowReader = (raw: Record<string, unknown>) => Record<string, unknown>;

/**
 * Compiles the reader of rows holding `columns` of the model and the columns of `related`
 * rows (keyed `user__email`).
 *
 * Keys and names enter the generated code only as JSON string literals, and readers only by
 * index, so no declaration can inject code. Building a new object (rather than deleting the
 * related keys from the driver's row, as before) keeps records out of V8's slow dictionary
 * mode: deleting was a tenth of a page of profiles with their users.
 *
 * @example
 * ```ts
 * const read = compileRowReader(
 *   [['id', 'id', null], ['biography', 'biography', null]],
 *   [{ name: 'user', pk: 'user__id', columns: [['user__id', 'id', null]], children: [] }],
 * );
 * read({ id: 1, biography: 'b', user__id: 7 }); // { id: 1, biography: 'b', user: { id: 7 } }
 * ```
 */
export function compileRowReader(
  columns: readonly ColumnRead[],
  related: readonly RelatedRead[],
): RowReader {
  const readers: ValueReader[] = [];
  const value = ([key, , reader]: ColumnRead): string => {
    const read = `r[${JSON.stringify(key)}]`;
    if (!reader) return read;
    return `rd[${readers.push(reader) - 1}](${read})`;
  };
  const objectCode = (list: readonly ColumnRead[], nested: readonly RelatedRead[]): string => {
    const entries = list.map((column) => `${JSON.stringify(column[1])}: ${value(column)}`);
    for (const relation of nested) {
      const inner = objectCode(relation.columns, relation.children);
      entries.push(
        `${JSON.stringify(relation.name)}: r[${JSON.stringify(relation.pk)}] == null ? null : ${inner}`,
      );
    }
    return `{ ${entries.join(', ')} }`;
  };
  const body = objectCode(columns, related);
  const factory = new Function(
    'rd',
    `"use strict"; return function readRow(r) { return ${body}; };`,
  ) as (readers: readonly ValueReader[]) => RowReader;
  return factory(readers);
}

/**
 * The reader of rows of the model's own columns only: the driver's row is the record, its
 * values read in place (no object is made per row). Columns without a reader are left as
 * the driver gave them.
 *
 * @example
 * ```ts
 * const read = inPlaceRowReader([['price', 'price', (v) => String(v)]]);
 * read({ id: 1, price: 9.5 }); // the same object, { id: 1, price: '9.5' }
 * ```
 */
export function inPlaceRowReader(columns: readonly ColumnRead[]): RowReader {
  const read = columns.filter(
    (column): column is readonly [string, string, ValueReader] => column[2] !== null,
  );
  return (raw) => {
    for (let i = 0; i < read.length; i++) {
      const [key, , reader] = read[i] as readonly [string, string, ValueReader];
      raw[key] = reader(raw[key]);
    }
    return raw;
  };
}

/** The driver's rows as records, each read by `read`. */
export function readRows(read: RowReader, raw: readonly unknown[]): Record<string, unknown>[] {
  const rows = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) rows[i] = read(raw[i] as Record<string, unknown>);
  return rows;
}
