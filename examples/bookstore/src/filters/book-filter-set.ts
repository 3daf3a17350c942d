/**
 * The filters of the book lists: django-filter's `FilterSet` for Book, with the lookups a
 * shop's client needs and one `method` filter (`in_stock`).
 * @module
 */
import { BooleanFilter, CharFilter, FilterSet, type QuerySet } from '@restframework/core';
import { Book } from '../models/index.ts';

export class BookFilterSet extends FilterSet.with({
  model: Book,
  fields: {
    title: ['exact', 'icontains', 'istartswith'],
    isbn: ['exact', 'in'],
    state: ['exact', 'in'],
    price: ['exact', 'gte', 'lte', 'range'],
    pages: ['exact', 'gte', 'lte'],
    stock_count: ['exact', 'gte', 'lte'],
    publication_date: ['exact', 'gte', 'lte', 'year', 'month'],
    summary: ['isnull'],
  },
  filters: {
    description: new CharFilter({ lookupExpr: 'icontains', label: 'Description contains' }),
    in_stock: new BooleanFilter({ method: 'filterInStock', label: 'In stock' }),
  },
}) {
  /** `?in_stock=true`: books with copies left; `false`: sold out. */
  filterInStock(queryset: QuerySet<any>, _name: string, value: unknown): QuerySet<any> {
    return value ? queryset.filter({ stock_count__gt: 0 }) : queryset.filter({ stock_count: 0 });
  }
}
