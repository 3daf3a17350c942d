/**
 * `OrderingFilter` with friendly names: a view set publishes ordering names of its own choosing
 * (usually its serializer's output names) and maps each to one model path or to a list of
 * paths, across to-one relations with `__`. The port of django-rest-framework-tricks'
 * `OrderingFilter`, built on core's.
 *
 * @example
 * ```ts
 * import { ModelViewSet } from '@restframework/core';
 * import { OrderingFilter } from '@restframework/tricks';
 *
 * class ProfileViewSet extends ModelViewSet {
 *   queryset = Profile.objects.all();
 *   serializerClass = ProfileSerializer;
 *   filterBackends = [OrderingFilter];
 *   orderingFields = {
 *     id: 'id',
 *     username: 'user__username',
 *     email: 'user__email',
 *     full_name: ['user__first_name', 'user__last_name'],
 *   };
 *   ordering = ['id'];
 * }
 * // GET /api/profile/?ordering=-full_name,email
 * //   ORDER BY user.first_name DESC, user.last_name DESC, user.email, profile.id
 * ```
 * @module
 */
import {
  type AnyModel,
  type AnyModelField,
  OrderingFilter as CoreOrderingFilter,
  defaultSettings,
  ImproperlyConfigured,
  labelFromName,
  type OrderingOption,
  type OrderingTerm,
  type OrderingView,
  type QuerySet,
  type Request,
  reverseTerm,
  ValidationError,
} from '@restframework/core';

/** The paths of one ordering name: one path, or several sorted by in the listed order. */
export type OrderingPaths = string | readonly string[];

/** `orderingFields` as a mapping: the public name → its path or paths. */
export type OrderingFieldsMapping = Readonly<Record<string, OrderingPaths>>;

/**
 * `orderingFields` of a view over model `M`, checked by the compiler: each path starts with a
 * field of `M` (`id`, `title`, or a relation followed by `__`); the rest of a path across a
 * relation is checked at start-up.
 *
 * @example
 * ```ts-fragment
 * class ProfileViewSet extends ModelViewSet {
 *   orderingFields: OrderingFieldsFor<typeof Profile> = {
 *     username: 'user__username',
 *     full_name: ['user__first_name', 'user__last_name'],
 *   };
 * }
 * ```
 */
export type OrderingFieldsFor<M> = Readonly<
  Record<string, OrderingTerm<M> | readonly OrderingTerm<M>[]>
>;

/** What a view using this filter may declare. */
export interface MappedOrderingView extends OrderingView {
  /**
   * The names clients may order by: a mapping from public name to a path or a list of paths
   * (`{ email: 'user__email', full_name: ['user__first_name', 'user__last_name'] }`), or, as
   * core's filter, a list of paths that are also the names, or `'__all__'`. A path may start
   * with `-` (`newest: ['-publication_date', 'id']`); a client's `-` reverses every path.
   */
  readonly orderingFields?: readonly string[] | '__all__' | OrderingFieldsMapping | undefined;
  /** The ordering (paths) when the client sends no usable name. */
  readonly ordering?: string | readonly string[];
  /** Answer 400 for a name that is not valid, instead of dropping it. */
  readonly orderingStrict?: boolean | undefined;
  readonly queryset?: QuerySet<any> | undefined;
  readonly getQueryset?: () => QuerySet<any>;
  /** The request, when the view is serving one (schema and `describe` use its settings). */
  readonly request?: Request | undefined;
}

/** A choice the browsable API offers: `value` goes into the query parameter. */
export interface OrderingChoice {
  readonly value: string;
  readonly label: string;
}

/** What {@link OrderingFilter.describe} returns for the browsable API. */
export interface OrderingDescription extends Record<string, unknown> {
  /** The query parameter (`ordering`). */
  readonly param: string;
  readonly title: string;
  /** Every name, ascending then descending (`email`, `-email`, ...), in declaration order. */
  readonly options: readonly OrderingChoice[];
  /** The valid names of the current request (`['-email']`), when the view serves one. */
  readonly current?: readonly string[];
}

const ERROR_CODE = 'REST_ERR_ORDERING_FIELDS';

