/**
 * How a model field becomes a serializer field (DRF's `serializer_field_mapping` and
 * `get_field_kwargs`): one table entry per kind, plus the options every kind derives from the
 * model (label, help text, required, null, blank, uniqueness).
 * @module
 */
import { BooleanField } from '../fields/boolean-field.ts';
import { CharField } from '../fields/char-field.ts';
import { ChoiceField } from '../fields/choice-field.ts';
import { DateField } from '../fields/date-field.ts';
import { DateTimeField } from '../fields/date-time-field.ts';
import { DecimalField } from '../fields/decimal-field.ts';
import { DurationField } from '../fields/duration-field.ts';
import { EmailField } from '../fields/email-field.ts';
import type { AnyField, FieldOptions, Validator } from '../fields/field.ts';
import { FileField } from '../fields/file-field.ts';
import { FloatField } from '../fields/float-field.ts';
import { IntegerField } from '../fields/integer-field.ts';
import { JSONField } from '../fields/json-field.ts';
import { PrimaryKeyRelatedField } from '../fields/primary-key-related-field.ts';
import { SlugField } from '../fields/slug-field.ts';
import { TimeField } from '../fields/time-field.ts';
import { uniqueValidator } from '../fields/unique-validator.ts';
import { URLField } from '../fields/url-field.ts';
import { UUIDField } from '../fields/uuid-field.ts';
import type { AnyModelField, ModelFieldKind } from '../models/model-field.ts';

/** Integer ranges of the column types (32-bit `integer`, and exact JavaScript numbers for `bigint`). */
export const INTEGER_RANGES = {
  integer: { minValue: -2147483648, maxValue: 2147483647 },
  positive_integer: { minValue: 0, maxValue: 2147483647 },
  big_integer: { minValue: Number.MIN_SAFE_INTEGER, maxValue: Number.MAX_SAFE_INTEGER },
  small_integer: { minValue: -32768, maxValue: 32767 },
  positive_small_integer: { minValue: 0, maxValue: 32767 },
  auto: { minValue: 1, maxValue: 2147483647 },
} as const;

/** Builds the serializer field of one model field kind from the derived options. */
export type FieldBuilder = (
  modelField: AnyModelField,
  options: Record<string, unknown>,
) => AnyField;

/** The field class used for each kind of model field. */
export const MODEL_FIELD_MAPPING: Readonly<Record<ModelFieldKind, FieldBuilder>> = {
  auto: (_f, o) => new IntegerField(o),
  char: (f, o) => new CharField({ ...o, maxLength: f.extra.maxLength as number }),
  // DRF's mapping: long text gets a textarea in HTML forms.
  text: (_f, o) => new CharField({ style: { baseTemplate: 'textarea' }, ...o }),
  email: (f, o) => new EmailField({ ...o, maxLength: f.extra.maxLength as number }),
  url: (f, o) => new URLField({ ...o, maxLength: f.extra.maxLength as number }),
  integer: (_f, o) => new IntegerField({ ...INTEGER_RANGES.integer, ...o }),
  positive_integer: (_f, o) => new IntegerField({ ...INTEGER_RANGES.positive_integer, ...o }),
  big_integer: (_f, o) => new IntegerField({ ...INTEGER_RANGES.big_integer, ...o }),
  small_integer: (_f, o) => new IntegerField({ ...INTEGER_RANGES.small_integer, ...o }),
  positive_small_integer: (_f, o) =>
    new IntegerField({ ...INTEGER_RANGES.positive_small_integer, ...o }),
  float: (_f, o) => new FloatField(o),
  decimal: (f, o) =>
    new DecimalField({ ...o, maxDigits: f.extra.maxDigits, decimalPlaces: f.extra.decimalPlaces }),
  boolean: (_f, o) => new BooleanField(o),
  date: (_f, o) => new DateField(o),
  datetime: (_f, o) => new DateTimeField(o),
  time: (_f, o) => new TimeField(o),
  duration: (_f, o) => new DurationField(o),
  slug: (f, o) => new SlugField({ ...o, maxLength: f.extra.maxLength as number }),
  uuid: (_f, o) => new UUIDField(o),
  json: (_f, o) => new JSONField(o),
  file: (f, o) => new FileField({ ...o, maxLength: f.extra.maxLength as number }),
  foreign_key: (f, o) => new PrimaryKeyRelatedField({ ...o, queryset: f.relatedModel.objects }),
  one_to_one: (f, o) => new PrimaryKeyRelatedField({ ...o, queryset: f.relatedModel.objects }),
};

/** "book with this isbn already exists." — Django's message, from the verbose names. */
export function uniqueMessage(modelField: AnyModelField): string {
  return `${modelField.model.verboseName} with this ${modelField.verboseName} already exists.`;
}

/** The options a serializer field gets from its model field (DRF's `get_field_kwargs`). */
export function modelFieldOptions(modelField: AnyModelField): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const o = modelField.options;
  if (o.verboseName) options.label = o.verboseName.charAt(0).toUpperCase() + o.verboseName.slice(1);
  if (o.helpText) options.helpText = o.helpText;
  const autoTime =
    modelField.kind === 'datetime' && (modelField.extra.autoNow || modelField.extra.autoNowAdd);
  if (modelField.kind === 'auto' || o.editable === false || autoTime) {
    options.readOnly = true;
    return options;
  }
  if (modelField.hasDefault || o.blank || o.null) options.required = false;
  if (o.null) options.allowNull = true;
  if (o.blank && modelField.isText) options.allowBlank = true;
  if (o.choices) options.choices = o.choices;
  const validators: Validator<any>[] = [];
  if (modelField.unique)
    validators.push(
      uniqueValidator(modelField.model.objects, modelField.name, uniqueMessage(modelField)),
    );
  if (validators.length) options.validators = validators;
  return options;
}

/** The serializer field for a model field: the mapping's class, or a choice field for choices. */
export function buildModelField(
  modelField: AnyModelField,
  mapping: Readonly<Record<ModelFieldKind, FieldBuilder>>,
  extra: FieldOptions<any> & Record<string, unknown> = {},
): AnyField {
  const options = { ...modelFieldOptions(modelField), ...extra };
  if (options.readOnly) {
    delete options.required;
    delete options.validators;
  }
  if (options.choices) {
    const { allowBlank, allowNull, ...rest } = options as Record<string, unknown>;
    return new ChoiceField({
      ...(rest as FieldOptions<any>),
      choices: options.choices as never,
      ...(allowBlank ? { allowBlank: true } : {}),
      ...(allowNull ? { allowNull: true } : {}),
    });
  }
  return mapping[modelField.kind](modelField, options);
}
