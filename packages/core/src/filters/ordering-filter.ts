/**
 * Ordering of lists from the `ordering` query parameter, as DRF's `OrderingFilter`:
 * `?ordering=title,-price`, names whitelisted by the view's `orderingFields`. The filter checks
 * the view's declarations at start-up and describes itself to the OpenAPI schema and the
 * browsable API.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override filterBackends = [OrderingFilter];
 *   orderingFields = ['title', 'price', 'author__name'];
 *   ordering = ['id'];
 * }
 * // GET /books/?ordering=-price,title → ORDER BY price DESC, title
 * ```
 *
 * An annotation of the view's query set is a name like a field's (DRF's too):
 *
 * ```ts-fragment
 * class ArticleViewSet extends ModelViewSet {
 *   override queryset = Article.objects.annotate({ favoritesCount: Count('favoritedBy') });
 *   override filterBackends = [OrderingFilter];
 *   orderingFields = ['title', 'favoritesCount'];
 * }
 * // GET /articles/?ordering=-favoritesCount → ORDER BY the count, descending
 * ```
 * @module
 */
import { reverseTerm, termPath } from '../db/order-term.ts';
import type { QuerySet } from '../db/query-set.ts';
import { ValidationError } from '../errors/api-exception.ts';
import type { Request } from '../http/request.ts';
import type { AnyModelField } from '../models/model-field.ts';
import { type PreparedSerializer, Serializer } from '../serializers/serializer.ts';
import { defaultValues } from '../settings/default-values.ts';
import { BaseFilterBackend } from './filter-backend.ts';
import {
  annotationNames,
  checkDefaultOrdering,
  checkOrderingList,
  checkOrderingName,
  checkOrderingPath,
} from './ordering-check.ts';

/** A name a client may order by, the query paths it sorts by, and a label for people. */
export interface OrderingOption {
  /** The name a client sends in the parameter (`title`, or a mapped name such as `author`). */
  readonly param: string;
  /** Model paths (`user__email`), each with an optional leading `-`. */
  readonly paths: readonly string[];
  /** What people read for it in the browsable API (`Title`). */
  readonly label: string;
}

/** What an ordering view may declare. */
export interface OrderingView {
  /**
   * Names clients may order by: a list of model paths (`['title', 'author__name']`), `'__all__'`
   * for every field of the model, or none for the serializer's readable fields. Add-ons accept
   * more forms (tricks: a mapping of names to paths).
   */
  readonly orderingFields?: unknown;
  /** The ordering when the client asks for none usable (paths, `-` for descending). */
  readonly ordering?: string | readonly string[];
  /** Answer 400 for a name that is not valid, instead of dropping it (DRF drops it). */
  readonly orderingStrict?: boolean | undefined;
  /**
   * The view's query set: its model resolves the paths (and `'__all__'`), its annotations may be
   * ordered by.
   */
  readonly queryset?: QuerySet<any> | undefined;
  /**
   * The view's query set when it builds one per request; read in place of {@link queryset} at
   * start-up.
   */
  readonly getQueryset?: () => QuerySet<any>;
  /**
   * The view's serializer: without `orderingFields`, its readable fields that are columns are the
   * names allowed.
   */
  readonly getSerializerClass?: () => {
    /** The serializer class's plan: its fields, read once per class. */
    prepare(): PreparedSerializer;
  };
  /** The request, when the view is serving one (the schema and `describe` read its settings). */
  readonly request?: Request | undefined;
}

/** A choice the browsable API offers: `value` goes into the query parameter. */
export interface OrderingChoice {
  /** The text for the query parameter (`title`, `-title`). */
  readonly value: string;
  /** What people read (`Title - ascending`). */
  readonly label: string;
}

/** What {@link OrderingFilter.describe} returns for the browsable API. */
export interface OrderingDescription extends Record<string, unknown> {
  /** The query parameter (`ordering`). */
  readonly param: string;
  /** The title of the control (the filter's {@link OrderingFilter.orderingTitle}). */
  readonly title: string;
  /** Every name, ascending then descending (`email`, `-email`, ...), in declaration order. */
  readonly options: readonly OrderingChoice[];
  /** The valid names of the current request (`['-email']`), when the view serves one. */
  readonly current?: readonly string[];
}

