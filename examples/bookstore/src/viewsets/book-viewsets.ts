/**
 * The Book view sets: `books` (ordered by isbn, the model's default), `proxy-books` (with
 * tricks' ordering filter and friendly names) and `books-nullable`. The first two filter by
 * `BookFilterSet`'s parameters (also under the nested names a client sees,
 * `stock_information__price__gte`) and search with `?search=`.
 * @module
 */
import { AllowAny, ModelViewSet, SearchFilter } from '@restframework/core';
import { DjangoFilterBackend, type OrderingFieldsFor, OrderingFilter } from '@restframework/tricks';
import { BookFilterSet } from '../filters/book-filter-set.ts';
import { Book } from '../models/index.ts';
import { BookSerializer, NullableBookSerializer } from '../serializers/book-serializers.ts';

export class BookViewSet extends ModelViewSet {
  static override description = 'Book ViewSet.';
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  override permissionClasses = [AllowAny];
  override filterBackends = [DjangoFilterBackend, SearchFilter];
  filtersetClass = BookFilterSet;
  searchFields = ['title', '^isbn', '@description', 'summary'];
}

export class BookProxyViewSet extends ModelViewSet {
  static override description = 'Book proxy ViewSet.';
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  override permissionClasses = [AllowAny];
  override filterBackends = [DjangoFilterBackend, SearchFilter, OrderingFilter];
  filtersetClass = BookFilterSet;
  searchFields = ['title', '^isbn', '@description', 'summary'];
  orderingFields: OrderingFieldsFor<typeof Book> = {
    id: 'id',
    title: 'title',
    isbn: 'isbn',
    price: 'price',
    status: ['state', 'publication_date'],
  };
  ordering = ['id'];
}

export class BookNullableViewSet extends ModelViewSet {
  static override description = 'Book ViewSet with nullable nested fields.';
  override queryset = Book.objects.all();
  override serializerClass = NullableBookSerializer;
  override permissionClasses = [AllowAny];
}
