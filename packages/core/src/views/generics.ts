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
  put(request: Request): Promise<Response> {
    return this.update(request);
  }

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
  get(request: Request): Promise<Response> {
    return this.list(request);
  }

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
  get(request: Request): Response | Promise<Response> {
    return this.retrieve(request);
  }

  put(request: Request): Promise<Response> {
    return this.update(request);
  }

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
  get(request: Request): Response | Promise<Response> {
    return this.retrieve(request);
  }

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
  get(request: Request): Response | Promise<Response> {
    return this.retrieve(request);
  }

  put(request: Request): Promise<Response> {
    return this.update(request);
  }

  patch(request: Request): Promise<Response> {
    return this.partialUpdate(request);
  }

  delete(request: Request): Promise<Response> {
    return this.destroy(request);
  }
}
