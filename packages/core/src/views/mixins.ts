/**
 * The actions of model views, one mixin each (DRF's `mixins.py`). Each action is a few lines
 * calling the view's seams; override a seam (`performCreate`, `getQueryset`, ...) to change
 * one step, not the action.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   // New books start in progress, whatever state the client sent.
 *   override async performCreate(serializer: Serializer) {
 *     await serializer.save({ state: 'in_progress' });
 *   }
 * }
 * ```
 * @module
 */
import { deleteFilesOnCommit, storedFileNames } from '../files/delete-files-on-commit.ts';
import type { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import type { Serializer } from '../serializers/serializer.ts';
import { isPromiseLike, thenMaybe } from '../utils/maybe-promise.ts';
import {
  checkWritePreconditions,
  conditionalRead,
  writtenValidators,
} from './conditional-requests.ts';
import type { GenericAPIView } from './generic-api-view.ts';

/** A class that extends `GenericAPIView`. */
export type GenericViewClass = abstract new (...args: any[]) => GenericAPIView;

/**
 * The class a mixin returns: the base class `B`, whose instances also have the actions `T`.
 * Spelled out (rather than inferred from the class expression) so that declarations name it:
 * an inferred mixin class would carry the base's `#private` members into the public types.
 */
export type WithActions<B extends GenericViewClass, T> = B & (abstract new (...args: any[]) => T);

/** What {@link ListModelMixin} adds to a view. */
export interface ListModelActions {
  /** The (filtered, paginated) rows. */
  list(request: Request): Promise<Response>;
}

/** What {@link CreateModelMixin} adds to a view. */
export interface CreateModelActions {
  /** Validates `request.data`, saves through `performCreate`, answers 201. */
  create(request: Request): Promise<Response>;
  /** Saves a valid serializer; override to add values (`serializer.save({owner_id})`). */
  performCreate(serializer: Serializer<any, any>): Promise<void>;
  /** Headers of the 201: `Location` when the data has a `url`. */
  getSuccessHeaders(data: unknown): Record<string, string>;
}

/** What {@link RetrieveModelMixin} adds to a view. */
export interface RetrieveModelActions {
  /** The record's representation: at once when `getObject()` answered at once. */
  retrieve(request: Request): Response | Promise<Response>;
}

/** What {@link UpdateModelMixin} adds to a view. */
export interface UpdateModelActions {
  /**
   * PUT (or PATCH with `partial`): finds the row (`getObject()`), checks the request's
   * preconditions, validates `request.data` (every required field unless `partial`), saves
   * through `performUpdate` and answers 200 with the new representation. To make PUT behave as
   * PATCH: `override update(request: Request) { return super.update(request, true); }`.
   */
  update(request: Request, partial?: boolean): Promise<Response>;
  /**
   * PATCH: `update(request, true)`. An `update` override may call it to answer PUT as PATCH
   * (`override update(request: Request) { return this.partialUpdate(request); }`): called again
   * from there, it updates the row itself instead of calling that override again, so the pair
   * does not recurse (in DRF it does, until the stack overflows).
   */
  partialUpdate(request: Request): Promise<Response>;
  /** Saves a valid serializer over the record. */
  performUpdate(serializer: Serializer<any, any>): Promise<void>;
}

/** What {@link DestroyModelMixin} adds to a view. */
export interface DestroyModelActions {
  /** Deletes the record through `performDestroy`, answers 204. */
  destroy(request: Request): Promise<Response>;
  /** Deletes one record. */
  performDestroy(instance: Record<string, unknown>): Promise<void>;
}

/** `list`: the (filtered, paginated) rows. */
export function ListModelMixin<B extends GenericViewClass>(
  Base: B,
): WithActions<B, ListModelActions> {
  abstract class ListModel extends Base {
    async list(_request: Request): Promise<Response> {
      const filtered = this.filterQueryset(this.getQueryset());
      const queryset = isPromiseLike(filtered) ? await filtered : filtered;
      const page = await this.paginateQueryset(queryset);
      if (page !== null)
        return conditionalRead(
          this,
          null,
          this.getPaginatedResponse(
            this.getSerializer({ instance: page, many: true }).data as unknown[],
          ),
        );
      const rows = await queryset.withStableOrdering().execute();
      return conditionalRead(
        this,
        null,
        new Response(this.getSerializer({ instance: rows, many: true }).data),
      );
    }
  }
  return ListModel;
}

/** `create`: 201 with the new record, and `Location` when it has a `url`. */
export function CreateModelMixin<B extends GenericViewClass>(
  Base: B,
): WithActions<B, CreateModelActions> {
  abstract class CreateModel extends Base {
    async create(request: Request): Promise<Response> {
      const serializer = this.getSerializer({ data: request.data });
      await serializer.isValid({ raiseException: true });
      await this.performCreate(serializer);
      const data = serializer.data;
      return new Response(data, 201, this.getSuccessHeaders(data));
    }

    async performCreate(serializer: Serializer<any, any>): Promise<void> {
      await serializer.save();
    }

    getSuccessHeaders(data: unknown): Record<string, string> {
      const url = (data as { url?: unknown } | null)?.url;
      return typeof url === 'string' ? { Location: url } : {};
    }
  }
  return CreateModel;
}

/** `retrieve`: one record. */
export function RetrieveModelMixin<B extends GenericViewClass>(
  Base: B,
): WithActions<B, RetrieveModelActions> {
  abstract class RetrieveModel extends Base {
    /** The record's representation: at once when `getObject()` answered at once. */
    retrieve(_request: Request): Response | Promise<Response> {
      return thenMaybe(this.getObject(), (instance) =>
        conditionalRead(this, instance, new Response(this.getSerializer({ instance }).data)),
      );
    }
  }
  return RetrieveModel;
}

/** `update`'s work on the row found (a function, not a private method: see `objectIn`). */
async function updated(
  view: GenericAPIView & { performUpdate(serializer: Serializer<any, any>): Promise<void> },
  instance: Record<string, unknown>,
  request: Request,
  partial: boolean,
): Promise<Response> {
  const checked = checkWritePreconditions(view, request, instance);
  if (isPromiseLike(checked)) await checked;
  const serializer = view.getSerializer({ instance, data: request.data, partial });
  await serializer.isValid({ raiseException: true });
  await view.performUpdate(serializer);
  const response = new Response(serializer.data);
  // The row's new validators, so that the client's next write can name them.
  return writtenValidators(view, serializer.instance, response);
}

/** `update`'s body: the row found, then updated (as retrieve: at once when it can). */
function updateObject(
  view: GenericAPIView & { performUpdate(serializer: Serializer<any, any>): Promise<void> },
  request: Request,
  partial: boolean,
): Promise<Response> {
  return Promise.resolve(
    thenMaybe(view.getObject(), (instance) => updated(view, instance, request, partial)),
  );
}

/**
 * Set on a view (a view serves one request) once its `partialUpdate` has called `update`: a
 * second `partialUpdate` on it can only come from an `update` override that answers PUT as
 * PATCH by calling `partialUpdate`, which in DRF recurses until the stack overflows (a 500).
 */
const IN_PARTIAL_UPDATE = Symbol('partialUpdate called update');

/** `update` (PUT) and `partialUpdate` (PATCH). */
export function UpdateModelMixin<B extends GenericViewClass>(
  Base: B,
): WithActions<B, UpdateModelActions> {
  abstract class UpdateModel extends Base {
    update(request: Request, partial = false): Promise<Response> {
      return updateObject(this, request, partial);
    }

    // Not async: update's promise as it is, where an async function returning it cost a
    // promise of its own and two more microtask turns.
    partialUpdate(request: Request): Promise<Response> {
      const view = this as this & { [IN_PARTIAL_UPDATE]?: true };
      // Re-entered from an `update` override: the update itself, not that override again.
      if (view[IN_PARTIAL_UPDATE]) return updateObject(this, request, true);
      view[IN_PARTIAL_UPDATE] = true;
      return this.update(request, true);
    }

    async performUpdate(serializer: Serializer<any, any>): Promise<void> {
      await serializer.save();
    }
  }
  return UpdateModel;
}

/** `destroy`: 204 with no body. */
export function DestroyModelMixin<B extends GenericViewClass>(
  Base: B,
): WithActions<B, DestroyModelActions> {
  abstract class DestroyModel extends Base {
    destroy(request: Request): Promise<Response> {
      return Promise.resolve(
        thenMaybe(this.getObject(), (instance) =>
          thenMaybe(checkWritePreconditions(this, request, instance), () =>
            thenMaybe(this.performDestroy(instance), () => new Response(null, 204)),
          ),
        ),
      );
    }

    /**
     * Deletes the row; with `DELETE_ORPHANED_FILES` (the default) its stored files are removed
     * once the transaction commits.
     */
    async performDestroy(instance: Record<string, unknown>): Promise<void> {
      const model = this.getQueryset().model;
      const deleted = await model.objects.deleteRow(instance as never);
      if (deleted && this.settings.DELETE_ORPHANED_FILES) {
        await deleteFilesOnCommit(this.settings.STORAGE, storedFileNames(model, instance));
      }
    }
  }
  return DestroyModel;
}
