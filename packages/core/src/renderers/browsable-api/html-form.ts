/**
 * HTML forms generated from a serializer's fields, from the same self-descriptions that
 * drive OPTIONS (`field.describe()`): one control per field, nested serializers as fieldsets
 * at any depth, inputs named with dotted keys (`stock_information.price`), validation errors
 * beside the fields they belong to. Many relations and multiple choice fields are a
 * `<select multiple>` (each chosen value sent as the same key, as DRF's forms); lists of other
 * values, dictionaries and lists of nested serializers are left to the raw data form.
 * @module
 */

import type { ErrorTree } from '../../errors/api-exception.ts';
import type { AnyField, FieldDescription } from '../../fields/field.ts';
import { FileField } from '../../fields/file-field.ts';
import { isHiddenField } from '../../fields/hidden-field.ts';
import { ManyRelatedField } from '../../fields/many-related-field.ts';
import { ListSerializer, Serializer } from '../../serializers/serializer.ts';
import { attrs, html, type SafeHtml } from '../html.ts';
import type { ValueLookup } from './form-values.ts';
import type { RelatedOptions, RelatedOptionsMap } from './related-options.ts';

/** A form to render. */
export interface HtmlFormSpec {
  /** Unique on the page; prefixes the controls' ids (`post`, `put`). */
  readonly id: string;
  readonly action: string;
  /** The methods of its submit buttons (`['POST']`, `['PUT', 'PATCH']`). */
  readonly methods: readonly string[];
  /** The root serializer's fields. */
  readonly fields: readonly AnyField[];
  readonly values: ValueLookup;
  /** The errors of the last request, when it used one of `methods`. */
  readonly errors: ErrorTree | undefined;
  /** Methods browsers cannot send from a plain form need the toolkit's script. */
  readonly needsScript: boolean;
  /** `multipart/form-data` (files, or no url-encoded parser), else url-encoded. */
  readonly multipart: boolean;
  /** Hidden inputs the view adds (`next` and the CSRF token of a login form). */
  readonly hidden?: readonly (readonly [string, string])[];
  /**
   * The rows each writable many relation offers (`relatedOptions`): a relation without an
   * entry is left to the raw data form.
   */
  readonly related?: RelatedOptionsMap;
}

/** The form: fields, an error summary, and one submit button per method. */
export function htmlForm(spec: HtmlFormSpec): SafeHtml {
  const multipart = spec.multipart;
  const errors = asObject(spec.errors);
  const names = new Set(spec.fields.map((f) => f.fieldName));
  const formErrors = [
    ...messagesOf(errors?.non_field_errors),
    ...Object.entries(errors ?? {})
      .filter(([key]) => key !== 'non_field_errors' && !names.has(key))
      .flatMap(([key, value]) =>
        messagesOf(value).map((m) => (key === 'detail' ? m : `${key}: ${m}`)),
      ),
    ...(Array.isArray(spec.errors) ? messagesOf(spec.errors) : []),
  ];
  const hasErrors = spec.errors !== undefined;
  const fieldErrors = errors ? collectErrors(spec.id, spec.fields, errors, [], []) : [];
  const buttons = spec.methods.map(
    (method, i) =>
      html`<button${attrs({
        type: 'submit',
        class: `btn ${i === 0 ? 'btn-primary' : 'btn-secondary'}${spec.needsScript ? ' needs-js' : ''}`,
        'data-method': method,
        disabled: spec.needsScript,
      })}>${method}</button>`,
  );
  return html`<form${attrs({
    class: 'api-form',
    id: `${spec.id}-form`,
    action: spec.action,
    method: 'post',
    enctype: multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
    novalidate: true,
    'data-api-form': true,
    'data-method': spec.methods[0],
  })}>
${
  hasErrors
    ? html`<div class="form-errors" role="alert" tabindex="-1">
<p><strong>The request was not valid.</strong>${
        fieldErrors.length ? ' See the messages beside the fields:' : ''
      }</p>${
        formErrors.length || fieldErrors.length
          ? html`<ul>${formErrors.map((m) => html`<li>${m}</li>`)}${fieldErrors.map(
              (e) =>
                html`<li><a href="#${e.id}">${e.labels.join(' › ')}</a>: ${e.messages.join(' ')}</li>`,
            )}</ul>`
          : ''
      }
</div>`
    : ''
}
${(spec.hidden ?? []).map(([name, value]) => html`<input${attrs({ type: 'hidden', name, value })}>`)}
${spec.fields.filter(shown).map((field) => fieldHtml(field, spec, [], errors, false))}
<div class="form-actions">${buttons}</div>
</form>`;
}

