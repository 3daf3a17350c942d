/**
 * `GenericAPIView`: the query set, serializer, lookup, filtering and pagination seams that
 * the list/create/retrieve/update/destroy mixins are built from.
 *
 * @example
 * ```ts
 * class PublishedBooks extends ListModelMixin(GenericAPIView) {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override getQueryset() {
 *     return super.getQueryset().filter({ state: 'published' });
 *   }
 *   async get(request: Request) { return this.list(request); }
 * }
 * ```
 * @module
 */
import { InvalidLookupValueError } from '../db/database-errors.ts';
import type { QuerySet } from '../db/query-set.ts';
import { NotFound } from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyField, SerializerContext } from '../fields/field.ts';
import { FileField } from '../fields/file-field.ts';
import type { FilterBackend, FilterBackendClass } from '../filters/filter-backend.ts';
import type { Response } from '../http/response.ts';
import type { Pagination, PaginationClass } from '../pagination/pagination.ts';
import type { ParserContext } from '../parsers/parser.ts';
import {
  type PreparedSerializer,
  type Serializer,
  Serializer as SerializerBase,
  type SerializerOptions,
} from '../serializers/serializer.ts';
import { ownPlan } from '../utils/bounded-cache.ts';
import { catchMaybe, reduceMaybe, thenMaybe } from '../utils/maybe-promise.ts';
import { APIView } from './api-view.ts';
import { instancesOf } from './instances-of.ts';
import { integerKey } from './integer-key.ts';

/** A serializer class as views use it: something to instantiate, with prepared fields. */
export interface SerializerClass {
  new (options?: SerializerOptions): Serializer<any, any>;
  /** The class's prepared plan (bound fields, hooks), built once and kept. */
  prepare(): PreparedSerializer;
  /** The class's name, in messages and in the OpenAPI component names. */
  readonly name: string;
}

/**
 * A lookup value the column cannot hold (`/events/2023-02-30/` on a date) is no row: 404, as
 * DRF's `get_object_or_404` answers Django's ValueError and ValidationError.
 */
function notFoundForValue(error: unknown): never {
  throw error instanceof InvalidLookupValueError ? new NotFound() : error;
}

/**
 * The base of model views: configure `queryset` and `serializerClass`.
 *
 * @example
 * ```ts
 * class BookDetail extends GenericAPIView {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   async get() {
 *     const book = await this.getObject(); // 404 when no row has the URL's pk
 *     return new Response(this.getSerializer({ instance: book }).data);
 *   }
 * }
 * ```
 */
export class GenericAPIView extends APIView {
  // Defaults on the prototype (below the class), as APIView's configuration.
  /** The rows this view works on (re-evaluated per request: query sets are immutable). */
  declare queryset: QuerySet<any> | undefined;
  /** The serializer of this view's input and output (DRF's `serializer_class`). */
  declare serializerClass: SerializerClass | undefined;
  /** The model field a detail route looks rows up by (default `pk`). */
  declare lookupField: string;
  /** The route parameter holding the lookup value (defaults to `lookupField`, `pk` for `pk`). */
  declare lookupUrlKwarg: string | undefined;
  /** The filters of the list (DRF's `filter_backends`); undefined: `DEFAULT_FILTER_BACKENDS`. */
  declare filterBackends: readonly FilterBackendClass[] | undefined;
  /** Pagination; `null` turns it off for this view, undefined uses the setting. */
  declare paginationClass: PaginationClass | null | undefined;
  /**
   * The paginator once made (DRF's `_paginator`); undefined until `paginator` is asked for.
   * A property of the view, not a WeakMap keyed by it: V8's minor collections keep a WeakMap's
   * entries alive, so every request's view, paginator and page survived into the old
   * generation (the list's heap grew from 103 to 180 MB under load).
   */
  declare protected _paginator: Pagination | null | undefined;
  /**
   * Give reads a weak `ETag` hashed from the rendered body and answer `If-None-Match` with
   * 304; undefined uses the `USE_ETAGS` setting. A `versionField` gives a strong tag instead.
   */
  declare useETags: boolean | undefined;
  /**
   * An integer field of the model that counts the row's writes: the strong `ETag` of a row
   * (`"3.json"`), which `If-Match` must name for a write to run. The view's updates and
   * deletes add 1 to it, in the statement that checks it (no lost update).
   */
  declare versionField: string | undefined;
  /**
   * A date-time field of the model holding the row's last change: `Last-Modified`, answered
   * by `If-Modified-Since` (304) and `If-Unmodified-Since` (412). The view's writes set it.
   */
  declare lastModifiedField: string | undefined;
  /** PUT, PATCH and DELETE without `If-Match` (or `If-Unmodified-Since`) get 428. */
  declare requirePrecondition: boolean;

