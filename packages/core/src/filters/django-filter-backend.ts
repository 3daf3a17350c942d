/**
 * The filter backend of django-filter (`django_filters.rest_framework.DjangoFilterBackend`):
 * a view's `filtersetClass`, or a filter set generated from its `filtersetFields`, filters
 * the list by the query parameters; a value that does not parse is a 400 naming the
 * parameter (`{"price__gte": ["Enter a number."]}`), never an empty list.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override filterBackends = [DjangoFilterBackend];
 *   filtersetFields = { price: ['gte', 'lte'], state: ['exact', 'in'], publication_date: ['year'] };
 * }
 * // GET /books/?price__gte=10&state__in=published,in_progress&publication_date__year=2021
 * ```
 * @module
 */
import { InvalidLookupValueError } from '../db/database-errors.ts';
import type { QuerySet } from '../db/query-set.ts';
import { ValidationError } from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { Request } from '../http/request.ts';
import { BoundedCache, ownPlan } from '../utils/bounded-cache.ts';
import { BaseFilterBackend, type FilterBackend } from './filter-backend.ts';
import {
  type BoundFilter,
  type FilterErrors,
  FilterSet,
  type FiltersetFields,
  type PreparedFilterSet,
} from './filter-set.ts';
import { missingCapability } from './missing-capability.ts';

/** What a view using {@link DjangoFilterBackend} may declare. */
export interface FilterView {
  /** A filter set class (`FilterSet.with({...})`), as DRF's `filterset_class`. */
  readonly filtersetClass?: typeof FilterSet | undefined;
  /** Paths to filter by, or paths mapped to lookups, as DRF's `filterset_fields`. */
  readonly filtersetFields?: FiltersetFields | undefined;
  /**
   * Answer 400 for a query parameter no filter, no other filter backend and no paginator
   * reads, instead of ignoring it (django-filter ignores it).
   */
  readonly filtersetStrict?: boolean | undefined;
  /**
   * The view's query set: the model of `filtersetFields`, the one a `filtersetClass` must match.
   */
  readonly queryset?: QuerySet<any> | undefined;
  /** The request being answered, when there is one (the schema is made without). */
  readonly request?: Request | undefined;
  /**
   * The view's other filter backends: with `filtersetStrict`, the parameters they read are not
   * unknown.
   */
  readonly getFilterBackends?: () => FilterBackend[];
  /**
   * The view's paginator: with `filtersetStrict`, its parameters (`page`, `limit`) are not unknown.
   */
  readonly paginator?: {
    /** The paginator's query parameters, as the OpenAPI document lists them. */
    getSchemaOperationParameters?(view: unknown): Record<string, unknown>[];
  } | null;
}

/** The parameters of a view's filter set: every name a client may send, with its filter. */
export interface FilterParameters {
  /** The filter set class: the view's `filtersetClass`, or one made from its `filtersetFields`. */
  readonly filterset: typeof FilterSet;
  /** Client names (the filter set's, and aliases such as nested proxy names) → filter. */
  readonly byName: ReadonlyMap<string, BoundFilter>;
}

const CODE = 'REST_ERR_FILTERSET';
const MAX_VALUE_LENGTH = 1000;

/** Where a view class keeps its parameters, by backend class (built at registration by check()). */
const PARAMETERS = Symbol('filter parameters by backend');

/**
 * Filters a list by django-filter's query parameters. Steps, each a method to override:
 * {@link getFiltersetClass} → {@link getFilterParameters} → {@link getFiltersetData} →
 * {@link filterQueryset}. The router calls {@link check} at start-up, which builds the
 * filter set once and fails on a path, lookup or method that does not exist.
 *
 * @example
 * ```ts
 * class AuthorViewSet extends ModelViewSet {
 *   override filterBackends = [DjangoFilterBackend];
 *   filtersetFields = ['name', 'email'];
 *   filtersetStrict = true; // ?nope=1 is a 400
 * }
 * ```
 */
export class DjangoFilterBackend extends BaseFilterBackend {
  /**
   * The view's filter set class: its `filtersetClass` (its model must be the query set's),
   * else one generated from `filtersetFields`, else null (the backend does nothing).
   */
  getFiltersetClass(
    view: FilterView,
    queryset: QuerySet<any> | undefined,
  ): typeof FilterSet | null {
    const where = view.constructor.name;
    const declared = view.filtersetClass;
    if (declared) {
      if (!(declared.prototype instanceof FilterSet)) {
        throw new ImproperlyConfigured(
          CODE,
          `${where}.filtersetClass is not a filter set: declare class X extends FilterSet.with({ model, fields }) {}.`,
        );
      }
      const model = declared.prepare().model;
      if (queryset && model !== queryset.model) {
        throw new ImproperlyConfigured(
          CODE,
          `${where}.filtersetClass filters ${model.name}, but the view's query set is of ${queryset.model.name}: declare the filter set with model: ${queryset.model.name}.`,
        );
      }
      return declared;
    }
    const fields = view.filtersetFields;
    if (fields === undefined || fields === null) return null;
    if (!queryset) {
      throw new ImproperlyConfigured(
        CODE,
        `${where}.filtersetFields needs the view's queryset to know the model: set queryset, or declare filtersetClass.`,
      );
    }
    const Generated = FilterSet.with({ model: queryset.model, fields });
    Object.defineProperty(Generated, 'name', { value: `${where}.filtersetFields` });
    return Generated;
  }

