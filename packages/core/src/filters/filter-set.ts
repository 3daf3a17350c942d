/**
 * Filter sets, as django-filter's `FilterSet`: the filters of one model, generated from a
 * list or mapping of field paths and lookups (`Meta.fields`) and declared one by one, built
 * and checked once per class; per request, the query parameters are parsed and every error
 * is collected before any filter applies.
 *
 * @example
 * ```ts
 * class BookFilterSet extends FilterSet.with({
 *   model: Book,
 *   fields: { price: ['gte', 'lte'], state: ['exact', 'in'], publication_date: ['year'] },
 *   filters: {
 *     title: new CharFilter({ lookupExpr: 'icontains' }),
 *     in_stock: new BooleanFilter({ method: 'filterInStock' }),
 *   },
 * }) {
 *   filterInStock(queryset: QuerySet<any>, _name: string, value: unknown) {
 *     return value ? queryset.filter({ stock_count__gt: 0 }) : queryset.filter({ stock_count: 0 });
 *   }
 * }
 * // GET /books/?price__gte=10&state__in=published,in_progress&in_stock=true
 * ```
 * @module
 */
import { LOOKUPS, type Lookup, lookupsFor } from '../db/lookups.ts';
import type { QuerySet } from '../db/query-set.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';
import { ownPlan } from '../utils/bounded-cache.ts';
import { reduceMaybe } from '../utils/maybe-promise.ts';
import { labelFromName } from '../utils/text.ts';
import {
  FieldFilter,
  type FilterMethod,
  FilterValueError,
  filterClassFor,
} from './field-filter.ts';
import { ModelMultipleChoiceFilter } from './model-multiple-choice-filter.ts';

/**
 * The fields of a generated filter set (django-filter's `Meta.fields`, DRF's
 * `filterset_fields`): a list of paths (each filtered by `exact`), a mapping from path to its
 * lookups, or `'__all__'` (every field of the model, `exact`).
 */
export type FiltersetFields =
  | readonly string[]
  | Readonly<Record<string, readonly Lookup[]>>
  | '__all__';

/** What `FilterSet.with` accepts (django-filter's `Meta` plus the declared filters). */
export interface FilterSetDeclaration {
  /** The model filtered: paths resolve on it, and the view's query set must be of it. */
  readonly model: AnyModel;
  /**
   * Paths to make filters for (`['title', 'price']`), paths mapped to lookups (`{ price: ['gte',
   * 'lte'] }`), or `'__all__'`.
   */
  readonly fields?: FiltersetFields;
  /** Fields left out of `'__all__'`. */
  readonly exclude?: readonly string[];
  /** Filters declared by parameter name; they win over generated ones of the same name. */
  readonly filters?: Readonly<Record<string, FieldFilter>>;
}

/** A filter of a prepared filter set: its parameter, path, lookup and model field. */
export interface BoundFilter {
  /** The query parameter (`price__gte`). */
  readonly param: string;
  /** The filter that parses the parameter's text. */
  readonly filter: FieldFilter;
  /** The model path (`price`, `user__email`); empty for a method filter without one. */
  readonly path: string;
  /** The lookup applied (`exact`, `gte`, `icontains`...). */
  readonly lookup: Lookup;
  /** The model field at the end of the path, when the path names one. */
  readonly field: AnyModelField | undefined;
  /**
   * What people read for it (the browsable API's form, the OpenAPI description): the filter's
   * `label`, else made from the parameter (`Price gte`).
   */
  readonly label: string;
  /** The key handed to `filter()`/`exclude()` (`price__gte`, `state` for exact). */
  readonly key: string;
}

/** A filter set class as prepared once: its model and filters by parameter. */
export interface PreparedFilterSet {
  /** The model of the declaration. */
  readonly model: AnyModel;
  /** Every filter, by its query parameter. */
  readonly filters: ReadonlyMap<string, BoundFilter>;
}

/** Parameter errors of one request, keyed by parameter. */
export type FilterErrors = Record<string, string[]>;

const CODE = 'REST_ERR_FILTERSET';
const PREPARED = Symbol('prepared filter set');

/**
 * A filter set: declare it with {@link FilterSet.with}; a backend ({@link DjangoFilterBackend})
 * makes one per request: `new BookFilterSet(params, queryset)`, then {@link isValid},
 * {@link errors} and {@link qs}, as django-filter's.
 *
 * @example
 * ```ts
 * class BookFilterSet extends FilterSet.with({
 *   model: Book,
 *   fields: { price: ['gte', 'lte'], state: ['exact', 'in'] },
 * }) {}
 * const filterset = new BookFilterSet(new Map([['price__gte', '10']]), Book.objects.using(db));
 * if (filterset.isValid()) await (await filterset.qs).execute(); // the books at 10 or more
 * else filterset.errors; // the 400's body, as { price__gte: ['Enter a number.'] } for 'ten'
 * ```
 */
