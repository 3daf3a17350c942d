/**
 * The Book view sets: `books` (ordered by isbn, the model's default), `proxy-books` (with
 * tricks' ordering filter and friendly names) and `books-nullable`.
 * @module
 */
import { AllowAny, ModelViewSet } from '@restframework/core';
import { type OrderingFieldsFor, OrderingFilter } from '@restframework/tricks';
import { Book } from '../models/index.ts';
import { BookSerializer, NullableBookSerializer } from '../serializers/book-serializers.ts';

export class BookViewSet extends ModelViewSet {
  static override description = 'Book ViewSet.';
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  override permissionClasses = [AllowAny];
}

export class BookProxyViewSet extends ModelViewSet {
  static override description = 'Book proxy ViewSet.';
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  override permissionClasses = [AllowAny];
  override filterBackends = [OrderingFilter];
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