/** True for the fields a form shows: all but hidden ones (their value is their default). */
function shown(field: AnyField): boolean {
  return !isHiddenField(field);
}

function fieldHtml(
  field: AnyField,
  spec: HtmlFormSpec,
  parent: readonly string[],
  errors: Record<string, ErrorTree> | undefined,
  readOnlyGroup: boolean,
): SafeHtml {
  const path = [...parent, field.fieldName];
  const id = controlId(spec.id, path);
  const tree = errors?.[field.fieldName];
  const readOnly = readOnlyGroup || field.readOnly;
  if (field instanceof Serializer && !(field instanceof ListSerializer)) {
    const nested = asObject(tree);
    const groupMessages = [
      ...messagesOf(Array.isArray(tree) ? tree : undefined),
      ...messagesOf(nested?.non_field_errors),
    ];
    const errorId = `${id}-errors`;
    return html`<fieldset${attrs({
      class: `group${groupMessages.length ? ' has-error' : ''}`,
      id,
      'aria-describedby': groupMessages.length ? errorId : undefined,
    })}>
<legend>${field.label}${requiredMark(field, readOnly)}</legend>
${errorList(errorId, groupMessages)}
${field.prepared.fields.filter(shown).map((child) => fieldHtml(child, spec, path, nested, readOnly))}
</fieldset>`;
  }
  const description = field.describe();
  const messages = messagesOf(tree);
  const helpId = `${id}-help`;
  const errorId = `${id}-errors`;
  const kind = controlKind(field, description);
  const value = spec.values(path, kind.multiple === true);
  const help = [
    helpText(field, description, readOnly),
    kind.multiple && !readOnly ? 'Ctrl-click (⌘-click on a Mac) to choose more than one.' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const describedBy = [help ? helpId : '', messages.length ? errorId : '']
    .filter(Boolean)
    .join(' ');
  const common = {
    id,
    name: readOnly ? undefined : path.join('.'),
    'aria-describedby': describedBy || undefined,
    'aria-invalid': messages.length ? 'true' : undefined,
    'aria-required': field.required && !readOnly ? 'true' : undefined,
    // A control shows null as empty: the script leaves it out of the body while it stays
    // empty, so an edit does not turn an untouched null into "".
    'data-null': value === null && !readOnly && !kind.multiple ? 'true' : undefined,
  };
  const related = field instanceof ManyRelatedField ? spec.related?.get(field) : undefined;
  let control: SafeHtml;
  if (
    kind.element === 'unsupported' ||
    (field instanceof ManyRelatedField && !readOnly && !related)
  ) {
    control = html`<p class="unsupported" id="${id}">Lists are not supported in HTML forms; use the raw data form.</p>`;
  } else if (kind.element === 'checkbox') {
    control = html`<input${attrs({
      ...common,
      type: 'checkbox',
      value: 'true',
      checked: value === true || value === 'true' || value === 'on',
      disabled: readOnly,
    })}>`;
  } else if (kind.element === 'select' && kind.multiple) {
    control = multipleSelectHtml(field, description, common, value, readOnly, related);
  } else if (kind.element === 'select') {
    control = selectHtml(field, description, common, value, readOnly);
  } else if (kind.element === 'textarea') {
    control = html`<textarea${attrs({
      ...common,
      rows: Number(field.style.rows ?? 3),
      readonly: readOnly,
      placeholder: placeholderOf(field, readOnly),
    })}>${textOf(value)}</textarea>`;
  } else if (kind.element === 'file') {
    const current = typeof value === 'string' && value ? value : undefined;
    control = html`<input${attrs({
      ...common,
      type: 'file',
      disabled: readOnly,
      accept: typeof field.style.accept === 'string' ? field.style.accept : undefined,
    })}>${
      current
        ? html`<p class="current">Current: ${
            /^https?:\/\//i.test(current) ? html`<a href="${current}">${current}</a>` : current
          }</p>`
        : ''
    }`;
  } else {
    control = html`<input${attrs({
      ...common,
      type: kind.type,
      value: inputValue(value, kind.type),
      readonly: readOnly,
      inputmode: kind.inputmode,
      step: kind.step,
      min: kind.type === 'number' ? numberOrUndefined(description.min_value) : undefined,
      max: kind.type === 'number' ? numberOrUndefined(description.max_value) : undefined,
      placeholder: placeholderOf(field, readOnly),
      autocomplete: 'off',
    })}>`;
  }
  const label = html`<label for="${id}">${field.label}${requiredMark(field, readOnly)}${
    readOnly ? html` <span class="badge">read-only</span>` : ''
  }</label>`;
  const classes = `field field-${kind.element}${messages.length ? ' has-error' : ''}${readOnly ? ' is-readonly' : ''}`;
  const body =
    kind.element === 'checkbox'
      ? html`<div class="check">${control}${label}</div>`
      : html`${label}${control}`;
  return html`<div class="${classes}">
${body}
${help ? html`<p class="help" id="${helpId}">${help}</p>` : ''}${errorList(errorId, messages)}
</div>`;
}

interface ControlKind {
  readonly element: 'input' | 'textarea' | 'select' | 'checkbox' | 'file' | 'unsupported';
  /** A `<select multiple>`: the field takes a list of its choices. */
  readonly multiple?: boolean;
  readonly type?: string;
  readonly inputmode?: string;
  readonly step?: string;
}

/** Input types by the field's OPTIONS `type`. */
const INPUTS: Readonly<Record<string, ControlKind>> = {
  string: { element: 'input', type: 'text' },
  email: { element: 'input', type: 'email' },
  url: { element: 'input', type: 'url' },
  integer: { element: 'input', type: 'number', step: '1' },
  float: { element: 'input', type: 'number', step: 'any' },
  decimal: { element: 'input', type: 'text', inputmode: 'decimal' },
  date: { element: 'input', type: 'date' },
  datetime: { element: 'input', type: 'datetime-local', step: '1' },
  time: { element: 'input', type: 'time', step: '1' },
  boolean: { element: 'checkbox' },
  choice: { element: 'select' },
  'multiple choice': { element: 'select', multiple: true },
  'file upload': { element: 'file' },
  'image upload': { element: 'file' },
  list: { element: 'unsupported' },
  dict: { element: 'unsupported' },
};

/**
 * The control of a field: its `style` first (`baseTemplate: 'textarea'`, `inputType`), a file
 * input for file fields (add-on file fields included), then by its described type.
 */
function controlKind(field: AnyField, description: FieldDescription): ControlKind {
  const style = field.style;
  const base =
    typeof style.baseTemplate === 'string' ? style.baseTemplate.replace(/\.html$/, '') : '';
  if (base === 'textarea') return { element: 'textarea' };
  if (field instanceof FileField) return { element: 'file' };
  if (field instanceof ListSerializer) return { element: 'unsupported' };
  // A read-only relation lists no rows: its keys show as text.
  if (field instanceof ManyRelatedField)
    return field.readOnly
      ? { element: 'input', type: 'text' }
      : { element: 'select', multiple: true };
  const kind = INPUTS[description.type] ?? { element: 'input', type: 'text' };
  if (typeof style.inputType === 'string' && kind.element === 'input')
    return { ...kind, type: style.inputType };
  return kind;
}

function selectHtml(
  field: AnyField,
  description: FieldDescription,
  common: Record<string, string | undefined>,
  value: unknown,
  readOnly: boolean,
): SafeHtml {
  const choices = Array.isArray(description.choices)
    ? (description.choices as { value: unknown; display_name: unknown }[])
    : ((field as { choices?: readonly (readonly [unknown, string])[] }).choices ?? []).map(
        ([v, name]) => ({ value: v, display_name: name }),
      );
  const current = value === undefined || value === null ? undefined : String(value);
  const blank =
    !field.required ||
    field.allowNull ||
    (field as { allowBlank?: boolean }).allowBlank === true ||
    current === undefined;
  const options = choices.map(
    (choice) =>
      html`<option${attrs({ value: String(choice.value), selected: String(choice.value) === current })}>${String(choice.display_name)}</option>`,
  );
  return html`<select${attrs({ ...common, disabled: readOnly })}>${
    blank
      ? html`<option value=""${attrs({ selected: current === undefined || current === '' })}>———</option>`
      : ''
  }${options}</select>`;
}

/**
 * A `<select multiple>` of a many relation's rows (at most `HTML_CUTOFF`, 1000, then DRF's disabled
 * "More than 1000 items..." option) or of a multiple choice field's choices, the current
 * values selected. A current value the list does not hold (past the cutoff) is still offered,
 * selected, so that saving the form keeps it.
 */
function multipleSelectHtml(
  field: AnyField,
  description: FieldDescription,
  common: Record<string, string | undefined>,
  value: unknown,
  readOnly: boolean,
  related: RelatedOptions | undefined,
): SafeHtml {
  const choices = related
    ? related.choices.map((c) => ({ value: c.value, display_name: c.display }))
    : Array.isArray(description.choices)
      ? (description.choices as { value: unknown; display_name: unknown }[])
      : ((field as { choices?: readonly (readonly [unknown, string])[] }).choices ?? []).map(
          ([v, name]) => ({ value: v, display_name: name }),
        );
  const current = new Set(
    (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]).map(
      (item) => String(item),
    ),
  );
  const listed = new Set(choices.map((choice) => String(choice.value)));
  const options = choices.map(
    (choice) =>
      html`<option${attrs({ value: String(choice.value), selected: current.has(String(choice.value)) })}>${String(choice.display_name)}</option>`,
  );
  const unlisted = [...current]
    .filter((item) => !listed.has(item))
    .map((item) => html`<option${attrs({ value: item, selected: true })}>${item}</option>`);
  const more = related?.more
    ? html`<option value="n/a" disabled>More than ${related.choices.length} items...</option>`
    : '';
  return html`<select${attrs({ ...common, multiple: true, disabled: readOnly })}>${options}${unlisted}${more}</select>`;
}

