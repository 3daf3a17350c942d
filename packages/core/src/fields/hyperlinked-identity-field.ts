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
  /** Type-level only: read-only whatever the options say (for the inferred serializer types). */
  declare readonly alwaysReadOnly: true;
  readonly viewName: string;
  readonly lookupField: string;
  readonly lookupUrlKwarg: string;
  /**
   * The last request seen, and its URL split around the one parameter: a list renders many
   * rows for one request. Checked by identity, so a field shared by requests never mixes them
   * up. `#link` is undefined until the request's second row, null when the URL cannot be split.
   */
  #linkRequest: RequestLike | undefined;
  #link: LinkParts | null | undefined;

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
    const link = this.#linkFor(request);
    // Integers need no encoding; anything else is encoded as reverse() does.
    if (link) {
      if (typeof lookup === 'number' && Number.isSafeInteger(lookup))
        return link.prefix + lookup + link.suffix;
      if (typeof lookup === 'string') return link.prefix + encodeURIComponent(lookup) + link.suffix;
    }
    // Not a computed key in a literal: V8 defines those through a runtime call.
    const params: Record<string, unknown> = {};
    params[this.lookupUrlKwarg] = lookup;
    return request.reverse(this.viewName, params);
  }

  /**
   * The split URL for this request's rows, or null for its first row (a detail view renders no
   * other, and one reverse() is cheaper than splitting) and for a URL that cannot be split.
   */
  #linkFor(request: RequestLike): LinkParts | null {
    if (this.#linkRequest !== request) {
      this.#linkRequest = request;
      this.#link = undefined;
      return null;
    }
    if (this.#link === undefined)
      this.#link = linkParts(request, this.viewName, this.lookupUrlKwarg);
    return this.#link;
  }
}

/** A route's absolute URL around its one parameter. */
interface LinkParts {
  readonly prefix: string;
  readonly suffix: string;
}

/** Stands for the parameter while the URL is split; encoded as `%00`, never in a real URL. */
const PLACEHOLDER = '\u0000';

/** The URL split around its parameter, or null when another parameter or more are in the way. */
function linkParts(request: RequestLike, viewName: string, kwarg: string): LinkParts | null {
  let url: string;
  try {
    url = request.reverse(viewName, { [kwarg]: PLACEHOLDER });
  } catch {
    // Another parameter is missing: each row goes through reverse(), which says what is wrong.
    return null;
  }
  const at = url.indexOf('%00');
  if (at === -1 || url.indexOf('%00', at + 3) !== -1) return null;
  return { prefix: url.slice(0, at), suffix: url.slice(at + 3) };
}
