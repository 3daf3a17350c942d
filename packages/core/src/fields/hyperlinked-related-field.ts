/**
 * Relations written and shown as the URL of the related row's detail route: DRF's
 * `HyperlinkedRelatedField`.
 * @module
 */
import {
  DoesNotExist,
  InvalidLookupValueError,
  MultipleObjectsReturned,
} from '../db/database-errors.ts';
import type { QuerySet } from '../db/query-set.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { pythonTypeName } from '../utils/text.ts';
import {
  checkFieldOptions,
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type OnlyKnown,
  type RequestLike,
  type RunContext,
} from './field.ts';
import {
  ManyRelatedField,
  type ManyRelatedFieldOptions,
  splitManyOptions,
} from './many-related-field.ts';
import { type RelatedChoice, relatedChoices } from './related-choices.ts';
import { RouteLinks } from './route-link.ts';

/** Options of {@link HyperlinkedRelatedField}. */
export interface HyperlinkedRelatedFieldOptions extends FieldOptions<unknown> {
  /** The named route of the related row's detail view (`tag-detail`). */
  readonly viewName: string;
  /** The related row's attribute that fills the route (default `pk`, its primary key). */
  readonly lookupField?: string;
  /** The route parameter it fills (default: `lookupField`). */
  readonly lookupUrlKwarg?: string;
  /** Where valid targets are looked up (required unless read-only). */
  readonly queryset?: QuerySet<any>;
}

/** The options {@link HyperlinkedRelatedField} takes besides every field's. */
const OWN_OPTIONS = ['viewName', 'lookupField', 'lookupUrlKwarg', 'queryset'];

/**
 * A relation as the absolute URL of the related row's detail route
 * (`http://host/api/tags/3/`): renders it from the request (`reverse()` of the router's route
 * names), and accepts one, absolute or a path, finding the route it matches and the row its
 * parameter names in `queryset`, with DRF's messages: "Invalid hyperlink - No URL match." for
 * a URL of no route, "Invalid hyperlink - Incorrect URL match." for another route's,
 * "Invalid hyperlink - Object does not exist." when no row matches, "Incorrect type. Expected
 * URL string, received int." for what is no text. A `lookupField` of `pk` reads a foreign
 * key's column (no join); another reads the related row, which generic views load with the
 * query (`selectRelated`).
 *
 * @example
 * ```ts
 * const author = new HyperlinkedRelatedField({ viewName: 'author-detail', queryset: Author.objects.all() });
 * const tags = HyperlinkedRelatedField.many({ viewName: 'tag-detail', lookupField: 'name', readOnly: true });
 * ```
 */
export class HyperlinkedRelatedField<
  const O extends HyperlinkedRelatedFieldOptions = HyperlinkedRelatedFieldOptions,