function requiredMark(field: AnyField, readOnly: boolean): SafeHtml | string {
  if (!field.required || readOnly) return '';
  return html`<span class="required" aria-hidden="true">*</span><span class="visually-hidden"> (required)</span>`;
}

function helpText(field: AnyField, description: FieldDescription, readOnly: boolean): string {
  const parts: string[] = [];
  if (field.helpText) parts.push(field.helpText);
  if (readOnly) parts.push('Set by the server.');
  else {
    // A relation's max_length counts rows, and the select offers no more than it lists.
    if (
      typeof description.max_length === 'number' &&
      !(field instanceof FileField) &&
      !(field instanceof ManyRelatedField)
    )
      parts.push(`At most ${description.max_length} characters.`);
    if (typeof description.max_digits === 'number')
      parts.push(
        `At most ${description.max_digits} digits${
          typeof description.decimal_places === 'number'
            ? `, ${description.decimal_places} after the point`
            : ''
        }.`,
      );
    if (description.type === 'date') parts.push('YYYY-MM-DD.');
    const maxUpload = description.max_upload_size;
    if (typeof maxUpload === 'number' && maxUpload > 0)
      parts.push(`At most ${sizeText(maxUpload)}.`);
  }
  return parts.join(' ');
}

/** `5242880` → `5 MiB`, `1536` → `1.5 KiB`. */
function sizeText(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

function placeholderOf(field: AnyField, readOnly: boolean): string | undefined {
  if (typeof field.style.placeholder === 'string') return field.style.placeholder;
  return readOnly ? '—' : undefined;
}

function inputValue(value: unknown, type: string | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = textOf(value);
  // <input type="datetime-local"> takes no zone: the API reads a time without one as UTC.
  if (type === 'datetime-local')
    return text.replace(/(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/i, '').slice(0, 19);
  return text;
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The id of a control: the form's id and the field path, safe in CSS selectors. */
export function controlId(formId: string, path: readonly string[]): string {
  return `${formId}-${path.map((p) => p.replace(/[^A-Za-z0-9_-]/g, '_')).join('--')}`;
}

function errorList(id: string, messages: readonly string[]): SafeHtml | string {
  if (messages.length === 0) return '';
  return html`<ul class="field-errors" id="${id}">${messages.map((m) => html`<li>${m}</li>`)}</ul>`;
}

function asObject(tree: unknown): Record<string, ErrorTree> | undefined {
  return tree !== null && typeof tree === 'object' && !Array.isArray(tree)
    ? (tree as Record<string, ErrorTree>)
    : undefined;
}

interface FieldError {
  readonly id: string;
  readonly labels: readonly string[];
  readonly messages: readonly string[];
}

/** The errors that belong to fields (at any depth), in form order, for the summary. */
function collectErrors(
  formId: string,
  fields: readonly AnyField[],
  errors: Record<string, ErrorTree>,
  path: readonly string[],
  labels: readonly string[],
): FieldError[] {
  const found: FieldError[] = [];
  for (const field of fields) {
    const tree = errors[field.fieldName];
    if (tree === undefined) continue;
    const here = [...path, field.fieldName];
    const named = [...labels, field.label];
    const nested = asObject(tree);
    if (field instanceof Serializer && !(field instanceof ListSerializer) && nested) {
      const own = messagesOf(nested.non_field_errors);
      if (own.length) found.push({ id: controlId(formId, here), labels: named, messages: own });
      found.push(...collectErrors(formId, field.prepared.fields, nested, here, named));
    } else {
      found.push({ id: controlId(formId, here), labels: named, messages: messagesOf(tree) });
    }
  }
  return found;
}

/** The messages of an error tree node, flattened (`["Too long."]`, nested lists). */
export function messagesOf(tree: unknown): string[] {
  if (typeof tree === 'string') return [tree];
  if (Array.isArray(tree)) return tree.flatMap((item) => messagesOf(item));
  if (tree !== null && typeof tree === 'object')
    return Object.entries(tree).flatMap(([key, value]) =>
      messagesOf(value).map((m) => `${key}: ${m}`),
    );
  return [];
}
