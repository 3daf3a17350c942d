/**
 * The filter forms of a list page, as data: one control per filter backend that describes
 * itself (`describe(view)`): a select of the ordering names, a search box, or a form of
 * several inputs (a filter set's, as DRF's "Filters" dialog). Built per request (the current
 * values and the query parameters to keep come from the URL); `page.ts` renders them.
 * @module
 */
import type { Request } from '../../http/request.ts';
import { GenericAPIView } from '../../views/generic-api-view.ts';

/** A filter control (from a filter backend's `describe(view)`). */
export interface FilterControl {
  /** The query parameter it sets (`search`, `ordering`, a filter's). */
  readonly param: string;
  /** Its title (`Search`, `Ordering`, a filter set's `Filters`). */
  readonly title: string;
  /** Choices for a select (`[{ value: '-email', label: 'Email - descending' }]`); none for a text input. */
  readonly options?: readonly {
    /** The parameter's value for this choice (`-email`). */
    readonly value: string;
    /** What people read (`Email - descending`). */
    readonly label: string;
  }[];
  /** The parameter's value in the request (empty when absent). */
  readonly current: string;
  /** The inputs of a form of several filters (a filter set's); `param` is the first one's. */
  readonly fields?: readonly FilterFormField[];
  /** Other query parameters to keep (`format`, other filters). */
  readonly keep: readonly (readonly [string, string])[];
}

/** One input of a form of several filters. */
export interface FilterFormField {
  /** The query parameter it sets. */
  readonly param: string;
  /** Its label on the form. */
  readonly label: string;
  /** The choices of a select, if it is one. */
  readonly options?: readonly {
    /** The parameter's value. */
    readonly value: string;
    /** What the option shows. */
    readonly label: string;
  }[];
  /** The value in the current URL ('' for none). */
  readonly current: string;
  /** The input's type for the value (`date`, `number`, `datetime-local`, `time`, `text`). */
  readonly inputType?: string;
  /** A number input's `step` (`1` for integers, `any` for decimals). */
  readonly step?: string;
  /** A select of several choices at once (an `in` of choices), sent comma-separated. */
  readonly multiple?: boolean;
  /** How to write the value (`in`: comma-separated; `range`: two values). */
  readonly hint?: string;
}

/** The pagination parameters a filter form drops (a new filter starts at the first page). */
const PAGE_PARAM_KEYS = ['pageQueryParam', 'offsetQueryParam', 'cursorQueryParam'];

/**
 * The controls of `view`'s filter backends for this request; none for a view without filters.
 *
 * @example
 * ```ts
 * declare const view: GenericAPIView; // the list view being rendered
 * declare const request: Request;
 * filterControls(view, request);
 * // [{ param: 'ordering', title: 'Ordering', options: [...], current: '-title', keep: [['format', 'api']] }]
 * ```
 */
export function filterControls(view: unknown, request: Request): FilterControl[] {
  if (!(view instanceof GenericAPIView)) return [];
  const paginator = view.paginator as Record<string, unknown> | null;
  const pageParams = PAGE_PARAM_KEYS.map((key) => paginator?.[key]).filter(
    (p): p is string => typeof p === 'string',
  );
  const controls: FilterControl[] = [];
  for (const backend of view.getFilterBackends()) {
    const description = backend.describe?.(view);
    if (!description) continue;
    if (Array.isArray(description.fields)) {
      // A form of several inputs (the filter set's), as DRF's "Filters" dialog.
      const fields = description.fields
        .filter(
          (f): f is Record<string, unknown> & { param: string } =>
            typeof (f as { param?: unknown })?.param === 'string',
        )
        .map((f): FilterFormField => {
          const options = choicesOf(f.options);
          const current = request.queryParam(f.param) ?? '';
          const label = typeof f.label === 'string' ? f.label : f.param;
          const input = inputOf(f.schema);
          if (options && input.list) {
            const chosen = new Set(current.split(','));
            return {
              param: f.param,
              label,
              options,
              current: options
                .filter((o) => chosen.has(o.value))
                .map((o) => o.value)
                .join(','),
              multiple: true,
            };
          }
          return {
            param: f.param,
            label,
            ...(options ? { options } : { ...input.control }),
            current: options && !options.some((o) => o.value === current) ? '' : current,
            ...(!options && input.hint ? { hint: input.hint } : {}),
          };
        });
      if (fields.length === 0) continue;
      const names = new Set(fields.map((f) => f.param));
      controls.push({
        param: fields[0]?.param as string,
        title: typeof description.title === 'string' ? description.title : 'Filters',
        current: '',
        fields,
        keep: [...new URLSearchParams(request.queryString)].filter(
          ([name]) => !names.has(name) && !pageParams.includes(name),
        ),
      });
      continue;
    }
    if (typeof description.param !== 'string') continue;
    const param = description.param;
    const options = choicesOf(description.options);
    const current = request.queryParam(param) ?? '';
    controls.push({
      param,
      title: typeof description.title === 'string' ? description.title : param,
      ...(options ? { options } : {}),
      current: options && !options.some((o) => o.value === current) ? '' : current,
      keep: [...new URLSearchParams(request.queryString)].filter(
        ([name]) => name !== param && !pageParams.includes(name),
      ),
    });
  }
  return controls;
}

/** The `{ value, label }` choices of a filter's description, or undefined. */
function choicesOf(options: unknown): { value: string; label: string }[] | undefined {
  if (!Array.isArray(options)) return undefined;
  return options
    .filter(
      (o): o is { value: string; label: string } =>
        typeof (o as { value?: unknown })?.value === 'string' &&
        typeof (o as { label?: unknown })?.label === 'string',
    )
    .map((o) => ({ value: o.value, label: o.label }));
}

/** Input types of a value schema's format and type. */
const INPUT_TYPES: Readonly<Record<string, { inputType: string; step?: string }>> = {
  date: { inputType: 'date' },
  'date-time': { inputType: 'datetime-local', step: '1' },
  time: { inputType: 'time', step: '1' },
  integer: { inputType: 'number', step: '1' },
  number: { inputType: 'number', step: 'any' },
};

/**
 * The control of a filter's parameter from its OpenAPI schema: an input of the value's type;
 * for a list (`in`, `range`), a text input with a hint, since one input holds every value.
 */
function inputOf(schema: unknown): {
  control: { inputType: string; step?: string };
  list: boolean;
  hint?: string;
} {
  const s = (schema ?? {}) as {
    type?: unknown;
    format?: unknown;
    items?: unknown;
    minItems?: unknown;
  };
  if (s.type === 'array') {
    const items = (s.items ?? {}) as { type?: unknown; format?: unknown };
    const example = exampleOf(items);
    const hint =
      s.minItems === 2
        ? `From and to, comma-separated: ${example}`
        : `One or more, comma-separated: ${example}`;
    return { control: { inputType: 'text' }, list: true, hint };
  }
  const key = typeof s.format === 'string' && s.format in INPUT_TYPES ? s.format : s.type;
  const control = typeof key === 'string' ? INPUT_TYPES[key] : undefined;
  return { control: control ?? { inputType: 'text' }, list: false };
}

function exampleOf(items: { type?: unknown; format?: unknown }): string {
  if (items.format === 'date') return '2024-01-01,2024-12-31';
  if (items.type === 'integer') return '1,5';
  if (items.type === 'number') return '9.99,19.99';
  return 'a,b';
}
