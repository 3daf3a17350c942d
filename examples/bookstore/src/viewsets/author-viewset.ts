/**
 * The Author view set.
 * @module
 */
import { AllowAny, ModelViewSet } from '@restframework/core';
import { Author } from '../models/index.ts';
import { AuthorSerializer } from '../serializers/author-serializers.ts';

export class AuthorViewSet extends ModelViewSet {
  static override description = 'Author ViewSet.';
  override queryset = Author.objects.all();
  override serializerClass = AuthorSerializer;
  override permissionClasses = [AllowAny];
}
