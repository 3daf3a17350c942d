/**
 * The forms a page offers, as data (`forms-section.ts` renders them): create on lists;
 * replace, update and delete on details, each only when the view allows the method and its
 * permissions (and the object's) pass; after a 400, the form of the method used keeps what
 * was sent, with the errors.
 *
 * Per request: the permissions, the object, the values and the errors. What depends only on
 * the serializer class (multipart or not, defaults, the create body) comes from its
 * {@link formSkeleton}, prepared once.
 * @module
 */

import { sessionCsrfToken } from '../../accounts/sessions.ts';
import { DoesNotExist } from '../../db/database-errors.ts';
import { APIException, type ErrorTree, NotFound } from '../../errors/api-exception.ts';
import type { AnyField } from '../../fields/field.ts';
import { FileField } from '../../fields/file-field.ts';
import { isFormInput } from '../../fields/form-input.ts';
import { isHiddenField } from '../../fields/hidden-field.ts';
import type { Request } from '../../http/request.ts';
import type { Response } from '../../http/response.ts';
import { ListSerializer, Serializer } from '../../serializers/serializer.ts';
import type { GenericAPIView } from '../../views/generic-api-view.ts';
import { formSkeleton } from './form-skeleton.ts';
import { fallback, type ValueLookup, valueLookup } from './form-values.ts';
import type { FormBlock, FormsSpec } from './forms-section.ts';
import type { HtmlFormSpec } from './html-form.ts';
import { type RelatedOptionsMap, relatedOptions } from './related-options.ts';

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/** A view set as the forms read it (every member beyond `GenericAPIView` optional). */
export type FormsView = GenericAPIView & {
  detail?: boolean;
  action?: string | undefined;
  actionMap?: Readonly<Record<string, string>>;
  /** Hidden inputs of the view's HTML forms (the session login's `next` and CSRF token). */
  formHiddenFields?(request: Request): readonly (readonly [string, string])[];
};

/**
 * How the forms ask the view what a method would do (the renderer's overridable methods:
 * `BrowsableAPIRenderer.permits`, `asMethod`, `serializerFor`).
 */
export interface FormProbes {
  permits(view: FormsView, request: Request, method: string): Promise<boolean>;
  asMethod<T>(
    view: FormsView,
    request: Request,
    method: string,
    fn: (probe: Request) => Promise<T>,
  ): Promise<T>;
  serializerFor(view: FormsView, method: string, instance?: unknown): Serializer<any, any>;
}

/**
 * The hidden inputs of the page's HTML form: the view's own, and the session's CSRF token as
 * `csrfmiddlewaretoken` (Django's `{% csrf_token %}`), so that a browser without script can
 * post the form of a session-authenticated page.
 */
function hiddenFields(view: FormsView, request: Request): readonly (readonly [string, string])[] {
  const own = view.formHiddenFields?.(request) ?? [];
  const token = sessionCsrfToken(request);
  if (token === undefined || own.some(([name]) => name === 'csrfmiddlewaretoken')) return own;
  return [...own, ['csrfmiddlewaretoken', token]];
}

/**
 * The forms `view` offers this caller on this page.
 *
 * @example
 * ```ts
 * declare const probes: FormProbes; // the renderer's
 * declare const view: FormsView;
 * declare const request: Request;
 * declare const response: Response;
 * const spec = await formsContext(probes, view, request, response, false);
 * spec.blocks.map((block) => block.title); // ['POST: create'] on a list
 * ```
 */
