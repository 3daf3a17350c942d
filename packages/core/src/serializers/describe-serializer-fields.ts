/**
 * The `actions` of OPTIONS for one serializer class: its fields' descriptions, built once.
 * @module
 */
import type { FieldDescription } from '../fields/field.ts';
import { isHiddenField } from '../fields/hidden-field.ts';
import { ownPlan } from '../utils/bounded-cache.ts';
import { deepFreeze } from '../utils/immutable.ts';
import type { PreparedSerializer } from './prepare-serializer.ts';

/**
 * Per prepared plan (so per serializer class), its fields' descriptions, frozen. Keyed by the
 * plan, not by the class of the serializer asking: a list serializer describes its child's
 * fields, and keyed by `ListSerializer` the first child described answered for every other
 * one. Kept on the plan (with `ownPlan`); never invalidated, because a plan's fields are
 * bound once and never change (a subclass has its own plan).
 */
const DESCRIPTIONS = Symbol('field descriptions');

/**
 * Every field's description by name, for the serializer whose plan is `plan`: built on first
 * use, then the same frozen object.
 *
 * @example
 * ```ts-fragment
 * describeSerializerFields(BookSerializer.prepare()).title;
 * // { type: 'string', required: true, read_only: false, label: 'Title', max_length: 200 }
 * ```
 */
export function describeSerializerFields(
  plan: PreparedSerializer,
): Readonly<Record<string, FieldDescription>> {
  return ownPlan(plan, DESCRIPTIONS, () => {
    const built: Record<string, FieldDescription> = {};
    // As DRF's metadata: a hidden field is nothing a client sends or sees.
    for (const field of plan.fields)
      if (!isHiddenField(field)) built[field.fieldName] = field.describe();
    return deepFreeze(built);
  });
}
