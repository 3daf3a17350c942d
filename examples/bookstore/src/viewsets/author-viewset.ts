/**
 * The Author view set: filters (also under the contact groups' names a client sees) and search.
 * @module
 */
import { AllowAny, ModelViewSet, SearchFilter } from '@restframework/core';
import { DjangoFilterBackend } from '@restframework/tricks';
import { Author } from '../models/index.ts';
import { AuthorSerializer } from '../serializers/author-serializers.ts';

export class AuthorViewSet extends ModelViewSet {
  static override description = 'Author ViewSet.';
  override queryset = Author.objects.all();
  override serializerClass = AuthorSerializer;
  override permissionClasses = [AllowAny];
  override filterBackends = [DjangoFilterBackend, SearchFilter];
  filtersetFields = {
    name: ['exact', 'icontains'],
    salutation: ['exact'],
    email: ['exact', 'iexact'],
    birth_date: ['exact', 'gte', 'lte', 'year', 'isnull'],
    company: ['exact', 'icontains', 'isnull'],
  } as const;
  searchFields = ['name', '=email', 'company'];
}
