/**
 * The rows a relation field can point at, as the choices of an HTML form's `<select>`: DRF's
 * `RelatedField.get_choices`, bounded as DRF's `html_cutoff`.
 * @module
 */
import type { QuerySet } from '../db/query-set.ts';
import type { RunContext } from './field.ts';

/** One row a relation field can point at: the value a client sends for it, and its text. */
export interface RelatedChoice {
  /** The row as the field represents it (its key, slug or link): what a form sends. */
  readonly value: unknown;
  /** The row's string form (the model's `str`, Django's `__str__`). */
  readonly display: string;
}

/**
 * The most rows a relation's `<select>` lists (DRF's `html_cutoff`): past it, the form says
 * "More than 1000 items..." and the raw data form takes any key.
 */
export const HTML_CUTOFF = 1000;

/** A relation field that can list the rows it accepts (see {@link relatedChoices}). */
export interface HasRelatedChoices {
  /** The rows it accepts (at most `cutoff`), each as the field renders it, with its text. */
  getChoices(cutoff?: number, ctx?: RunContext): Promise<RelatedChoice[]>;
}

/**
 * True for a field that lists the rows it accepts (`PrimaryKeyRelatedField`,
 * `SlugRelatedField`, `HyperlinkedRelatedField`, and their `many()`).
 *
 * @example
 * ```ts
 * hasRelatedChoices(PrimaryKeyRelatedField.many({ queryset: Author.objects.all() })); // true
 * ```
 */
export function hasRelatedChoices(field: unknown): field is HasRelatedChoices {
  return (
    typeof field === 'object' &&
    field !== null &&
    typeof (field as Partial<HasRelatedChoices>).getChoices === 'function'
  );
}

/**
 * The rows of `queryset` (at most `cutoff`, in a stable order: the queryset's, then the key)
 * as choices, each `represent`ed as the field renders it and named by its model's `str`. No
 * queryset (a read-only relation) lists nothing.
 *
 * @example
 * ```ts
 * await relatedChoices(Author.objects.all(), (row) => row.id, 2);
 * // [{ value: 1, display: 'Ursula K. Le Guin' }, { value: 2, display: 'Frank Herbert' }]
 * ```
 */
export async function relatedChoices(
  queryset: QuerySet<any> | undefined,
  represent: (row: Record<string, unknown>) => unknown,
  cutoff?: number,
): Promise<RelatedChoice[]> {
  if (queryset === undefined) return [];
  let rows = queryset.withStableOrdering();
  if (cutoff !== undefined) rows = rows.slice(0, cutoff);
  const model = queryset.model;
  return ((await rows.execute()) as Record<string, unknown>[]).map((row) => ({
    value: represent(row),
    display: model.str(row),
  }));
}
