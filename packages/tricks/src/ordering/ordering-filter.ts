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
 *   override queryset = Profile.objects.all();
 *   override serializerClass = ProfileSerializer;
 *   override filterBackends = [OrderingFilter];
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
  OrderingFilter as CoreOrderingFilter,
  ImproperlyConfigured,
  type OrderingOption,
  type OrderingTerm,
  type OrderingView,
  type QuerySet,
  type Request,
} from '@restframework/core';
import { labelFromName } from '@restframework/core/internal';

// The browsable API's types moved to core with `describe`; tricks keeps exporting them.
export type { OrderingChoice, OrderingDescription } from '@restframework/core';

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
}

const ERROR_CODE = 'REST_ERR_ORDERING_FIELDS';

/**
 * Core's `OrderingFilter` with friendly names: `orderingFields` may map each public name to a
 * path or a list of paths (`?ordering=email,-full_name`):
 *
 * - a name mapped to a list of paths sorts by each in turn; a client's `-` reverses each of
 *   them, and flips a path's own `-`;
 * - a name may contain `-` (`publication-date`): only a leading `-` means descending;
 * - with no valid name left, the view's `ordering` applies, else the query set's own ordering
 *   (the model's default): {@link getOrdering} always returns the ordering it applies.
 *
 * Everything else is core's: names trimmed and whitelisted, unknown names dropped
 * (django-rest-framework-tricks' behaviour) or, with `orderingStrict = true` on the view,
 * answered with 400 `{"ordering": ["Unknown ordering name \"x\". Valid names: id, username,
 * email, full_name."]}`; repeated paths left out; the `orderingParam` / `ORDERING_PARAM`
 * parameter; the start-up check of every name and path (`REST_ERR_ORDERING_FIELDS`, naming
 * the view set, the name and the path); the OpenAPI parameter and the browsable API's choices.
 *
 * List views make the ordering total by appending the primary key when it is not unique
 * (`withStableOrdering()`, done by core's `paginateQueryset` and `list`), so pages never skip
 * or repeat rows and ties come back in primary-key order in both directions.
 *
 * WARNING! Column names cannot be passed to the database as parameters: an ordering path
 * becomes an identifier in the SQL. This filter only ever orders by paths the view declared,
 * after looking the client's name up in that whitelist. An override of
 * {@link getDeclaredFields}, {@link getValidFields}, {@link getOrdering} or
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
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override filterBackends = [SortParam];
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
  override readonly orderingFieldsForms =
    "a mapping of names to paths ({ email: 'user__email' }), a list of names, or '__all__'";

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
   * The names of an `orderingFields` mapping, each with its paths and a label:
   * `{ param: 'full_name', paths: ['user__first_name', 'user__last_name'], label: 'Full name' }`.
   * A list, `'__all__'` or no `orderingFields` behave as core's filter. Core's
   * `getValidFields` (the seam to override, spec 4.2 rule 5) and the start-up check read the
   * names from here.
   */
  override getDeclaredFields(view: MappedOrderingView): OrderingOption[] | undefined {
    const fields = view.orderingFields;
    if (!isMapping(fields)) return super.getDeclaredFields(view);
    return Object.entries(fields).map(([param, paths]) => ({
      param,
      paths: typeof paths === 'string' ? [paths] : [...paths],
      label: labelFromName(param),
    }));
  }

  /**
   * Accepts a mapping whose values are a path or a non-empty list of paths, besides core's
   * forms; core then checks every name and path.
   */
  override checkOrderingFields(fields: unknown, where: string): void {
    if (!isMapping(fields)) {
      super.checkOrderingFields(fields, where);
      return;
    }
    for (const [name, value] of Object.entries(fields)) {
      const paths: unknown = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(paths) || paths.length === 0) {
        throw new ImproperlyConfigured(
          ERROR_CODE,
          `${where}: the ordering name ${JSON.stringify(name)} maps to ${JSON.stringify(value)}; ` +
            "map it to a path ('user__email') or a non-empty list of paths (['user__first_name', 'user__last_name']).",
        );
      }
    }
  }
}

function isMapping(fields: unknown): fields is OrderingFieldsMapping {
  return typeof fields === 'object' && fields !== null && !Array.isArray(fields);
}