  /**
   * The query set of this request: the declared one, loading the relations the serializer
   * reads (`selectRelated` for rows it reads through foreign keys, `prefetchRelated` for many
   * relations), so rendering a page needs no query per row.
   */
  getQueryset(): QuerySet<any> {
    if (!this.queryset) {
      throw new ImproperlyConfigured(
        'REST_ERR_VIEW_CONFIG',
        `'${this.constructor.name}' should either include a \`queryset\` attribute, or override the \`getQueryset()\` method.`,
      );
    }
    const { relatedPaths, prefetchPaths } = this.getSerializerClass().prepare();
    let queryset = relatedPaths.length
      ? this.queryset.selectRelated(...relatedPaths)
      : this.queryset.all();
    if (prefetchPaths.length) queryset = queryset.prefetchRelated(...prefetchPaths);
    return queryset;
  }

  /**
   * The row of a detail route: 404 when the lookup value matches none (or cannot match). The
   * row at once when nothing had to wait (the filters, the query, the object permissions),
   * else a promise of it: a caller awaits the result either way.
   */
  getObject(): Record<string, unknown> | Promise<Record<string, unknown>> {
    return thenMaybe(this.filterQueryset(this.getQueryset()), (filtered) =>
      objectIn(this, filtered),
    );
  }

  /**
   * The strong entity tag of `instance` (from `versionField`, with the renderer's format: each
   * representation has its own), or null. Override for another source of versions.
   */
  getETag(instance: Record<string, unknown>): string | null {
    const field = this.versionField;
    if (field === undefined) return null;
    const version = instance[field];
    if (version === null || version === undefined) return null;
    return `"${String(version)}.${this.request?.acceptedRenderer?.format ?? 'json'}"`;
  }

  /**
   * When `instance` last changed, in milliseconds to the second (from `lastModifiedField`),
   * or null. Override for another source.
   */
  getLastModified(instance: Record<string, unknown>): number | null {
    const field = this.lastModifiedField;
    if (field === undefined) return null;
    const value = instance[field];
    if (value === null || value === undefined) return null;
    const time = (value instanceof Date ? value : new Date(String(value))).getTime();
    return Number.isNaN(time) ? null : Math.floor(time / 1000) * 1000;
  }

  /**
   * The serializer class of this request (DRF's `get_serializer_class()`): `serializerClass`.
   * Override to choose per action or per version.
   *
   * @example
   * ```ts
   * class BookViewSet extends ModelViewSet {
   *   override queryset = Book.objects.all();
   *   override getSerializerClass(): SerializerClass {
   *     return this.action === 'list' ? AuthorSerializer : BookSerializer;
   *   }
   * }
   * ```
   */
  getSerializerClass(): SerializerClass {
    if (!this.serializerClass) {
      throw new ImproperlyConfigured(
        'REST_ERR_VIEW_CONFIG',
        `'${this.constructor.name}' should either include a \`serializerClass\` attribute, or override the \`getSerializerClass()\` method.`,
      );
    }
    return this.serializerClass;
  }

  /**
   * The context every serializer of this view gets: request, view, format, storage, and
   * whether a replaced file is removed (`DELETE_ORPHANED_FILES`).
   */
  getSerializerContext(): SerializerContext {
    return {
      request: this.request,
      view: this,
      format: this.request?.acceptedRenderer?.format,
      storage: this.request?.settings.STORAGE,
      deleteOrphanedFiles: this.request?.settings.DELETE_ORPHANED_FILES,
    };
  }

  /**
   * A serializer for this request (DRF's `get_serializer(*args, **kwargs)`, with one options
   * object): `instance`, `data`, `partial`, `many` (a list serializer) and `context`, merged
   * over {@link getSerializerContext}'s.
   *
   * @example
   * ```ts
   * class BookViewSet extends ModelViewSet {
   *   override queryset = Book.objects.all();
   *   override serializerClass = BookSerializer;
   *   async recent(_request: Request) {
   *     const rows = await this.getQueryset().orderBy('-id').slice(0, 5).execute();
   *     return new Response(this.getSerializer({ instance: rows, many: true }).data);
   *   }
   * }
   * ```
   */
  getSerializer(options: SerializerOptions & { many?: boolean } = {}): Serializer<any, any> {
    const Serializer = this.getSerializerClass();
    const own = this.getSerializerContext();
    const context = options.context ? { ...own, ...options.context } : own;
    // The usual call passes no `many`: one copy of the options, no rest object.
    if (!('many' in options)) return new Serializer({ ...options, context });
    const { many, ...rest } = options;
    if (!many) return new Serializer({ ...rest, context });
    return (Serializer as unknown as typeof SerializerBase).many.call(Serializer as never, {
      ...rest,
      context,
    });
  }

  /**
   * The query set after every filter backend: at once when every backend answers at once
   * (a promise costs the request a job), else a promise of it.
   */
  filterQueryset(queryset: QuerySet<any>): QuerySet<any> | Promise<QuerySet<any>> {
    return reduceMaybe(this.getFilterBackends(), queryset, (filtered, backend) =>
      backend.filterQueryset(this.request, filtered, this),
    );
  }

