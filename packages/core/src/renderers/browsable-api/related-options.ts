/**
 * The rows a form's many relations offer, loaded before the form is rendered (rendering does
 * not wait): for each writable `ManyRelatedField` of a form, at any depth of nested
 * serializers, its child's choices up to DRF's `html_cutoff` (1000) and whether there are more.
 * @module
 */
import type { AnyField, RunContext } from '../../fields/field.ts';
import { isHiddenField } from '../../fields/hidden-field.ts';
import { ManyRelatedField } from '../../fields/many-related-field.ts';
import {
  HTML_CUTOFF,
  hasRelatedChoices,
  type RelatedChoice,
} from '../../fields/related-choices.ts';
import { ListSerializer, Serializer } from '../../serializers/serializer.ts';

/** The options of one relation's `<select multiple>`. */
export interface RelatedOptions {
  /** At most `HTML_CUTOFF` rows, in the queryset's order. */
  readonly choices: readonly RelatedChoice[];
  /** The queryset has more rows than the select lists ("More than 1000 items..."). */
  readonly more: boolean;
}

/** The options of each many relation of a form, by its field. */
export type RelatedOptionsMap = ReadonlyMap<AnyField, RelatedOptions>;

/**
 * The options of the writable many relations among `fields` (and in their nested
 * serializers), one query each, read as the fields render (`ctx`: the serializer's context,
 * whose request builds links).
 *
 * @example
 * ```ts
 * declare const serializer: Serializer<any, any>;
 * const options = await relatedOptions(serializer.prepared.fields, {
 *   partial: false,
 *   context: serializer.context,
 *   instance: undefined,
 * });
 * ```
 */
export async function relatedOptions(
  fields: readonly AnyField[],
  ctx: RunContext,
  cutoff: number = HTML_CUTOFF,
): Promise<RelatedOptionsMap> {
  const found = new Map<AnyField, RelatedOptions>();
  await collect(fields, ctx, cutoff, found);
  return found;
}

async function collect(
  fields: readonly AnyField[],
  ctx: RunContext,
  cutoff: number,
  found: Map<AnyField, RelatedOptions>,
): Promise<void> {
  for (const field of fields) {
    if (field.readOnly || isHiddenField(field)) continue;
    if (field instanceof Serializer && !(field instanceof ListSerializer)) {
      await collect(field.prepared.fields, ctx, cutoff, found);
    } else if (field instanceof ManyRelatedField && hasRelatedChoices(field.child)) {
      // One more than shown tells whether there are more.
      const rows = await field.getChoices(cutoff + 1, ctx);
      found.set(field, { choices: rows.slice(0, cutoff), more: rows.length > cutoff });
    }
  }
}