/**
 * Orders a list by the names in `?ordering=` (`?ordering=email,-full_name`):
 *
 * - the value is a comma-separated list; each name is trimmed; empty names are ignored;
 * - only a leading `-` means descending, so a name may contain `-` (`publication-date`), and
 *   `--email` is no name at all;
 * - a name mapped to a list of paths sorts by each in turn; `-` reverses each of them, and
 *   flips a path's own `-`;
 * - names that are not valid are dropped (django-rest-framework-tricks' behaviour), or, with
 *   `orderingStrict = true` on the view, answered with 400
 *   `{"ordering": ["Unknown ordering name \"x\". Valid names: id, username, email, full_name."]}`
 *   (the key is the query parameter's actual name; one message per unknown name);
 * - with no valid name left, the view's `ordering` applies, else the query set's own ordering
 *   (the model's default);
 * - a path that a previous term already sorts by is left out (a repeat never changes the
 *   order), so a long parameter cannot make a long ORDER BY.
 *
 * List views make the ordering total by appending the primary key when it is not unique
 * (`withStableOrdering()`, done by core's `paginateQueryset` and `list`), so pages never skip
 * or repeat rows and ties come back in primary-key order in both directions.
 *
 * The query parameter is the filter's `orderingParam` (subclass to set it), else the
 * `ORDERING_PARAM` setting, else `ordering`.
 *
 * The router calls {@link check} at start-up: a path that does not resolve to a column, or
 * crosses a relation that is not to-one, fails there with `ImproperlyConfigured`
 * (`REST_ERR_ORDERING_FIELDS`) naming the view set, the name and the path.
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
 * class SortParam extends OrderingFilter {
 *   override orderingParam = 'sort';
 * }
 *
 * class BookViewSet extends ModelViewSet {
 *   queryset = Book.objects.all();
 *   serializerClass = BookSerializer;
 *   filterBackends = [SortParam];
 *   orderingFields = {
 *     title: 'title',
 *     status: ['state', 'publication_date'],
 *     'publication-date': 'publication_date',
 *     newest: ['-publication_date', 'id'],
 *   };
 *   ordering = ['id'];
 *   orderingStrict = true;
 * }
 * // ?sort=-status       → ORDER BY state DESC, publication_date DESC, id
 * // ?sort=-newest       → ORDER BY publication_date, id DESC
 * // ?sort=bogus         → 400 {"sort": ["Unknown ordering name \"bogus\". Valid names: title, status, publication-date, newest."]}
 * ```
 */
export class OrderingFilter extends CoreOrderingFilter {
  /**
   * The sort keys for this request, applied to the query set as they are: the valid names'
   * paths (`['-user__first_name', '-user__last_name']` for `?ordering=-full_name`), else the
   * view's `ordering`, else the query set's own ordering.
   *
   * WARNING! Whatever this returns becomes column references in ORDER BY: it must come from
   * the view's declarations, never from the request.
   *
   * @example
   * ```ts
   * class NewestFirst extends OrderingFilter {
   *   // Always newest first, then what the client asked for.
   *   override getOrdering(request: Request, queryset: QuerySet<any>, view: MappedOrderingView) {
   *     return ['-publication_date', ...super.getOrdering(request, queryset, view)];
   *   }
   * }
   * ```
   */
  override getOrdering(
    request: Request,
    queryset: QuerySet<any>,
    view: MappedOrderingView,
  ): readonly string[] {
    return super.getOrdering(request, queryset, view) ?? queryset.ordering;
  }

  /**
   * The names clients may use, each with its paths and a label: from an `orderingFields`
   * mapping, `{ param: 'full_name', paths: ['user__first_name', 'user__last_name'], label:
   * 'Full name' }`; a list, `'__all__'` or no `orderingFields` behave as core's filter.
   * `context` holds `{ request }` when called for a request; it defaults to `{}`.
   *
   * WARNING! The paths returned here become column references in ORDER BY. Return only
   * declared paths: never a name or path taken from the request.
   *
   * @example
   * ```ts
   * class StaffOrdering extends OrderingFilter {
   *   // Staff may also order by e-mail.
   *   override getValidFields(queryset: QuerySet<any>, view: MappedOrderingView, context: Readonly<Record<string, unknown>> = {}) {
   *     const fields = super.getValidFields(queryset, view, context);
   *     const request = context.request as Request | undefined;
   *     if (!request?.user.isStaff) return fields.filter((f) => f.param !== 'email');
   *     return fields;
   *   }
   * }
   * ```
   */
  override getValidFields(
    queryset: QuerySet<any>,
    view: MappedOrderingView,
    context: Readonly<Record<string, unknown>> = {},
  ): OrderingOption[] {
    const fields = view.orderingFields;
    if (!isMapping(fields)) return super.getValidFields(queryset, view, context);
    return Object.entries(fields).map(([param, paths]) => ({
      param,
      paths: typeof paths === 'string' ? [paths] : [...paths],
      label: labelFromName(param),
    }));
  }