/**
 * Orders by the names in `?ordering=` that the view allows:
 *
 * - the value is a comma-separated list; each name is trimmed; empty names are ignored;
 * - only a leading `-` means descending, so `--title` is no name at all;
 * - names that are not valid are dropped (DRF's behaviour), or, with `orderingStrict = true`
 *   on the view, answered with 400 `{"ordering": ["Unknown ordering name \"x\". Valid names:
 *   title, price."]}` (the key is the query parameter's actual name; one message per name);
 * - with no valid name left, the view's `ordering` applies, else the query set's own;
 * - a path that a previous term already sorts by is left out (a repeat never changes the
 *   order), so a long parameter cannot make a long ORDER BY.
 *
 * Steps, each a method to override: {@link getOrdering} → {@link removeInvalidFields} →
 * {@link getValidFields} (→ {@link getDeclaredFields} or {@link getDefaultValidFields});
 * {@link getDefaultOrdering}. The router calls {@link check} at start-up; the schema generator
 * {@link getSchemaOperationParameters}; the browsable API {@link describe}.
 *
 * WARNING! Column names cannot be passed to the database as parameters: an ordering path
 * becomes an identifier in the SQL. This filter only ever orders by paths the view declared,
 * after looking the client's name up in that whitelist (a `Map`, so `__proto__` and other
 * inherited keys are no names). An override of {@link getValidFields}, {@link getOrdering} or
 * {@link removeInvalidFields} must keep it that way: __never__ return a path built from, or
 * copied from, request input.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override filterBackends = [OrderingFilter];
 *   orderingFields = ['title', 'price'];
 *   ordering = ['id'];
 * }
 * ```
 */
export class OrderingFilter extends BaseFilterBackend {
  // Defaults on the prototype (below the class), as DRF's class attributes: a backend is made
  // per request, and each field defined here was one more store per request. A subclass
  // overrides one with a field of its own (`override orderingParam = 'sort'`).
  /** The query parameter; defaults to the `ORDERING_PARAM` setting. */
  declare orderingParam: string | undefined;
  /**
   * The title of the browsable API's ordering control (DRF's `ordering_title`); `Ordering` by
   * default.
   */
  declare readonly orderingTitle: string;
  /**
   * The OpenAPI description of the parameter (DRF's `ordering_description`); `Which field to use
   * when ordering the results.` by default.
   */
  declare readonly orderingDescription: string;
  /** The forms `orderingFields` may take, for the start-up error of any other value. */
  declare readonly orderingFieldsForms: string;

  /** The query parameter this filter reads: its own, else the request's `ORDERING_PARAM`. */
  getOrderingParam(request: Request | undefined): string {
    return this.orderingParam ?? request?.settings?.ORDERING_PARAM ?? defaultValues.ORDERING_PARAM;
  }

  /**
   * The sort keys for this request, applied to the query set as they are: the valid names'
   * paths, else the view's `ordering`, else null (the query set keeps its own ordering).
   *
   * WARNING! Whatever this returns becomes column references in ORDER BY: it must come from
   * the view's declarations, never from the request.
   */
  getOrdering(
    request: Request,
    queryset: QuerySet<any>,
    view: OrderingView,
  ): readonly string[] | null {
    // `?ordering=-price,title` and `?ordering=-price&ordering=title` (a generated client's
    // default for an array) are the same sort.
    const names = trimmedNames(request.queryList(this.getOrderingParam(request)));
    if (names.length) {
      const ordering = this.removeInvalidFields(queryset, names, view, request);
      if (ordering.length) return ordering;
    }
    return this.getDefaultOrdering(view);
  }

  /** The view's `ordering`, or null to keep the query set's own. */
  getDefaultOrdering(view: OrderingView): readonly string[] | null {
    const ordering = view.ordering;
    if (ordering === undefined || ordering === null) return null;
    return typeof ordering === 'string' ? [ordering] : ordering;
  }

  /**
   * The names clients may use, with their paths: the view's declared names
   * ({@link getDeclaredFields}), every model field for `'__all__'`, or by default the
   * serializer's readable fields with a plain source. `context` holds `{ request }` when
   * called for a request; it defaults to `{}`.
   *
   * WARNING! The paths returned here become column references in ORDER BY. Return only
   * declared paths: never a name or path taken from the request.
   */
  getValidFields(
    queryset: QuerySet<any>,
    view: OrderingView,
    _context: Readonly<Record<string, unknown>> = {},
  ): OrderingOption[] {
    const declared = this.getDeclaredFields(view);
    if (declared) return declared;
    const fields = view.orderingFields;
    if (fields === undefined || fields === null) return this.getDefaultValidFields(queryset, view);
    if (fields === '__all__') {
      // Every field, and every annotation of the query set (DRF's `'__all__'` too).
      return [
        ...queryset.model.fieldList.map((f: AnyModelField) => ({
          param: f.name,
          paths: [f.name],
          label: f.verboseName,
        })),
        ...annotationNames(queryset).map((name) => ({ param: name, paths: [name], label: name })),
      ];
    }
    return [];
  }

