/**
 * Search, as DRF's `SearchFilter`: `?search=dune herbert` keeps the rows where every term
 * matches at least one of the view's `searchFields`. A field's prefix picks how it matches:
 * none `icontains`, `^` starts with, `=` equals (ignoring case), `@` full-text search
 * (PostgreSQL's text search; elsewhere every word must be contained), `$` regular expression
 * (where the database has them: PostgreSQL, MySQL). Terms are taken literally: `%`, `_` and
 * `\` match themselves. Case is folded the same on every database (`CAFÉ` finds `café`) and
 * accents are kept, unless a path ends with `__unaccent` (`'title__unaccent'`, as Django's
 * transform), which folds them too where the database can (SQLite, PostgreSQL).
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override filterBackends = [SearchFilter];
 *   searchFields = ['title', '^isbn', '@description'];
 * }
 * // GET /books/?search=dune "first edition"
 * ```
 * @module
 */
import { LOOKUPS, type Lookup, lookupsFor } from '../db/lookups.ts';
import type { Filter, QuerySet } from '../db/query-set.ts';
import { ValidationError } from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { Request } from '../http/request.ts';
import { defaultValues } from '../settings/default-values.ts';
import { ownPlan } from '../utils/bounded-cache.ts';
import { BaseFilterBackend } from './filter-backend.ts';
import { missingCapability } from './missing-capability.ts';
import { MAX_SEARCH_LENGTH, MAX_SEARCH_TERMS, searchTerms } from './search-terms.ts';

/** What a view using {@link SearchFilter} may declare. */
export interface SearchView {
  /** Paths searched, each with an optional prefix: `^` `=` `@` `$`. */
  readonly searchFields?: readonly string[] | undefined;
  /** The view's query set: its model resolves the paths, its database says which lookups it has. */
  readonly queryset?: QuerySet<any> | undefined;
  /** The request being answered, for the parameter's name from its settings (`SEARCH_PARAM`). */
  readonly request?: Request | undefined;
}

/** A search field as prepared: its path and the lookup its prefix asks for. */
export interface SearchField {
  /** The model path searched, without its prefix (`user__email` of `=user__email`). */
  readonly path: string;
  /**
   * The lookup its prefix asks for: `icontains` without one, `istartswith` (`^`), `iexact` (`=`),
   * `search` (`@`), `iregex` (`$`).
   */
  readonly lookup: Lookup;
  /** The key handed to `filter()` (`title__icontains`). */
  readonly key: string;
}

const CODE = 'REST_ERR_SEARCH_FIELDS';
/** What a search path ends with to fold accents (`'title__unaccent'`). */
const UNACCENT = '__unaccent';
/** Where a view class keeps its prepared search fields. */
const SEARCH_FIELDS = Symbol('search fields');

/**
 * Searches a list (see the module). Steps, each a method to override: {@link getSearchFields}
 * → {@link getSearchTerms} → {@link constructSearch} → {@link filterQueryset}.
 *
 * @example
 * ```ts
 * class QSearch extends SearchFilter {
 *   override searchParam = 'q'; // ?q=dune
 * }
 * ```
 */
export class SearchFilter extends BaseFilterBackend {
  // Defaults on the prototype (below the class), as DRF's class attributes: a backend is made
  // per request, and each field defined here was one more store (and an object) per request.
  // A subclass overrides one with a field of its own (`override searchParam = 'q'`).
  /** The query parameter; defaults to the `SEARCH_PARAM` setting (`search`). */
  declare searchParam: string | undefined;
  /** The title of the browsable API's search box (DRF's `search_title`); `Search` by default. */
  declare readonly searchTitle: string;
  /**
   * The OpenAPI description of the parameter (DRF's `search_description`); `A search term.` by
   * default.
   */
  declare readonly searchDescription: string;
  /** The lookup of each prefix (DRF's `lookup_prefixes`). */
  declare readonly lookupPrefixes: Readonly<Record<string, Lookup>>;

  /**
   * The query parameter's name: {@link searchParam}, else the request's `SEARCH_PARAM` setting,
   * else `search`.
   */
  getSearchParam(request: Request | undefined): string {
    return this.searchParam ?? request?.settings.SEARCH_PARAM ?? defaultValues.SEARCH_PARAM;
  }

  /** The view's search fields, prepared and checked once per view class. */
  getSearchFields(view: SearchView): readonly SearchField[] {
    return ownPlan(view.constructor, SEARCH_FIELDS, () => prepareSearchFields(this, view));
  }

  /**
   * The terms of this request: split on spaces and commas, quoted phrases kept whole; over
   * `MAX_SEARCH_LENGTH` characters or `MAX_SEARCH_TERMS` terms is a 400.
   */
  getSearchTerms(request: Request): string[] {
    const param = this.getSearchParam(request);
    const text = request.queryParam(param);
    if (!text) return [];
    if (text.length > MAX_SEARCH_LENGTH) {
      throw new ValidationError({
        [param]: [`Ensure this value has at most ${MAX_SEARCH_LENGTH} characters.`],
      });
    }
    const terms = searchTerms(text);
    if (terms.length > MAX_SEARCH_TERMS) {
      throw new ValidationError({ [param]: [`Use at most ${MAX_SEARCH_TERMS} search terms.`] });
    }
    return terms;
  }