  /** The filter backends of this request, made from `filterBackends`. */
  getFilterBackends(): FilterBackend[] {
    return instancesOf(this.filterBackends ?? this.settings.DEFAULT_FILTER_BACKENDS);
  }

  /** The paginator of this request, or null. */
  get paginator(): Pagination | null {
    let paginator = this._paginator;
    if (paginator === undefined) {
      const Pagination =
        this.paginationClass === undefined
          ? this.settings.DEFAULT_PAGINATION_CLASS
          : this.paginationClass;
      paginator = Pagination ? new Pagination() : null;
      this._paginator = paginator;
    }
    return paginator;
  }

  /**
   * One page of rows, or null when the view is not paginated. The ordering is made total
   * first (primary key appended), so pages never skip or repeat rows.
   */
  async paginateQueryset(queryset: QuerySet<any>): Promise<unknown[] | null> {
    const paginator = this.paginator;
    if (!paginator) return null;
    return paginator.paginateQueryset(queryset.withStableOrdering(), this.request, this);
  }

  /** The response of one page of rendered rows: the paginator's envelope (`count`, `next`, ...). */
  getPaginatedResponse(data: unknown[]): Response {
    return (this.paginator as Pagination).getPaginatedResponse(data);
  }

  /** Multipart parts named like a file field (dotted for nested fields) get its upload limit. */
  override getParserContext(): ParserContext {
    const serializerClass = this.serializerClass;
    if (!serializerClass) return super.getParserContext();
    const files = ownPlan(serializerClass, FILE_FIELDS, () =>
      fileFields(serializerClass.prepare().writable, ''),
    );
    return { fileField: (name) => files.get(name) };
  }
}

Object.assign(GenericAPIView.prototype, {
  queryset: undefined,
  serializerClass: undefined,
  lookupField: 'pk',
  lookupUrlKwarg: undefined,
  filterBackends: undefined,
  paginationClass: undefined,
  _paginator: undefined,
  useETags: undefined,
  versionField: undefined,
  lastModifiedField: undefined,
  requirePrecondition: false,
});

/**
 * The row of `queryset` the URL names, checked against the object permissions (`getObject`).
 * Functions of the view rather than private methods: a private method marks every instance
 * in its constructor, and a view is made per request.
 */
function objectIn(
  view: GenericAPIView,
  queryset: QuerySet<any>,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const kwarg = view.lookupUrlKwarg ?? view.lookupField;
  const value = view.kwargs[kwarg];
  if (value === undefined) {
    throw new ImproperlyConfigured(
      'REST_ERR_VIEW_CONFIG',
      `Expected view ${view.constructor.name} to be called with a URL keyword argument named "${kwarg}". ` +
        'Fix your URL conf, or set the `lookupField` attribute on the view correctly.',
    );
  }
  const field = queryset.model.getField(view.lookupField);
  const integral =
    field &&
    (field.kind === 'auto' ||
      field.kind === 'integer' ||
      field.kind === 'positive_integer' ||
      field.kind === 'small_integer' ||
      field.kind === 'positive_small_integer' ||
      field.kind === 'big_integer');
  // A value that cannot be a key is no row, not a database error. A number is an `int`
  // converter's, already a safe integer.
  const lookup =
    typeof value === 'number'
      ? integral
        ? value
        : String(value)
      : integral
        ? integerKey(value)
        : value;
  if (lookup === -1) throw new NotFound();
  // Not a computed key in a literal: V8 defines those through a runtime call.
  const filter: Record<string, unknown> = {};
  filter[view.lookupField] = lookup;
  // Unordered, at most two rows; its SQL is planned once per query shape (see QuerySet.lookup).
  const rows = catchMaybe(() => queryset.lookup(filter), notFoundForValue);
  return thenMaybe(rows, (found) => permittedObject(view, found));
}

function permittedObject(
  view: GenericAPIView,
  rows: readonly Record<string, unknown>[],
): Record<string, unknown> | Promise<Record<string, unknown>> {
  if (rows.length !== 1) throw new NotFound();
  const obj = rows[0] as Record<string, unknown>;
  return thenMaybe(view.checkObjectPermissions(view.request, obj), () => obj);
}

// A serializer class's fields are fixed once prepared: their file fields are found once and
// kept on the class (with `ownPlan`).
const FILE_FIELDS = Symbol('file fields');

function fileFields(
  fields: readonly AnyField[],
  prefix: string,
  into = new Map<string, AnyField>(),
): Map<string, AnyField> {
  for (const field of fields) {
    const name = prefix + field.fieldName;
    if (field instanceof FileField) into.set(name, field);
    else if (field instanceof SerializerBase) fileFields(field.prepared.writable, `${name}.`, into);
  }
  return into;
}
