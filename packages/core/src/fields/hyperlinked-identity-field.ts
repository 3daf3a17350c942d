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
  type RunContext,
} from './field.ts';
import { RouteLinks } from './route-link.ts';

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
  /** The route name the link is reversed from (`book-detail`). */
  readonly viewName: string;
  /** The row's attribute that fills the URL (`pk` by default). */
  readonly lookupField: string;
  /** The URL parameter it fills (the lookup field's name by default). */
  readonly lookupUrlKwarg: string;
  readonly #links: RouteLinks;

  constructor(options: HyperlinkedIdentityFieldOptions) {
    super({ ...options, readOnly: true, source: '*' });
    this.viewName = options.viewName;
    this.lookupField = options.lookupField ?? 'id';
    this.lookupUrlKwarg = options.lookupUrlKwarg ?? 'pk';
    this.#links = new RouteLinks(this.viewName, this.lookupUrlKwarg);
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
    return this.#links.link(request, (value as Record<string, unknown>)[this.lookupField]);
  }
}
