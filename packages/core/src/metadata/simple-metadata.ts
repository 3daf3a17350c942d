/**
 * OPTIONS bodies: DRF's `SimpleMetadata`.
 * @module
 */
import { APIException } from '../errors/api-exception.ts';
import type { FieldDescription } from '../fields/field.ts';
import type { Request } from '../http/request.ts';

/** What OPTIONS answers. */
export interface Metadata {
  determineMetadata(request: Request, view: any): Promise<Record<string, unknown>>;
}

/** A metadata class. */
export type MetadataClass = new () => Metadata;

// Per serializer class (or view class without one), the metadata objects already built.
const cache = new WeakMap<object, Map<string, Readonly<Record<string, unknown>>>>();

/**
 * `{name, description, renders, parses, actions}`: `actions` holds, for `POST` on lists and
 * `PUT` on details, each serializer field's own description (read-only fields included), when
 * the caller may use that method. Fields describe themselves, so add-on fields appear with
 * their own keys without any change here.
 */
export class SimpleMetadata implements Metadata {
  /**
   * The metadata of a view for this request. Permissions decide which actions it lists; for
   * the same view name, description, media types, serializer and actions it is the same
   * object every time, frozen, so renderers can reuse its JSON.
   */
  async determineMetadata(request: Request, view: any): Promise<Record<string, unknown>> {
    const actions =
      typeof view.getSerializer === 'function' ? await this.determineActions(request, view) : {};
    const name: string = view.getViewName();
    const description: string = view.getViewDescription();
    const renders: string[] = view.getRenderers().map((r: { mediaType: string }) => r.mediaType);
    const parses: string[] = view.getParsers().map((p: { mediaType: string }) => p.mediaType);
    const methods = Object.keys(actions);
    const owner: object = methods.length ? view.getSerializerClass() : view.constructor;
    // NUL cannot appear in names, descriptions or media types: the key is unambiguous.
    const key = `${name}\0${description}\0${renders.join()}\0${parses.join()}\0${methods.join()}`;
    let byKey = cache.get(owner);
    if (!byKey) cache.set(owner, (byKey = new Map()));
    let metadata = byKey.get(key);
    if (!metadata) {
      metadata = Object.freeze({
        name,
        description,
        renders: Object.freeze(renders),
        parses: Object.freeze(parses),
        ...(methods.length ? { actions: Object.freeze(actions) } : {}),
      });
      byKey.set(key, metadata);
    }
    return metadata as Record<string, unknown>;
  }

  /** The writable actions the caller may use, with their fields. */
  async determineActions(
    request: Request,
    view: any,
  ): Promise<Record<string, Readonly<Record<string, FieldDescription>>>> {
    const actions: Record<string, Readonly<Record<string, FieldDescription>>> = {};
    const allowed: string[] = view.allowedMethods;
    for (const method of ['PUT', 'POST']) {
      if (!allowed.includes(method)) continue;
      // Permissions are asked as if the request used `method` (DRF's clone_request).
      try {
        request.methodOverride = method;
        await view.checkPermissions(request);
        if (method === 'PUT' && typeof view.getObject === 'function') await view.getObject();
      } catch (error) {
        if (error instanceof APIException) continue;
        throw error;
      } finally {
        request.methodOverride = undefined;
      }
      actions[method] = view.getSerializer().describeFields();
    }
    return actions;
  }
}