export class FilterSet {
  /** The declaration of this class (set by {@link FilterSet.with}). */
  static declaration: FilterSetDeclaration | undefined = undefined;

  /** A filter set class for `declaration`, to extend (`class X extends FilterSet.with({...}) {}`). */
  static with<T extends typeof FilterSet>(this: T, declaration: FilterSetDeclaration): T {
    const Base = this as typeof FilterSet;
    const Declared = class extends Base {
      static override declaration = declaration;
    };
    return Declared as unknown as T;
  }

  /**
   * The filters of this class, built and checked once: a path or lookup that does not
   * exist, a `method` the class lacks, fails here with `ImproperlyConfigured`
   * (`REST_ERR_FILTERSET`) naming the class, the filter and what to change.
   */
  static prepare(): PreparedFilterSet {
    return ownPlan(this, PREPARED, () => buildFilterSet(this));
  }

  /** The query parameters of the request (see the constructor). */
  readonly data: ReadonlyMap<string, string | readonly string[]>;
  /** The query set to narrow; {@link qs} is it filtered. */
  readonly queryset: QuerySet<any>;
  #errors: FilterErrors | undefined;
  #values: [BoundFilter, unknown][] = [];

  /**
   * `data`: the query parameters, one value each (the last one of a repeated key), or every
   * value of a repeated one for a filter that takes them all (`ModelMultipleChoiceFilter`).
   */
  constructor(data: ReadonlyMap<string, string | readonly string[]>, queryset: QuerySet<any>) {
    this.data = data;
    this.queryset = queryset;
  }

  /** The prepared filters of this instance's class. */
  get prepared(): PreparedFilterSet {
    return (this.constructor as typeof FilterSet).prepare();
  }

  /** True when every parameter sent parsed; empty values are no filter (django-filter's). */
  isValid(): boolean {
    return Object.keys(this.errors).length === 0;
  }

