/**
 * A record's own URL (the `url` field of hyperlinked serializers).
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import {
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RequestLike,
  type RunContext,
} from './field.ts';

/** Options of {@link HyperlinkedIdentityField}. */
export interface HyperlinkedIdentityFieldOptions extends FieldOptions<string> {
  /** The named route of the detail view (`book-detail`). */
  readonly viewName: string;
  /** The attribute of the record that fills the route (default `id`). */
  readonly lookupField?: string;
  /** The route parameter it fills (default `pk`). */
  readonly lookupUrlKwarg?: string;
}

/**
 * The absolute URL of the record's detail route, built from the request
 * (`http://127.0.0.1:8000/books/api/books/1/`). Read-only.
 *
 * @example
 * ```ts
 * const url = new HyperlinkedIdentityField({ viewName: 'book-detail' });
 * ```
 */
export class HyperlinkedIdentityField extends Field<
  string,
  string,
  HyperlinkedIdentityFieldOptions
> {
  readonly viewName: string;
  readonly lookupField: string;
  readonly lookupUrlKwarg: string;
  /**
   * The URL around its one parameter for the last request seen: a list renders many rows for
   * one request. Checked by identity, so a field shared by requests never mixes them up.
   */
  #link: LinkParts | undefined;

  constructor(options: HyperlinkedIdentityFieldOptions) {
    super({ ...options, readOnly: true, source: '*' });
    this.viewName = options.viewName;
    this.lookupField = options.lookupField ?? 'id';
    this.lookupUrlKwarg = options.lookupUrlKwarg ?? 'pk';
  }

  override clone(): this {
    return new HyperlinkedIdentityField(this.options) as this;
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    return { type: 'string', format: 'uri' };
  }

  toInternalValue(data: unknown): string {
    return data as string;
  }

  toRepresentation(value: unknown, ctx: RunContext): string {
    const request = ctx.context.request;
    if (!request) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_CONTEXT',
        `${this.constructor.name} '${this.fieldName}' needs the request in the serializer context ` +
          'to build absolute URLs: pass context: { request } when you create the serializer.',
      );
    }
    const lookup = (value as Record<string, unknown>)[this.lookupField];
    let link = this.#link;
    if (link?.request !== request) {
      // A request's first row goes through reverse(): a detail view renders no other.
      this.#link = { request, prefix: undefined, suffix: '', split: false };
      return request.reverse(this.viewName, { [this.lookupUrlKwarg]: lookup });
    }
    if (!link.split) {
      link = linkParts(request, this.viewName, this.lookupUrlKwarg);
      this.#link = link;
    }
    // Integers need no encoding; anything else is encoded as reverse() does.
    if (link.prefix !== undefined) {
      if (typeof lookup === 'number' && Number.isSafeInteger(lookup))
        return link.prefix + lookup + link.suffix;
      if (typeof lookup === 'string') return link.prefix + encodeURIComponent(lookup) + link.suffix;
    }
    return request.reverse(this.viewName, { [this.lookupUrlKwarg]: lookup });
  }
}

/** A route's absolute URL split around its parameter (prefix undefined: not one parameter). */
interface LinkParts {
  readonly request: object;
  readonly prefix: string | undefined;
  readonly suffix: string;
  /** False until the URL was split (at the request's second row). */
  readonly split: boolean;
}

/** Stands for the parameter while the URL is split; encoded as `%00`, never in a real URL. */
const PLACEHOLDER = '\u0000';

function linkParts(request: RequestLike, viewName: string, kwarg: string): LinkParts {
  let url: string;
  try {
    url = request.reverse(viewName, { [kwarg]: PLACEHOLDER });
  } catch {
    // Another parameter is missing: each row goes through reverse(), which says what is wrong.
    return { request, prefix: undefined, suffix: '', split: true };
  }
  const at = url.indexOf('%00');
  if (at === -1 || url.indexOf('%00', at + 3) !== -1)
    return { request, prefix: undefined, suffix: '', split: true };
  return { request, prefix: url.slice(0, at), suffix: url.slice(at + 3), split: true };
}