  /**
   * The sort keys of the valid names among `names` (already split and trimmed), in order;
   * a leading `-` reverses each path of its name. Unknown names are dropped, or, when the
   * view sets `orderingStrict`, raise a 400 `ValidationError` keyed by the query parameter.
   * A path already sorted by is not repeated.
   *
   * WARNING! `names` is client input: look each name up in {@link getValidFields}' result,
   * and return only the paths found there.
   */
  override removeInvalidFields(
    queryset: QuerySet<any>,
    names: readonly string[],
    view: MappedOrderingView,
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
        const bare = term.startsWith('-') ? term.slice(1) : term;
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
   * `Unknown ordering name "x". Valid names: id, username, email, full_name.`
   */
  unknownNameMessage(name: string, validNames: string): string {
    return `Unknown ordering name ${JSON.stringify(name)}. Valid names: ${validNames || '(none)'}.`;
  }

  /**
   * Start-up check, called by the router: every path of `orderingFields` (and of the view's
   * `ordering`) must resolve to a column of the view's model, crossing only to-one relations
   * (a to-many relation would repeat rows); a public name must be non-empty, must not start
   * with `-`, and must not contain `,` or surrounding spaces, since no client could send it.
   * Throws `ImproperlyConfigured` (`REST_ERR_ORDERING_FIELDS`) naming the view set, the name
   * and the path. A path ending on a relation (`user`) orders by its key column.
   */
  check(view: MappedOrderingView): void {
    const viewName = view.constructor.name;
    const model = querysetOf(view)?.model;
    const fields = view.orderingFields;
    const where = `${viewName}.orderingFields`;
    if (fields !== undefined && fields !== null && fields !== '__all__') {
      if (Array.isArray(fields)) {
        for (const name of fields as readonly unknown[]) {
          if (typeof name !== 'string') {
            throw new ImproperlyConfigured(
              ERROR_CODE,
              `${where}: ${JSON.stringify(name)} is not a name; list strings, or map names to paths ({ email: 'user__email' }).`,
            );
          }
          checkName(where, name);
          checkPath(
            model,
            `${where}: the ordering name ${JSON.stringify(name)} maps to the path ${JSON.stringify(name)}`,
            name,
          );
        }
      } else if (isMapping(fields)) {
        for (const [name, value] of Object.entries(fields)) {
          checkName(where, name);
          const paths: readonly unknown[] = typeof value === 'string' ? [value] : value;
          if (!Array.isArray(paths) || paths.length === 0) {
            throw new ImproperlyConfigured(
              ERROR_CODE,
              `${where}: the ordering name ${JSON.stringify(name)} maps to ${JSON.stringify(value)}; ` +
                "map it to a path ('user__email') or a non-empty list of paths (['user__first_name', 'user__last_name']).",
            );
          }
          for (const path of paths) {
            checkPath(
              model,
              `${where}: the ordering name ${JSON.stringify(name)} maps to the path ${JSON.stringify(path)}`,
              path,
            );
          }
        }
      } else {
        throw new ImproperlyConfigured(
          ERROR_CODE,
          `${where} must be a mapping of names to paths ({ email: 'user__email' }), a list of names, or '__all__'.`,
        );
      }
    }
    for (const term of this.getDefaultOrdering(view) ?? []) {
      checkPath(
        model,
        `${viewName}.ordering: the default ordering ${JSON.stringify(term)}`,
        term as unknown,
      );
    }
  }

  /**
   * The OpenAPI parameter of this filter: a comma-separated list (`style: form`,
   * `explode: false`) whose items are the names, ascending and descending.
   *
   * @example
   * ```ts
   * new OrderingFilter().getSchemaOperationParameters(new ProfileViewSet());
   * // [{ name: 'ordering', required: false, in: 'query', description: '...', style: 'form', explode: false,
   * //    schema: { type: 'array', items: { type: 'string', enum: ['id', '-id', 'username', '-username', ...] } } }]
   * ```
   */
  getSchemaOperationParameters(view: MappedOrderingView): Record<string, unknown>[] {
    const names = this.#options(view).map((option) => option.value);
    return [
      {
        name: this.#paramOf(view),
        required: false,
        in: 'query',
        description: `${this.orderingDescription} A comma-separated list of names; a leading "-" sorts in descending order.`,
        style: 'form',
        explode: false,
        schema: { type: 'array', items: { type: 'string', enum: names } },
      },
    ];
  }

  /**
   * What the browsable API offers: the parameter and every name with a label, ascending then
   * descending (DRF's "Full name - ascending" / "Full name - descending"), and the current
   * request's valid names.
   *
   * @example
   * ```ts
   * new OrderingFilter().describe(new ProfileViewSet());
   * // { param: 'ordering', title: 'Ordering', options: [{ value: 'id', label: 'ID - ascending' },
   * //   { value: '-id', label: 'ID - descending' }, { value: 'username', label: 'Username - ascending' }, ...] }
   * ```
   */
  describe(view: MappedOrderingView): OrderingDescription {
    const param = this.#paramOf(view);
    const options = this.#options(view);
    const description: OrderingDescription = { param, title: this.orderingTitle, options };
    const raw = view.request?.queryParam(param);
    if (raw === undefined) return description;
    const values = new Set(options.map((option) => option.value));
    const current = raw
      .split(',')
      .map((name) => name.trim())
      .filter((name) => values.has(name));
    return { ...description, current };
  }

  #paramOf(view: MappedOrderingView): string {
    return (
      this.orderingParam ?? view.request?.settings?.ORDERING_PARAM ?? defaultSettings.ORDERING_PARAM
    );
  }