  /**
   * The query set narrowed by `terms`: each term must match one of the fields. Fields reach
   * only across to-one relations (ForeignKey, OneToOneField), so a row can match through
   * them at most once: results are distinct without DISTINCT.
   */
  constructSearch(
    queryset: QuerySet<any>,
    fields: readonly SearchField[],
    terms: readonly string[],
  ): QuerySet<any> {
    let result = queryset;
    for (const term of terms) {
      result = result.filterAny(fields.map((field): Filter => ({ [field.key]: term })));
    }
    return result;
  }

  override filterQueryset(
    request: Request,
    queryset: QuerySet<any>,
    view: SearchView,
  ): QuerySet<any> {
    const fields = this.getSearchFields(view);
    if (fields.length === 0) return queryset;
    const terms = this.getSearchTerms(request);
    if (terms.length === 0) return queryset;
    return this.constructSearch(queryset, fields, terms);
  }

  /**
   * Start-up check (called by the router): every path must be a text field of the model
   * (across to-one relations), a `$` field needs a database with regular expressions, and
   * an `__unaccent` one a database that folds accents.
   */
  check(view: SearchView): void {
    const fields = this.getSearchFields(view);
    const where = `${view.constructor.name}.searchFields`;
    if (fields.some((field) => field.lookup === 'iregex')) {
      const vendor = missingCapability(view.queryset, 'regex');
      if (vendor) {
        throw new ImproperlyConfigured(
          CODE,
          `${where}: "$" searches by regular expression, which ${vendor} does not have; ` +
            'use "^", "=", "@" or no prefix, or a database whose adapter declares capabilities.regex (PostgreSQL).',
        );
      }
    }
    const folded = fields.find((field) => field.lookup.startsWith('unaccent__'));
    const vendor = folded && missingCapability(view.queryset, 'accentFolding');
    if (folded && vendor) {
      throw new ImproperlyConfigured(
        CODE,
        `${where}: "${folded.path}__unaccent" folds accents, which ${vendor} cannot; ` +
          `search "${folded.path}" (it folds case, keeps accents), or use a database whose adapter declares capabilities.accentFolding (SQLite, PostgreSQL).`,
      );
    }
  }

  /**
   * The OpenAPI parameter of the search (none when the view has no `searchFields`): a string of at
   * most `MAX_SEARCH_LENGTH` characters.
   */
  getSchemaOperationParameters(view: SearchView): Record<string, unknown>[] {
    if (this.getSearchFields(view).length === 0) return [];
    return [
      {
        name: this.getSearchParam(view.request),
        required: false,
        in: 'query',
        description: this.searchDescription,
        schema: { type: 'string', maxLength: MAX_SEARCH_LENGTH },
      },
    ];
  }

  /** The browsable API's search box. */
  describe(view: SearchView): Record<string, unknown> | undefined {
    if (this.getSearchFields(view).length === 0) return undefined;
    return { param: this.getSearchParam(view.request), title: this.searchTitle };
  }
}

Object.assign(SearchFilter.prototype, {
  searchParam: undefined,
  searchTitle: 'Search',
  searchDescription: 'A search term.',
  lookupPrefixes: Object.freeze({ '^': 'istartswith', '=': 'iexact', '@': 'search', $: 'iregex' }),
});

/** The view's search fields, checked: each prefix's lookup, each path a text field. */
function prepareSearchFields(filter: SearchFilter, view: SearchView): readonly SearchField[] {
  const where = `${view.constructor.name}.searchFields`;
  const declared = view.searchFields;
  if (declared === undefined || declared === null) return [];
  if (!Array.isArray(declared)) {
    throw new ImproperlyConfigured(
      CODE,
      `${where} must be a list of paths, each with an optional prefix (['title', '^isbn', '=user__email']).`,
    );
  }
  const model = view.queryset?.model;
  if (!model) {
    throw new ImproperlyConfigured(
      CODE,
      `${where} needs the view's queryset to know the model: set queryset on the view.`,
    );
  }
  return declared.map((entry: unknown) => {
    if (typeof entry !== 'string' || entry === '') {
      throw new ImproperlyConfigured(CODE, `${where}: ${JSON.stringify(entry)} is not a path.`);
    }
    const prefix = entry[0] as string;
    let lookup: Lookup = filter.lookupPrefixes[prefix] ?? 'icontains';
    let path = Object.hasOwn(filter.lookupPrefixes, prefix) ? entry.slice(1) : entry;
    // `title__unaccent`: Django's transform, accents folded before the prefix's lookup.
    if (path.endsWith(UNACCENT)) {
      const folded = `unaccent__${lookup}`;
      if (!(LOOKUPS as readonly string[]).includes(folded)) {
        throw new ImproperlyConfigured(
          CODE,
          `${where}: "${entry}" folds accents, which only the searches with no prefix, "^" and "=" do; drop "__unaccent" or the prefix.`,
        );
      }
      path = path.slice(0, -UNACCENT.length);
      lookup = folded as Lookup;
    }
    let field: ReturnType<typeof model.resolvePath>['field'];
    try {
      field = model.resolvePath(path, `${where}: "${entry}"`).field;
    } catch (error) {
      if (!(error instanceof ImproperlyConfigured)) throw error;
      throw new ImproperlyConfigured(
        CODE,
        `${error.message} Search text fields of ${model.name}, across relations with "__".`,
      );
    }
    if (!lookupsFor(field).has(lookup) || !field.isText) {
      throw new ImproperlyConfigured(
        CODE,
        `${where}: "${entry}" is a ${field.kind} field; search text fields (char, text, email, url) only, or filter it with DjangoFilterBackend.`,
      );
    }
    return Object.freeze({ path, lookup, key: `${path}__${lookup}` });
  });
}