  /** The messages of the parameters that did not parse, by parameter. */
  get errors(): FilterErrors {
    if (this.#errors) return this.#errors;
    const errors: FilterErrors = {};
    const values: [BoundFilter, unknown][] = [];
    const filters = this.prepared.filters;
    for (const [param, text] of this.data) {
      const bound = filters.get(param);
      if (!bound || text === '' || text.length === 0) continue;
      try {
        const value =
          typeof text === 'string'
            ? bound.filter.parse(text, bound.field)
            : bound.filter.parseList(text, bound.field);
        if ((bound.lookup === 'in' || bound.filter.multiple) && (value as unknown[]).length === 0)
          continue;
        values.push([bound, value]);
      } catch (error) {
        if (!(error instanceof FilterValueError)) throw error;
        errors[param] = [error.message];
      }
    }
    this.#values = values;
    this.#errors = errors;
    return errors;
  }

  /**
   * The query set filtered by every valid parameter. Plain lookups go into one `filter()`
   * (one condition, one SQL shape per set of parameters); `exclude` and `method` filters
   * each apply on their own. Throws {@link FilterValueError}-keyed errors through
   * {@link errors} first: call {@link isValid} before.
   */
  get qs(): QuerySet<any> | Promise<QuerySet<any>> {
    if (!this.isValid()) return this.queryset;
    let queryset = this.queryset;
    let plain: Record<string, unknown> | undefined;
    const later: [BoundFilter, unknown][] = [];
    for (const entry of this.#values) {
      const [bound, value] = entry;
      if (bound.filter.options.method || bound.filter.options.exclude || bound.filter.multiple) {
        later.push(entry);
        continue;
      }
      plain ??= {};
      // The same key twice (a name and its alias): its own condition, so both apply.
      if (Object.hasOwn(plain, bound.key)) queryset = queryset.filter({ [bound.key]: value });
      else plain[bound.key] = value;
    }
    if (plain) queryset = queryset.filter(plain);
    return reduceMaybe(later, queryset, (filtered, [bound, value]) => {
      const method = bound.filter.options.method;
      if (!method) return bound.filter.apply(filtered, bound.key, value, bound.param);
      const fn =
        typeof method === 'string'
          ? ((this as unknown as Record<string, FilterMethod>)[method] as FilterMethod)
          : method;
      return fn.call(this, filtered, bound.param, value);
    });
  }
}

function buildFilterSet(cls: typeof FilterSet): PreparedFilterSet {
  const declaration = cls.declaration;
  const where = cls.name || 'FilterSet';
  if (!declaration?.model) {
    throw new ImproperlyConfigured(
      CODE,
      `${where} has no model: declare it as FilterSet.with({ model: Book, fields: [...] }).`,
    );
  }
  const model = declaration.model;
  const filters = new Map<string, BoundFilter>();
  for (const [path, lookups] of generatedFields(declaration, where)) {
    for (const lookup of lookups) {
      const field = resolveField(model, path, `${where}.fields: "${path}"`);
      checkLookup(field, lookup, `${where}.fields: "${path}"`);
      const param = lookup === 'exact' ? path : `${path}__${lookup}`;
      // A path ending on a relation holding many rows (`tags`) chooses among its rows.
      const Filter =
        lookup === 'exact' && endsOnManyRelation(model, path)
          ? ModelMultipleChoiceFilter
          : filterClassFor(field, lookup);
      filters.set(param, bind(param, new Filter({ lookupExpr: lookup }), path, field));
    }
  }
  for (const [param, filter] of Object.entries(declaration.filters ?? {})) {
    const what = `${where}.filters.${param}`;
    if (!(filter instanceof FieldFilter)) {
      throw new ImproperlyConfigured(
        CODE,
        `${what} is not a filter: declare new CharFilter({...}), new NumberFilter({...}) and the like.`,
      );
    }
    const method = filter.options.method;
    if (typeof method === 'string' && typeof (cls.prototype as any)[method] !== 'function') {
      throw new ImproperlyConfigured(
        CODE,
        `${what} names the method "${method}", which ${where} does not define: add ${method}(queryset, name, value) to the class, or pass a function.`,
      );
    }
    if (method !== undefined && typeof method !== 'string' && typeof method !== 'function') {
      throw new ImproperlyConfigured(CODE, `${what}: method must be a method name or a function.`);
    }
    const path = filter.options.fieldName ?? (method ? '' : param);
    const field = path ? resolveField(model, path, what) : undefined;
    if (field) checkLookup(field, filter.lookupExpr, what);
    if (!(LOOKUPS as readonly string[]).includes(filter.lookupExpr)) {
      throw new ImproperlyConfigured(
        CODE,
        `${what}: "${filter.lookupExpr}" is no lookup; use one of ${LOOKUPS.join(', ')}.`,
      );
    }
    filters.set(param, bind(param, filter, path, field));
  }
  return { model, filters };
}

function bind(
  param: string,
  filter: FieldFilter,
  path: string,
  field: AnyModelField | undefined,
): BoundFilter {
  const lookup = filter.lookupExpr;
  return Object.freeze({
    param,
    filter,
    path,
    lookup,
    field,
    label: filter.options.label ?? labelFromName(param.replaceAll('__', ' ')),
    key: lookup === 'exact' ? path : `${path}__${lookup}`,
  });
}

function generatedFields(
  declaration: FilterSetDeclaration,
  where: string,
): [string, readonly Lookup[]][] {
  const excluded = new Set(declaration.exclude ?? []);
  for (const name of excluded) resolveField(declaration.model, name, `${where}.exclude`);
  return listedFields(declaration.fields, declaration.model, where).filter(
    ([path]) => !excluded.has(path),
  );
}

/** The paths of `fields` with their lookups, before `exclude`. */
function listedFields(
  fields: FiltersetFields | undefined,
  model: AnyModel,
  where: string,
): [string, readonly Lookup[]][] {
  if (fields === undefined) return [];
  if (fields === '__all__') {
    return model.fieldList.map((f: AnyModelField) => [f.name, ['exact']]);
  }
  if (Array.isArray(fields)) {
    return fields.map((path) => {
      if (typeof path !== 'string') {
        throw new ImproperlyConfigured(
          CODE,
          `${where}.fields: ${JSON.stringify(path)} is not a path; list paths ('price', 'user__email').`,
        );
      }
      return [path, ['exact']];
    });
  }
  if (typeof fields === 'object' && fields !== null) {
    return Object.entries(fields).map(([path, lookups]) => {
      if (!Array.isArray(lookups) || lookups.length === 0) {
        throw new ImproperlyConfigured(
          CODE,
          `${where}.fields: "${path}" maps to ${JSON.stringify(lookups)}; map it to a non-empty list of lookups (['exact', 'gte']).`,
        );
      }
      return [path, lookups];
    });
  }
  throw new ImproperlyConfigured(
    CODE,
    `${where}.fields must be a list of paths, a mapping of paths to lookups, or '__all__'.`,
  );
}

function resolveField(model: AnyModel, path: string, what: string): AnyModelField {
  try {
    return model.resolvePath(path, what).field;
  } catch (error) {
    if (!(error instanceof ImproperlyConfigured)) throw error;
    throw new ImproperlyConfigured(
      CODE,
      `${error.message} Filter by a field of ${model.name} (${model.fieldList.map((f: AnyModelField) => f.name).join(', ')}), across relations with "__".`,
    );
  }
}

/** True when `path` ends on a many-to-many or a reverse relation (no column of its own). */
function endsOnManyRelation(model: AnyModel, path: string): boolean {
  const { relations, multiValued } = model.resolvePath(path, path);
  return multiValued && relations.length === path.split('__').length;
}

function checkLookup(field: AnyModelField, lookup: string, what: string): void {
  const supported = lookupsFor(field);
  if (!supported.has(lookup as Lookup)) {
    throw new ImproperlyConfigured(
      CODE,
      `${what}: the lookup "${lookup}" is not supported for ${field.name} (a ${field.kind} field); use one of ${[...supported].join(', ')}.`,
    );
  }
}
