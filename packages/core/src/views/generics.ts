/**
 * DRF's nine concrete generic views (`rest_framework.generics`): `GenericAPIView` with the
 * mixins of their actions and the method handlers calling them, to mount with
 * `router.path()` (`RetrieveUpdateDestroyAPIView` at `books/<int:pk>/`).
 *
 * @example
 * ```ts
 * class BookList extends ListCreateAPIView {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * class BookDetail extends RetrieveUpdateDestroyAPIView {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * router.path('books/', BookList, { name: 'book-list' });
 * router.path('books/<int:pk>/', BookDetail, { name: 'book-detail' });
 * ```
 * @module
 */
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import { GenericAPIView } from './generic-api-view.ts';
import {
  CreateModelMixin,
  DestroyModelMixin,
  ListModelMixin,
  RetrieveModelMixin,
  UpdateModelMixin,
} from './mixins.ts';

/**
 * POST → `create`.
 *
 * @example
 * ```ts
 * class SignUp extends CreateAPIView {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * ```
 */
export class CreateAPIView extends CreateModelMixin(GenericAPIView) {
  /** POST: validates the body and creates a row (`create()`): 201 with it, or 400. */
  post(request: Request): Promise<Response> {
    return this.create(request);
  }
}

/**
 * GET → `list`.
 *
 * @example
 * ```ts
 * class BookList extends ListAPIView {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * ```
 */
export class ListAPIView extends ListModelMixin(GenericAPIView) {
  /** GET: the list of rows, filtered and paginated (`list()`). */
  get(request: Request): Promise<Response> {
    return this.list(request);
  }
}

/**
 * GET → `retrieve`.
 *
 * @example
 * ```ts
 * class BookDetail extends RetrieveAPIView {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * ```
 */
export class RetrieveAPIView extends RetrieveModelMixin(GenericAPIView) {
  /** GET: one row, by the URL's lookup (`retrieve()`); 404 when it does not exist. */
  get(request: Request): Response | Promise<Response> {
    return this.retrieve(request);
  }
}

/**
 * DELETE → `destroy`.
 *
 * @example
 * ```ts
 * class BookRemoval extends DestroyAPIView {
 *   override queryset = Book.objects.all();
 * }
 * ```
 */
export class DestroyAPIView extends DestroyModelMixin(GenericAPIView) {
  /** DELETE: removes the row (`destroy()`): 204. */
  delete(request: Request): Promise<Response> {
    return this.destroy(request);
  }
}

/**
 * PUT → `update`, PATCH → `partialUpdate`.
 *
 * @example
 * ```ts
 * class BookEdit extends UpdateAPIView {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * ```
 */
export class UpdateAPIView extends UpdateModelMixin(GenericAPIView) {
  /** PUT: replaces the row with the validated body (`update()`): 200, or 400. */
  put(request: Request): Promise<Response> {
    return this.update(request);
  }

  /** PATCH: updates the fields the body sends (`partialUpdate()`): 200, or 400. */
  patch(request: Request): Promise<Response> {
    return this.partialUpdate(request);
  }
}

/**
 * GET → `list`, POST → `create`.
 *
 * @example
 * ```ts
 * class BookList extends ListCreateAPIView {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * ```
 */
export class ListCreateAPIView extends CreateModelMixin(ListModelMixin(GenericAPIView)) {
  /** GET: the list of rows, filtered and paginated (`list()`). */
  get(request: Request): Promise<Response> {
    return this.list(request);
  }

  /** POST: validates the body and creates a row (`create()`): 201 with it, or 400. */
  post(request: Request): Promise<Response> {
    return this.create(request);
  }
}

/**
 * GET → `retrieve`, PUT → `update`, PATCH → `partialUpdate`.
 *
 * @example
 * ```ts
 * class BookDetail extends RetrieveUpdateAPIView {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * ```
 */
export class RetrieveUpdateAPIView extends UpdateModelMixin(RetrieveModelMixin(GenericAPIView)) {
  /** GET: one row, by the URL's lookup (`retrieve()`); 404 when it does not exist. */
  get(request: Request): Response | Promise<Response> {
    return this.retrieve(request);
  }

  /** PUT: replaces the row with the validated body (`update()`): 200, or 400. */
  put(request: Request): Promise<Response> {
    return this.update(request);
  }

  /** PATCH: updates the fields the body sends (`partialUpdate()`): 200, or 400. */
  patch(request: Request): Promise<Response> {
    return this.partialUpdate(request);
  }
}

/**
 * GET → `retrieve`, DELETE → `destroy`.
 *
 * @example
 * ```ts
 * class BookDetail extends RetrieveDestroyAPIView {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * ```
 */
export class RetrieveDestroyAPIView extends DestroyModelMixin(RetrieveModelMixin(GenericAPIView)) {
  /** GET: one row, by the URL's lookup (`retrieve()`); 404 when it does not exist. */
  get(request: Request): Response | Promise<Response> {
    return this.retrieve(request);
  }

  /** DELETE: removes the row (`destroy()`): 204. */
  delete(request: Request): Promise<Response> {
    return this.destroy(request);
  }
}

/**
 * GET → `retrieve`, PUT → `update`, PATCH → `partialUpdate`, DELETE → `destroy`.
 *
 * @example
 * ```ts
 * class BookDetail extends RetrieveUpdateDestroyAPIView {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * ```
 */
export class RetrieveUpdateDestroyAPIView extends DestroyModelMixin(
  UpdateModelMixin(RetrieveModelMixin(GenericAPIView)),
) {
  /** GET: one row, by the URL's lookup (`retrieve()`); 404 when it does not exist. */
  get(request: Request): Response | Promise<Response> {
    return this.retrieve(request);
  }

  /** PUT: replaces the row with the validated body (`update()`): 200, or 400. */
  put(request: Request): Promise<Response> {
    return this.update(request);
  }

  /** PATCH: updates the fields the body sends (`partialUpdate()`): 200, or 400. */
  patch(request: Request): Promise<Response> {
    return this.partialUpdate(request);
  }

  /** DELETE: removes the row (`destroy()`): 204. */
  delete(request: Request): Promise<Response> {
    return this.destroy(request);
  }
}
