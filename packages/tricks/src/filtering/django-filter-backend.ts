/**
 * Core's `DjangoFilterBackend`, with the names a client sees on a model with nested proxy
 * groups: the representation nests `price` under `stock_information`, so
 * `?stock_information__price__gte=10` filters as `?price__gte=10` does. The flat names keep
 * working (they are what `filtersetFields` declares).
 *
 * @example
 * ```ts
 * import { ModelViewSet } from '@restframework/core';
 * import { DjangoFilterBackend, OrderingFilter } from '@restframework/tricks';
 *
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override filterBackends = [DjangoFilterBackend, OrderingFilter];
 *   filtersetFields = { price: ['gte', 'lte'], state: ['exact', 'in'] };
 *   orderingFields = { price: 'price', status: ['state', 'publication_date'] };
 * }
 * // GET /books/?stock_information__price__gte=10&ordering=-status
 * ```
 * @module
 */
import {
  type AnyModel,
  type BoundFilter,
  DjangoFilterBackend as CoreDjangoFilterBackend,
  type FilterView,
  type PreparedFilterSet,
} from '@restframework/core';
import { NestedProxyGroup } from '../nested-proxy/nested-proxy-field.ts';

/**
 * Filters by django-filter's parameters, also under the nested proxy names of the model's
 * own fields (see the module). Only generated names (`price`, `price__gte`) get nested
 * names; a declared filter keeps the name it was declared with.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override filterBackends = [DjangoFilterBackend];
 *   filtersetFields = { price: ['gte', 'lte'] };
 * }
 * // GET /books/?stock_information__price__gte=10 as well as ?price__gte=10
 * ```
 */
export class DjangoFilterBackend extends CoreDjangoFilterBackend {
  override getFilterParameters(
    prepared: PreparedFilterSet,
    view: FilterView,
  ): Map<string, BoundFilter> {
    const names = super.getFilterParameters(prepared, view);
    const groups = groupPathsOf(prepared.model);
    if (groups.size === 0) return names;
    for (const [param, bound] of prepared.filters) {
      if (bound.path.includes('__') || !(param === bound.path || param === bound.key)) continue;
      for (const prefix of groups.get(bound.path) ?? []) {
        const alias = `${prefix}__${param}`;
        if (!names.has(alias)) names.set(alias, bound);
      }
    }
    return names;
  }
}

/** Each field of a group → the group paths it is nested under (`price` → `stock_information`). */
function groupPathsOf(model: AnyModel): Map<string, string[]> {
  const paths = new Map<string, string[]>();
  const visit = (group: NestedProxyGroup, prefix: string, seen: ReadonlySet<NestedProxyGroup>) => {
    for (const member of group.members) {
      const inner = group.memberGroup(member);
      if (inner) {
        if (!seen.has(inner)) visit(inner, `${prefix}__${member}`, new Set([...seen, inner]));
        continue;
      }
      let list = paths.get(member);
      if (!list) paths.set(member, (list = []));
      list.push(prefix);
    }
  };
  for (const [name, property] of Object.entries(model.properties)) {
    if (property instanceof NestedProxyGroup) visit(property, name, new Set([property]));
  }
  return paths;
}