  /**
   * The names a client may send, each with its filter: the filter set's parameters. An
   * add-on overrides this to publish more names for the same filters (tricks publishes
   * `stock_information__price__gte` for `price__gte`); a name must never come from a request.
   */
  getFilterParameters(prepared: PreparedFilterSet, _view: FilterView): Map<string, BoundFilter> {
    return new Map(prepared.filters);
  }

  /** The parameters of `view`, built once per view class (null: no filter set). */
  parametersOf(view: FilterView): FilterParameters | null {
    const byBackend = ownPlan(
      view.constructor,
      PARAMETERS,
      () => new BoundedCache<Function, FilterParameters | null>('filter parameters', 16),
    );
    let plan = byBackend.get(this.constructor);
    if (plan === undefined) byBackend.set(this.constructor, (plan = parametersOfClass(this, view)));
    return plan;
  }

  /**
   * Start-up check (called by the router): builds the filter set, so mistakes fail now; a
   * `regex`/`iregex` filter on a database without regular expressions fails here too, and an
   * `unaccent__*` one on a database that cannot fold accents.
   */
  check(view: FilterView): void {
    const parameters = this.parametersOf(view);
    if (!parameters || !view.queryset) return;
    for (const bound of parameters.byName.values()) {
      const regex = bound.lookup === 'regex' || bound.lookup === 'iregex';
      const accents = bound.lookup.startsWith('unaccent__');
      if (!regex && !accents) continue;
      const vendor = missingCapability(view.queryset, regex ? 'regex' : 'accentFolding');
      if (!vendor) continue;
      throw new ImproperlyConfigured(
        CODE,
        regex
          ? `${view.constructor.name}: the filter "${bound.param}" uses the ${bound.lookup} lookup, which ${vendor} does not have; ` +
              'use icontains/istartswith, or a database whose adapter declares capabilities.regex (PostgreSQL).'
          : `${view.constructor.name}: the filter "${bound.param}" uses the ${bound.lookup} lookup, which folds accents, and ${vendor} cannot; ` +
              `use ${bound.lookup.slice('unaccent__'.length)} (it folds case, keeps accents), or a database whose adapter declares capabilities.accentFolding (SQLite, PostgreSQL).`,
      );
    }
  }

  /**
   * The data the filter set parses, keyed by its own parameter names: each query parameter
   * a filter reads (under any of its names), its last value (as Django's `QueryDict.get`);
   * `sentAs` records the name the client used, which its error is keyed by.
   */
  getFiltersetData(
    request: Request,
    parameters: FilterParameters,
    sentAs: Map<string, string>,
  ): Map<string, string | readonly string[]> {
    const data = new Map<string, string | readonly string[]>();
    const query = request.query as Record<string, unknown>;
    for (const name in query) {
      if (!Object.hasOwn(query, name)) continue;
      const bound = parameters.byName.get(name);
      if (!bound) continue;
      if (bound.filter.multiple) {
        // Every value, of a repeated parameter (`?tag=a&tag=b`) or a comma-separated one
        // (`?tag=a,b`), for a filter taking them all.
        data.set(bound.param, request.queryList(name));
      } else if (bound.filter.listShaped) {
        // An `in` list or a `range` pair, in either form: `?state__in=a,b` or
        // `?state__in=a&state__in=b` (a generated client's default), read as one list.
        data.set(bound.param, request.queryList(name).join(','));
      } else data.set(bound.param, request.queryParam(name) ?? '');
      sentAs.set(bound.param, name);
    }
    return data;
  }