  /**
   * The names the view lists in `orderingFields`, each its own path (`['title',
   * 'author__name']`), or undefined when it lists none (`'__all__'`, or no `orderingFields`).
   * Subclasses read other forms here (tricks: a mapping of names to paths); the start-up
   * check and every request go through it.
   */
  getDeclaredFields(view: OrderingView): OrderingOption[] | undefined {
    const fields = view.orderingFields;
    if (!Array.isArray(fields)) return undefined;
    return fields.map((name: string) => ({ param: name, paths: [name], label: name }));
  }

  /**
   * The serializer's readable fields whose source is a plain model field or an annotation of
   * the query set (`favoritesCount = IntegerField({ readOnly: true })`).
   */
  getDefaultValidFields(queryset: QuerySet<any>, view: OrderingView): OrderingOption[] {
    const serializerClass = view.getSerializerClass?.();
    if (!serializerClass) return [];
    const annotations = annotationNames(queryset);
    const options: OrderingOption[] = [];
    for (const field of serializerClass.prepare().readable) {
      if (field.sourceAttrs.length !== 1 || field instanceof Serializer) continue;
      const source = field.sourceAttrs[0] as string;
      const modelField = queryset.model.getField(source);
      if ((modelField && modelField.name === source) || annotations.includes(source))
        options.push({ param: field.fieldName, paths: [source], label: field.label });
    }
    return options;
  }

  /**
   * The sort keys of the valid names among `names` (already split and trimmed), in order; a
   * leading `-` reverses each path of its name. Unknown names are dropped, or, when the view
   * sets `orderingStrict`, raise a 400 `ValidationError` keyed by the query parameter. A path
   * already sorted by is not repeated.
   *
   * WARNING! `names` is client input: look each name up in {@link getValidFields}' result,
   * and return only the paths found there.
   */
  removeInvalidFields(
    queryset: QuerySet<any>,
    names: readonly string[],
    view: OrderingView,
    request: Request,
  ): string[] {
    const options = this.getValidFields(queryset, view, { request });
    const valid = new Map(options.map((option) => [option.param, option]));
    const terms: string[] = [];
    const seen = new Set<string>();
    const unknown: string[] = [];
    for (const name of names) {
      const descending = name.startsWith('-');
      const option = valid.get(descending ? name.slice(1) : name);
      if (!option) {
        if (!unknown.includes(name)) unknown.push(name);
        continue;
      }
      for (const path of option.paths) {
        const term = descending ? reverseTerm(path) : path;
        const bare = termPath(term);
        if (seen.has(bare)) continue;
        seen.add(bare);
        terms.push(term);
      }
    }
    if (unknown.length && view.orderingStrict) {
      const list = options.map((option) => option.param).join(', ');
      throw new ValidationError({
        [this.getOrderingParam(request)]: unknown.map((name) =>
          this.unknownNameMessage(name, list),
        ),
      });
    }
    return terms;
  }

  /**
   * The message of strict mode for one unknown name:
   * `Unknown ordering name "x". Valid names: title, price.`
   */
  unknownNameMessage(name: string, validNames: string): string {
    return `Unknown ordering name ${JSON.stringify(name)}. Valid names: ${validNames || '(none)'}.`;
  }

  override filterQueryset(
    request: Request,
    queryset: QuerySet<any>,
    view: OrderingView,
  ): QuerySet<any> {
    const ordering = this.getOrdering(request, queryset, view);
    return ordering?.length ? queryset.orderBy(...ordering) : queryset;
  }

  /**
   * Start-up check, called by the router: `orderingFields` has one of the accepted forms
   * ({@link checkOrderingFields}); every declared name can be sent by a client; every path of
   * `orderingFields` and of the view's `ordering` resolves to a column of the view's model
   * (across its relations) or names an annotation of its query set. Throws `ImproperlyConfigured` (`REST_ERR_ORDERING_FIELDS`)
   * naming the view, the name and the path.
   *
   * @example
   * ```ts-fragment
   * new OrderingFilter().check(new BookViewSet());
   * // BookViewSet.orderingFields: the ordering name "autor__name" maps to the path "autor__name",
   * //   which does not resolve: Book has no field "autor" (fields: id, title, author, ...).
   * ```
   */
  check(view: OrderingView): void {
    const viewName = view.constructor.name;
    const where = `${viewName}.orderingFields`;
    this.checkOrderingFields(view.orderingFields, where);
    const queryset = querysetOf(view);
    const model = queryset?.model;
    const annotations = annotationNames(queryset);
    for (const option of this.getDeclaredFields(view) ?? []) {
      checkOrderingName(where, option.param);
      for (const path of option.paths as readonly unknown[]) {
        checkOrderingPath(
          model,
          `${where}: the ordering name ${JSON.stringify(option.param)} maps to the path ${JSON.stringify(path)}`,
          path,
          annotations,
        );
      }
    }
    checkDefaultOrdering(view.ordering, `${viewName}.ordering`, model, annotations);
  }

