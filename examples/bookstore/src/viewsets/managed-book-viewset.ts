/**
 * Books for logged-in staff (not in the spec): the same books and serializer as `books`, but
 * only for a caller who sent a token (`Authorization: Token <key>`) or has a session, and
 * writes need the model permission (`add_book`, `change_book`, `delete_book`), given to the
 * user or one of its groups. Each user may make 1000 requests an hour.
 * @module
 */
import {
  DjangoModelPermissions,
  SessionAuthentication,
  TokenAuthentication,
  UserRateThrottle,
} from '@restframework/core';
import { BookViewSet } from './book-viewsets.ts';

export class ManagedBookViewSet extends BookViewSet {
  static override description = 'Books for users with the book permissions.';
  override authenticationClasses = [TokenAuthentication, SessionAuthentication];
  override permissionClasses = [DjangoModelPermissions];
  override throttleClasses = [UserRateThrottle];
}