> extends Field<Record<string, unknown>, string, O> {
  /** Type-level only: what a client sends, the URL. */
  declare readonly wireInput: string;
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    no_match: 'Invalid hyperlink - No URL match.',
    incorrect_match: 'Invalid hyperlink - Incorrect URL match.',
    does_not_exist: 'Invalid hyperlink - Object does not exist.',
    incorrect_type: 'Incorrect type. Expected URL string, received {data_type}.',
  };

  /** The route name of the related row's detail URL (`book-detail`). */
  readonly viewName: string;
  /** The related model's field the URL holds (default `pk`). */
  readonly lookupField: string;
  /** The route parameter holding it (default `lookupField`). */
  readonly lookupUrlKwarg: string;
  readonly #links: RouteLinks;

  constructor(options: O & OnlyKnown<O, HyperlinkedRelatedFieldOptions>) {
    super(options);
    if (new.target === HyperlinkedRelatedField)
      checkFieldOptions('HyperlinkedRelatedField', options, OWN_OPTIONS);
    if (typeof options.viewName !== 'string' || options.viewName === '') {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        'HyperlinkedRelatedField needs viewName: the name of the related detail route (tag-detail).',
      );
    }
    if (!options.queryset && !options.readOnly) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        'HyperlinkedRelatedField needs a queryset (where valid targets are found), or readOnly: true.',
      );
    }
    this.viewName = options.viewName;
    this.lookupField = options.lookupField ?? 'pk';
    this.lookupUrlKwarg = options.lookupUrlKwarg ?? this.lookupField;
    const model = options.queryset?.model;
    if (model && this.lookupField !== 'pk' && !model.getField(this.lookupField)) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        `HyperlinkedRelatedField: ${model.name} has no field "${this.lookupField}" (lookupField). ` +
          `Fields: ${model.fieldList.map((f: { name: string }) => f.name).join(', ')}.`,
      );
    }
    this.#links = new RouteLinks(this.viewName, this.lookupUrlKwarg);
  }

  /**
   * A list of related rows as their URLs (DRF's `many=True`), found in one query.
   *
   * @example
   * ```ts
   * const authors = HyperlinkedRelatedField.many({ viewName: 'author-detail', queryset: Author.objects.all() });
   * ```
   */
  static many<const O extends HyperlinkedRelatedFieldOptions & ManyRelatedFieldOptions>(
    options: O & OnlyKnown<O, HyperlinkedRelatedFieldOptions & ManyRelatedFieldOptions>,
  ): ManyRelatedField<HyperlinkedRelatedField<O>, O> {
    checkFieldOptions('HyperlinkedRelatedField.many', options, [
      ...OWN_OPTIONS,
      'allowEmpty',
      'maxLength',
    ]);
    const { list, child } = splitManyOptions(options as Readonly<Record<string, unknown>>);
    return new ManyRelatedField(new HyperlinkedRelatedField(child as never), list as never);
  }

  /** A lookup by primary key reads a foreign key's own column: no join for the link. */
  protected override get relationValue(): 'row' | 'key' {
    return this.#byKey ? 'key' : 'row';
  }

  /** True when the lookup is the related model's primary key. */
  get #byKey(): boolean {
    const pk = this.options.queryset?.model.pk;
    return this.lookupField === 'pk' || (pk !== undefined && this.lookupField === pk.name);
  }

  /** The attribute of a related row that fills the route. */
  get #attribute(): string {
    const model = this.options.queryset?.model;
    if (this.lookupField !== 'pk')
      return model?.getField(this.lookupField)?.attname ?? this.lookupField;
    return model?.pk.attname ?? 'id';
  }

  /** The request of the run, which builds and reads links; a declaration mistake without it. */
  #request(ctx: RunContext | undefined): RequestLike {
    const request = ctx?.context.request;
    if (!request) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_CONTEXT',
        `${this.constructor.name} '${this.fieldName}' needs the request in the serializer context ` +
          'to build and read URLs: pass context: { request } when you create the serializer.',
      );
    }
    return request;
  }

  /** The lookup value a URL names (DRF's `to_internal_value` up to `get_object`). */
  #lookupValue(data: unknown, request: RequestLike): string {
    if (typeof data !== 'string')
      return this.fail('incorrect_type', { data_type: pythonTypeName(data) });
    let path = data;
    if (/^https?:/i.test(data)) {
      // An absolute URL counts by its path, as in DRF (the host is not compared).
      try {
        path = new URL(data).pathname;
      } catch {
        return this.fail('no_match');
      }
    }
    if (typeof request.resolve !== 'function') {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_CONTEXT',
        `${this.constructor.name} '${this.fieldName}' reads links with the request's resolve(); ` +
          "the request in the serializer context has none. Pass the view's request.",
      );
    }
    const match = request.resolve(path);
    if (match === null) return this.fail('no_match');
    const namespaced =
      request.urlNamespace === undefined ? undefined : `${request.urlNamespace}:${this.viewName}`;
    if (match.name !== this.viewName && match.name !== namespaced)
      return this.fail('incorrect_match');
    const value = match.params[this.lookupUrlKwarg];
    if (value === undefined) return this.fail('incorrect_match');
    return value;
  }

  async toInternalValue(data: unknown, ctx?: RunContext): Promise<Record<string, unknown>> {
    const value = this.#lookupValue(data, this.#request(ctx));
    const queryset = this.options.queryset as QuerySet<any>;
    try {
      return (await queryset.get({ [this.lookupField]: value })) as Record<string, unknown>;
    } catch (error) {
      if (
        error instanceof DoesNotExist ||
        error instanceof InvalidLookupValueError ||
        error instanceof MultipleObjectsReturned
      )
        return this.fail('does_not_exist');
      throw error;
    }
  }

  /** The rows of many URLs in one query, in the order sent; the first bad one fails. */
  async resolveMany(items: readonly unknown[], ctx?: RunContext): Promise<unknown[]> {
    const request = this.#request(ctx);
    const values = items.map((item) => this.#lookupValue(item, request));
    if (values.length === 0) return [];
    const queryset = this.options.queryset as QuerySet<any>;
    let rows: Record<string, unknown>[];
    try {
      rows = (await queryset
        .filter({ [`${this.lookupField}__in`]: [...new Set(values)] })
        .execute()) as Record<string, unknown>[];
    } catch (error) {
      if (error instanceof InvalidLookupValueError) {
        // Which value the column cannot hold: ask one by one, in order, for the right message.
        for (const item of items) await this.toInternalValue(item, ctx);
      }
      throw error;
    }
    const attribute = this.#attribute;
    const byValue = new Map<string, Record<string, unknown>[]>();
    for (const row of rows) {
      const key = String(row[attribute]);
      byValue.set(key, [...(byValue.get(key) ?? []), row]);
    }
    return values.map((value) => {
      const found = byValue.get(value);
      if (found === undefined || found.length > 1) return this.fail('does_not_exist');
      return found[0];
    });
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    return { type: 'string', format: 'uri' };
  }

  /**
   * The rows of the queryset as choices of a form's `<select>`, at most `cutoff` (DRF's
   * `get_choices`): each as this field renders it, named by its model's `str`.
   *
   * @example
   * ```ts
   * const author = new HyperlinkedRelatedField({ viewName: 'author-detail', queryset: Author.objects.all() });
   * const choices = await author.getChoices(1000);
   * ```
   */
  getChoices(cutoff?: number, ctx?: RunContext): Promise<RelatedChoice[]> {
    return relatedChoices(this.options.queryset, (row) => this.toRepresentation(row, ctx), cutoff);
  }

  toRepresentation(value: unknown, ctx?: RunContext): string {
    const request = this.#request(ctx);
    const lookup =
      value !== null && typeof value === 'object'
        ? (value as Record<string, unknown>)[this.#attribute]
        : value;
    return this.#links.link(request, lookup);
  }
}