  /**
   * Refuses an `orderingFields` of no accepted form: core accepts none, `'__all__'` on its own,
   * and a list of strings. Subclasses accepting other forms check them here first.
   */
  checkOrderingFields(fields: unknown, where: string): void {
    checkOrderingList(fields, where, this.orderingFieldsForms);
  }

  /**
   * The OpenAPI parameter of this filter: a list whose items are the names, ascending and
   * descending, sent as repeated keys (`style: form`, `explode: true`, what generated clients
   * send by default) or as one comma-separated value: both are read the same.
   *
   * @example
   * ```ts-fragment
   * new OrderingFilter().getSchemaOperationParameters(new BookViewSet());
   * // [{ name: 'ordering', required: false, in: 'query', description: '...', style: 'form', explode: true,
   * //    schema: { type: 'array', items: { type: 'string', enum: ['title', '-title', 'price', '-price'] } } }]
   * ```
   */
  getSchemaOperationParameters(view: OrderingView): Record<string, unknown>[] {
    const names = orderingChoices(this, view).map((choice) => choice.value);
    return [
      {
        name: this.getOrderingParam(view.request),
        required: false,
        in: 'query',
        description: `${this.orderingDescription} Names as repeated parameters (\`ordering=-price&ordering=title\`) or one comma-separated value (\`ordering=-price,title\`); a leading "-" sorts in descending order.`,
        style: 'form',
        explode: true,
        schema: {
          type: 'array',
          items: names.length ? { type: 'string', enum: names } : { type: 'string' },
        },
      },
    ];
  }

  /**
   * What the browsable API offers: the parameter and every name with a label, ascending then
   * descending (DRF's "Title - ascending" / "Title - descending"), and the current request's
   * valid names.
   *
   * @example
   * ```ts-fragment
   * new OrderingFilter().describe(new BookViewSet());
   * // { param: 'ordering', title: 'Ordering', options: [{ value: 'title', label: 'title - ascending' },
   * //   { value: '-title', label: 'title - descending' }, ...] }
   * ```
   */
  describe(view: OrderingView): OrderingDescription {
    const param = this.getOrderingParam(view.request);
    const options = orderingChoices(this, view);
    const description: OrderingDescription = { param, title: this.orderingTitle, options };
    const request = view.request;
    if (request?.query[param] === undefined) return description;
    const values = new Set(options.map((option) => option.value));
    const current = trimmedNames(request.queryList(param)).filter((name) => values.has(name));
    return { ...description, current };
  }
}

Object.assign(OrderingFilter.prototype, {
  orderingParam: undefined,
  orderingTitle: 'Ordering',
  orderingDescription: 'Which field to use when ordering the results.',
  orderingFieldsForms: "a list of names (['title', 'author__name']) or '__all__'",
});

/**
 * Every valid name both ways, when they can be known without a request. A function, not a
 * private method: a private method marks every instance in its constructor.
 */
function orderingChoices(filter: OrderingFilter, view: OrderingView): OrderingChoice[] {
  const queryset = querysetOf(view);
  // '__all__' and the serializer's names need the model; declared names do not.
  if (!queryset && !filter.getDeclaredFields(view)) return [];
  const choices: OrderingChoice[] = [];
  for (const option of filter.getValidFields(queryset as QuerySet<any>, view)) {
    choices.push({ value: option.param, label: `${option.label} - ascending` });
    choices.push({ value: `-${option.param}`, label: `${option.label} - descending` });
  }
  return choices;
}

/** The names of a parameter's values (already split on commas): trimmed, empty ones dropped. */
function trimmedNames(names: readonly string[]): string[] {
  return names.map((name) => name.trim()).filter(Boolean);
}

/** The view's query set, when it can be known without a request. */
function querysetOf(view: OrderingView): QuerySet<any> | undefined {
  if (view.queryset) return view.queryset;
  try {
    return view.getQueryset?.();
  } catch {
    // A getQueryset() that needs the request: the model is known only per request.
    return undefined;
  }
}