  override filterQueryset(
    request: Request,
    queryset: QuerySet<any>,
    view: FilterView,
  ): QuerySet<any> | Promise<QuerySet<any>> {
    const parameters = this.parametersOf(view);
    if (view.filtersetStrict) rejectUnknown(request, view, parameters);
    if (!parameters) return queryset;
    const sentAs = new Map<string, string>();
    const data = this.getFiltersetData(request, parameters, sentAs);
    if (data.size === 0) return queryset;
    const errors: FilterErrors = {};
    for (const [param, text] of data) {
      const texts = typeof text === 'string' ? [text] : text;
      if (texts.every((t) => t.length <= MAX_VALUE_LENGTH)) continue;
      errors[sentAs.get(param) ?? param] = [
        `Ensure this value has at most ${MAX_VALUE_LENGTH} characters.`,
      ];
      data.delete(param);
    }
    const filterset = new parameters.filterset(data, queryset);
    for (const [param, messages] of Object.entries(filterset.errors)) {
      errors[sentAs.get(param) ?? param] = messages;
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    try {
      return filterset.qs;
    } catch (error) {
      // A parsed value the column still cannot hold: the client's, so a 400.
      if (error instanceof InvalidLookupValueError)
        throw new ValidationError({ detail: [error.message] });
      throw error;
    }
  }

  /**
   * One OpenAPI parameter per filter name: its type (integer, number, boolean, date,
   * date-time, an enum of choices); `in`, `range` and multiple choices as arrays, sent as
   * repeated keys or one comma-separated value.
   */
  getSchemaOperationParameters(view: FilterView): Record<string, unknown>[] {
    const parameters = this.parametersOf(view);
    if (!parameters) return [];
    return [...parameters.byName].map(([name, bound]) => {
      const schema = bound.filter.schema(bound.field);
      return {
        name,
        required: false,
        in: 'query',
        description: bound.label,
        schema,
        // Lists are read as repeated keys or one comma-separated value; repeated keys are
        // what generated clients send by default, so that is the form the document names.
        ...(schema.type === 'array' ? { style: 'form', explode: true } : {}),
      };
    });
  }

  /**
   * The browsable API's filter form (DRF's "Filters" dialog): one input per filter, a select
   * for booleans and choices (several at once for an `in` of choices), with the current
   * request's values, and each parameter's schema and lookup so that the form picks an input
   * of the value's type (a date, a number) and says how to write a list (`in`, `range`).
   */
  describe(view: FilterView): Record<string, unknown> | undefined {
    const parameters = this.parametersOf(view);
    if (!parameters) return undefined;
    const request = view.request;
    return {
      title: 'Filters',
      fields: [...parameters.byName]
        .filter(([name, bound]) => name === bound.param)
        .map(([name, bound]) => {
          const lookup = bound.filter.lookupExpr;
          const options =
            bound.filter.formChoices(bound.field) ??
            (lookup === 'in' ? bound.filter.ownChoices(bound.field) : undefined);
          return {
            param: name,
            label: bound.label,
            current: request?.queryParam(name) ?? '',
            schema: bound.filter.schema(bound.field),
            lookup,
            ...(options ? { options } : {}),
          };
        }),
    };
  }
}

/** The parameters of a view class for a backend class. */
function parametersOfClass(
  backend: DjangoFilterBackend,
  view: FilterView,
): FilterParameters | null {
  const filterset = backend.getFiltersetClass(view, view.queryset ?? querysetOf(view));
  return filterset
    ? { filterset, byName: backend.getFilterParameters(filterset.prepare(), view) }
    : null;
}

/**
 * `filtersetStrict`: 400 naming each query parameter that no filter, no other filter backend
 * and no paginator reads. A function, not a private method: a private method marks every
 * instance in its constructor, and a backend is made per request.
 */
function rejectUnknown(
  request: Request,
  view: FilterView,
  parameters: FilterParameters | null,
): void {
  const known = new Set<string>(parameters ? parameters.byName.keys() : []);
  known.add(request.settings.URL_FORMAT_OVERRIDE);
  for (const backend of view.getFilterBackends?.() ?? []) {
    if (backend instanceof DjangoFilterBackend) continue;
    for (const p of backend.getSchemaOperationParameters?.(view) ?? []) known.add(String(p.name));
    const described = backend.describe?.(view)?.param;
    if (typeof described === 'string') known.add(described);
    // DRF's own ordering and search filters, which describe nothing without their fields.
    const own = backend as {
      getOrderingParam?(r: Request): string;
      getSearchParam?(r: Request): string;
    };
    if (own.getOrderingParam) known.add(own.getOrderingParam(request));
    if (own.getSearchParam) known.add(own.getSearchParam(request));
  }
  for (const p of view.paginator?.getSchemaOperationParameters?.(view) ?? [])
    known.add(String(p.name));
  const unknown = Object.keys(request.query as object).filter((name) => !known.has(name));
  if (unknown.length === 0) return;
  const valid = [...(parameters?.byName.keys() ?? [])].join(', ') || '(none)';
  throw new ValidationError(
    Object.fromEntries(
      unknown
        .slice(0, 20)
        .map((name) => [name, [`Unknown filter parameter. Valid filters: ${valid}.`]]),
    ),
  );
}

/** A view's query set without a request (its `getQueryset()` may need one: then undefined). */
function querysetOf(view: FilterView): QuerySet<any> | undefined {
  try {
    return (view as { getQueryset?: () => QuerySet<any> }).getQueryset?.();
  } catch {
    return undefined;
  }
}