export async function formsContext(
  probes: FormProbes,
  view: FormsView,
  request: Request,
  response: Response,
  detail: boolean,
): Promise<FormsSpec> {
  const allowed = view.allowedMethods;
  const parsers = view.getParsers().map((p) => p.mediaType);
  const rawTypes = [...new Set(parsers.filter((t) => t !== MULTIPART))].sort(
    (a, b) => Number(b === 'application/json') - Number(a === 'application/json'),
  );
  const failed = (methods: readonly string[]) =>
    response.status === 400 && methods.includes(request.method)
      ? (response.data as ErrorTree)
      : undefined;
  const sentForm = isFormInput(request.data);
  const blocks: FormBlock[] = [];
  const url = request.raw.url as string;

  if (!detail) {
    if (!allowed.includes('POST') || !(await probes.permits(view, request, 'POST')))
      return { blocks, deleteAction: undefined, needsScript: false };
    const serializer = probes.serializerFor(view, 'POST');
    const skeleton = formSkeleton(serializer.prepared);
    const fields = serializer.prepared.fields;
    const errors = failed(['POST']);
    const defaults = valueLookup(skeleton.defaults);
    const values = errors && sentForm ? fallback(valueLookup(request.data), defaults) : defaults;
    const spec = htmlFormSpec(
      'post',
      url,
      ['POST'],
      fields,
      skeleton.hasFile,
      values,
      sentForm ? errors : undefined,
      parsers,
      false,
      await optionsOf(serializer),
    );
    const hidden = hiddenFields(view, request);
    blocks.push({
      id: 'create',
      title: 'POST: create',
      html: spec && hidden?.length ? { ...spec, hidden } : spec,
      raw: rawTypes.length
        ? {
            id: 'raw-post',
            action: url,
            methods: ['POST'],
            mediaTypes: rawTypes,
            content: errors && !sentForm ? pretty(request.data) : skeleton.createBody,
            errors: sentForm ? undefined : errors,
          }
        : undefined,
    });
    return { blocks, deleteAction: undefined, needsScript: rawTypes.length > 0 };
  }

  const permitted: string[] = [];
  let instance: Record<string, unknown> | undefined;
  for (const method of ['PUT', 'PATCH', 'DELETE']) {
    if (!allowed.includes(method)) continue;
    try {
      await probes.asMethod(view, request, method, async (probe) => {
        await view.checkPermissions(probe);
        if (instance) await view.checkObjectPermissions(probe, instance);
        else instance = await view.getObject();
      });
      permitted.push(method);
    } catch (error) {
      if (error instanceof NotFound || error instanceof DoesNotExist) break;
      if (!(error instanceof APIException)) throw error;
    }
  }
  const deleteAction = permitted.includes('DELETE') ? url : undefined;
  const editing = permitted.filter((m) => m !== 'DELETE');
  if (editing.length && instance) {
    const serializer = probes.serializerFor(view, editing[0] as string, instance);
    const skeleton = formSkeleton(serializer.prepared);
    const fields = serializer.prepared.fields;
    const current = serializer.data;
    const errors = failed(editing);
    const stored = valueLookup(current);
    const values = errors && sentForm ? fallback(valueLookup(request.data), stored) : stored;
    blocks.push({
      id: 'edit',
      title:
        editing.join(' and ') === 'PUT and PATCH'
          ? 'PUT: replace, PATCH: update'
          : `${editing.join(', ')}: edit`,
      html: htmlFormSpec(
        'edit',
        url,
        editing,
        fields,
        skeleton.hasFile,
        values,
        sentForm ? errors : undefined,
        parsers,
        true,
        await optionsOf(serializer),
      ),
      raw: rawTypes.length
        ? {
            id: 'raw-edit',
            action: url,
            methods: editing,
            mediaTypes: rawTypes,
            content: pretty(errors && !sentForm ? request.data : writableData(current, fields)),
            errors: sentForm ? undefined : errors,
          }
        : undefined,
    });
  }
  // The page itself carries no validators (no 304 of a page with forms and a user): its
  // script sends the row's ETag as If-Match, computed here as the write will compute it.
  const etag = instance && permitted.length ? (view.getETag(instance) ?? undefined) : undefined;
  return { blocks, deleteAction, needsScript: true, ...(etag ? { etag } : {}) };
}

/** The HTML form, or undefined when the view cannot parse the encoding it would need. */
function htmlFormSpec(
  id: string,
  action: string,
  methods: readonly string[],
  fields: readonly AnyField[],
  hasFile: boolean,
  values: ValueLookup,
  errors: ErrorTree | undefined,
  parsers: readonly string[],
  needsScript: boolean,
  related: RelatedOptionsMap,
): HtmlFormSpec | undefined {
  const multipart = hasFile || !parsers.includes(FORM);
  // A form the view cannot parse is no use: raw data only.
  if (multipart && !parsers.includes(MULTIPART)) return undefined;
  return { id, action, methods, fields, values, errors, needsScript, multipart, related };
}

/** The rows the serializer's many relations offer, read with its context (links need the request). */
function optionsOf(serializer: Serializer<any, any>): Promise<RelatedOptionsMap> {
  return relatedOptions(serializer.prepared.fields, {
    partial: false,
    context: serializer.context,
    instance: undefined,
  });
}

function pretty(data: unknown): string {
  return JSON.stringify(data ?? {}, null, 2);
}

/** A representation without its read-only fields (and files): the body a PUT would send back. */
function writableData(data: unknown, fields: readonly AnyField[]): Record<string, unknown> {
  const source = (data ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (
      field.readOnly ||
      field instanceof FileField ||
      isHiddenField(field) ||
      !Object.hasOwn(source, field.fieldName)
    )
      continue;
    const value = source[field.fieldName];
    out[field.fieldName] =
      field instanceof Serializer &&
      !(field instanceof ListSerializer) &&
      value &&
      typeof value === 'object'
        ? writableData(value, field.prepared.fields)
        : value;
  }
  return out;
}