  #options(view: MappedOrderingView): OrderingChoice[] {
    const queryset = querysetOf(view);
    if (!queryset && !isMapping(view.orderingFields)) return [];
    const choices: OrderingChoice[] = [];
    for (const option of this.getValidFields(queryset as QuerySet<any>, view)) {
      choices.push({ value: option.param, label: `${option.label} - ascending` });
      choices.push({ value: `-${option.param}`, label: `${option.label} - descending` });
    }
    return choices;
  }
}

function isMapping(fields: unknown): fields is OrderingFieldsMapping {
  return typeof fields === 'object' && fields !== null && !Array.isArray(fields);
}

/** The view's query set, when it can be known without a request. */
function querysetOf(view: MappedOrderingView): QuerySet<any> | undefined {
  if (view.queryset) return view.queryset;
  try {
    return view.getQueryset?.();
  } catch {
    return undefined;
  }
}

function checkName(where: string, name: string): void {
  if (name === '' || name.startsWith('-') || name.includes(',') || name.trim() !== name) {
    throw new ImproperlyConfigured(
      ERROR_CODE,
      `${where}: ${JSON.stringify(name)} cannot be sent by a client: an ordering name must be non-empty, ` +
        'must not start with "-" (which asks for descending order), and must not contain "," or surrounding spaces.',
    );
  }
}

/** Checks one path (`-user__email`) of `model`; `what` starts the message. */
function checkPath(model: AnyModel | undefined, what: string, term: unknown): void {
  if (typeof term !== 'string') {
    throw new ImproperlyConfigured(
      ERROR_CODE,
      `${what} is not a string path such as 'user__email'.`,
    );
  }
  const path = term.startsWith('-') ? term.slice(1) : term;
  if (path === '' || path.startsWith('-')) {
    throw new ImproperlyConfigured(
      ERROR_CODE,
      `${what} is not a path: write a field name or a relation path ('user__email'), with at most one leading "-" for descending order.`,
    );
  }
  if (!model) return;
  const parts = path.split('__');
  let current: AnyModel = model;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const field: AnyModelField | undefined = current.getField(part);
    if (!field) {
      const reason = Object.hasOwn(current.properties, part)
        ? `${current.name}.${part} is a computed property, not a column; order by the columns it is computed from`
        : `${current.name} has no field ${JSON.stringify(part)} (fields: ${Object.keys(current.fields).join(', ')})`;
      throw new ImproperlyConfigured(ERROR_CODE, `${what}, which does not resolve: ${reason}.`);
    }
    if (i === parts.length - 1) return;
    if (!field.isRelation) {
      throw new ImproperlyConfigured(
        ERROR_CODE,
        `${what}, which does not resolve: ${current.name}.${part} is not a relation, so "__" cannot follow it.`,
      );
    }
    if (field.kind !== 'foreign_key' && field.kind !== 'one_to_one') {
      throw new ImproperlyConfigured(
        ERROR_CODE,
        `${what}, which crosses ${current.name}.${part}, a relation that is not to-one: ordering by it would repeat rows. ` +
          'Order by paths across ForeignKey and OneToOneField relations only.',
      );
    }
    current = field.relatedModel;
  }
}
