/**
 * Ordering of lists from the `ordering` query parameter, as DRF's `OrderingFilter`:
 * `?ordering=title,-price`, names whitelisted by the view's `orderingFields`.
 * @module
 */
import type { QuerySet } from '../db/query-set.ts';
import type { Request } from '../http/request.ts';
import type { AnyModelField } from '../models/model-field.ts';
import { type PreparedSerializer, Serializer } from '../serializers/serializer.ts';
import { BaseFilterBackend } from './filter-backend.ts';

/** A name a client may order by, the query paths it sorts by, and a label for people. */
export interface OrderingOption {
  readonly param: string;
  /** Model paths (`user__email`), each with an optional leading `-`. */
  readonly paths: readonly string[];
  readonly label: string;
}

/** What an ordering view may declare. */
export interface OrderingView {
  /** Names clients may order by: a list, `'__all__'`, or (with add-ons) a mapping. */
  readonly orderingFields?: unknown;
  /** The ordering when the client asks for none usable (paths, `-` for descending). */
  readonly ordering?: string | readonly string[];
  readonly getSerializerClass?: () => { prepare(): PreparedSerializer };
}

/** `-path` for `path` and `path` for `-path`. */
export function reverseTerm(term: string): string {
  return term.startsWith('-') ? term.slice(1) : `-${term}`;
}

/**
 * Orders by the names in `?ordering=` (comma-separated, trimmed, `-` for descending) that the
 * view allows; other names are dropped, and with none left the view's `ordering` applies.
 * Only whitelisted names reach the query, and they reach it as declared paths.
 *
 * Steps, each a method to override: {@link getOrdering} → {@link removeInvalidFields} →
 * {@link getValidFields}; {@link getDefaultOrdering}.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   filterBackends = [OrderingFilter];
 *   orderingFields = ['title', 'price'];
 *   ordering = ['id'];
 * }
 * ```
 */
export class OrderingFilter extends BaseFilterBackend {
  /** The query parameter; defaults to the `ORDERING_PARAM` setting. */
  orderingParam: string | undefined = undefined;
  readonly orderingTitle = 'Ordering';
  readonly orderingDescription = 'Which field to use when ordering the results.';

  /** The query parameter this filter reads. */
  getOrderingParam(request: Request): string {
    return this.orderingParam ?? request.settings.ORDERING_PARAM;
  }

  /** The sort keys for this request, applied to the query set as they are. */
  getOrdering(
    request: Request,
    queryset: QuerySet<any>,
    view: OrderingView,
  ): readonly string[] | null {
    const raw = request.queryParam(this.getOrderingParam(request));
    if (raw) {
      const names = raw
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const ordering = this.removeInvalidFields(queryset, names, view, request);
      if (ordering.length) return ordering;
    }
    return this.getDefaultOrdering(view);
  }

  /** The view's `ordering`, or null to keep the query set's own. */
  getDefaultOrdering(view: OrderingView): readonly string[] | null {
    const ordering = view.ordering;
    if (ordering === undefined) return null;
    return typeof ordering === 'string' ? [ordering] : ordering;
  }

  /**
   * The names clients may use, with their paths: the view's `orderingFields` list, every
   * model field for `'__all__'`, or by default the serializer's readable fields with a plain
   * source.
   */
  getValidFields(
    queryset: QuerySet<any>,
    view: OrderingView,
    _context: Readonly<Record<string, unknown>> = {},
  ): OrderingOption[] {
    const fields = view.orderingFields;
    if (fields === undefined || fields === null) return this.getDefaultValidFields(queryset, view);
    if (fields === '__all__') {
      return queryset.model.fieldList.map((f: AnyModelField) => ({
        param: f.name,
        paths: [f.name],
        label: f.verboseName,
      }));
    }
    if (Array.isArray(fields)) {
      return fields.map((name: string) => ({ param: name, paths: [name], label: name }));
    }
    return [];
  }

  /** The serializer's readable fields whose source is a plain model field. */
  getDefaultValidFields(queryset: QuerySet<any>, view: OrderingView): OrderingOption[] {
    const serializerClass = view.getSerializerClass?.();
    if (!serializerClass) return [];
    const options: OrderingOption[] = [];
    for (const field of serializerClass.prepare().readable) {
      if (field.sourceAttrs.length !== 1 || field instanceof Serializer) continue;
      const source = field.sourceAttrs[0] as string;
      const modelField = queryset.model.getField(source);
      if (modelField && modelField.name === source)
        options.push({ param: field.fieldName, paths: [source], label: field.label });
    }
    return options;
  }

  /** The sort keys of the valid names, in order; invalid names are dropped. */
  removeInvalidFields(
    queryset: QuerySet<any>,
    names: readonly string[],
    view: OrderingView,
    request: Request,
  ): string[] {
    const valid = new Map(
      this.getValidFields(queryset, view, { request }).map((o) => [o.param, o]),
    );
    const terms: string[] = [];
    for (const name of names) {
      const descending = name.startsWith('-');
      const option = valid.get(descending ? name.slice(1) : name);
      if (!option) continue;
      for (const path of option.paths) terms.push(descending ? reverseTerm(path) : path);
    }
    return terms;
  }

  override filterQueryset(
    request: Request,
    queryset: QuerySet<any>,
    view: OrderingView,
  ): QuerySet<any> {
    const ordering = this.getOrdering(request, queryset, view);
    return ordering?.length ? queryset.orderBy(...ordering) : queryset;
  }
}
