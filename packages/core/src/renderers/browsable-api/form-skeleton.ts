/**
 * What the forms of a serializer class have in common on every page, prepared once per class:
 * whether a form needs multipart (a file field at any depth), the declared defaults an empty
 * create form starts with, and the raw-data form's starting body for a create.
 * @module
 */

import type { AnyField } from '../../fields/field.ts';
import { FileField } from '../../fields/file-field.ts';
import { isHiddenField } from '../../fields/hidden-field.ts';
import { ManyRelatedField } from '../../fields/many-related-field.ts';
import { MultipleChoiceField } from '../../fields/multiple-choice-field.ts';
import type { PreparedSerializer } from '../../serializers/serializer.ts';
import { ListSerializer, Serializer } from '../../serializers/serializer.ts';
import { ownPlan } from '../../utils/bounded-cache.ts';

/** The parts of a serializer's forms that do not depend on the request. */
export interface FormSkeleton {
  /** A field at any depth takes a file: the HTML form must be multipart. */
  readonly hasFile: boolean;
  /** The declared defaults (values, not functions), nested like the data. */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** The raw form's create body, as the page shows it (indented JSON). */
  readonly createBody: string;
}

/**
 * One skeleton per prepared serializer class, kept on its plan (with `ownPlan`): a prepared
 * class is fixed and shared by every instance, so the entry is never stale, and it goes with
 * its class.
 */
const SKELETON = Symbol('form skeleton');

/**
 * The skeleton of a serializer class's forms.
 *
 * @example
 * ```ts
 * formSkeleton(new BookSerializer().prepared).createBody; // '{\n  "title": "",\n ...}'
 * ```
 */
export function formSkeleton(prepared: PreparedSerializer): FormSkeleton {
  return ownPlan(prepared, SKELETON, () =>
    Object.freeze({
      hasFile: hasFileField(prepared.fields),
      defaults: defaultsOf(prepared.fields),
      createBody: JSON.stringify(rawTemplate(prepared.fields), null, 2),
    }),
  );
}

/** The declared defaults (values, not functions), nested like the data. */
function defaultsOf(fields: readonly AnyField[]): Readonly<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field instanceof Serializer && !(field instanceof ListSerializer)) {
      out[field.fieldName] = defaultsOf(field.prepared.fields);
      continue;
    }
    const value = field.options.default;
    if (value !== undefined && typeof value !== 'function') out[field.fieldName] = value;
  }
  // Shared by every page (the values are the declared ones, left as they are).
  return Object.freeze(out);
}

/**
 * The raw form's starting body for a create: every writable field except files, strings
 * empty, choices their first value, declared defaults; optional numbers and the like without a
 * default are left out, so an untouched template fails only where something is required.
 */
function rawTemplate(fields: readonly AnyField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.readOnly || field instanceof FileField || isHiddenField(field)) continue;
    // A list starts empty (a multiple choice field's first choice would be one value, not a list).
    if (
      field instanceof ListSerializer ||
      field instanceof ManyRelatedField ||
      field instanceof MultipleChoiceField
    ) {
      out[field.fieldName] = [];
      continue;
    }
    if (field instanceof Serializer) {
      out[field.fieldName] = rawTemplate(field.prepared.fields);
      continue;
    }
    const declared = field.options.default;
    if (declared !== undefined && typeof declared !== 'function') {
      out[field.fieldName] = declared;
      continue;
    }
    const description = field.describe();
    const choices = description.choices as { value: unknown }[] | undefined;
    if (choices?.length) out[field.fieldName] = choices[0]?.value;
    else if (
      ['string', 'email', 'url', 'date', 'datetime', 'decimal', 'time'].includes(description.type)
    )
      out[field.fieldName] = '';
    else if (description.type === 'boolean') out[field.fieldName] = false;
    else if (field.required) out[field.fieldName] = null;
  }
  return out;
}

/** True when a field or a nested one takes a file (the form then needs multipart). */
export function hasFileField(fields: readonly AnyField[]): boolean {
  return fields.some(
    (field) =>
      !field.readOnly &&
      (field instanceof FileField ||
        (field instanceof Serializer &&
          !(field instanceof ListSerializer) &&
          hasFileField(field.prepared.fields))),
  );
}
