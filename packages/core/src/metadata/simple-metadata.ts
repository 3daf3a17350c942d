/**
 * OPTIONS bodies: DRF's `SimpleMetadata`.
 * @module
 */
import { APIException } from '../errors/api-exception.ts';
import type { FieldDescription } from '../fields/field.ts';
import type { Request } from '../http/request.ts';
import { deepFreeze } from '../utils/immutable.ts';

/** What OPTIONS answers. */
export interface Metadata {
  determineMetadata(request: Request, view: any): Promise<Record<string, unknown>>;
}

/** A metadata class. */
export type MetadataClass = new () => Metadata;

type Built = Map<string, Readonly<Record<string, unknown>>>;
type Actions = Record<string, Readonly<Record<string, FieldDescription>>>;
// Per metadata class, then per serializer class (or view class without one), the metadata
// objects already built: a subclass that describes actions its own way keeps its own.
const cache = new WeakMap<Function, WeakMap<object, Built>>();

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
    const hasSerializer = typeof view.getSerializer === 'function';
    // The fields' descriptions are the same for a serializer class: described only when its
    // metadata is built, unless a subclass decides the actions itself.
    const custom = this.determineActions !== SimpleMetadata.prototype.determineActions;
    const actions = hasSerializer && custom ? await this.determineActions(request, view) : null;
    const methods = actions
      ? Object.keys(actions)
      : hasSerializer
        ? await this.permittedActions(request, view)
        : [];
    const name: string = view.getViewName();
    const description: string = view.getViewDescription();
    const renders: string[] = view.getRenderers().map((r: { mediaType: string }) => r.mediaType);
    const parses: string[] = view.getParsers().map((p: { mediaType: string }) => p.mediaType);
    const owner: object = methods.length ? view.getSerializerClass() : view.constructor;
    // NUL cannot appear in names, descriptions or media types: the key is unambiguous.
    const key = `${name}\0${description}\0${renders.join()}\0${parses.join()}\0${methods.join()}`;
    let byOwner = cache.get(this.constructor);
    if (!byOwner) cache.set(this.constructor, (byOwner = new WeakMap()));
    let byKey = byOwner.get(owner);
    if (!byKey) byOwner.set(owner, (byKey = new Map()));
    let metadata = byKey.get(key);
    if (!metadata) {
      metadata = deepFreeze({
        name,
        description,
        renders,
        parses,
        ...(methods.length ? { actions: actions ?? describeActions(view, methods) } : {}),
      });
      byKey.set(key, metadata);
    }
    return metadata as Record<string, unknown>;
  }

  /** The writable actions the caller may use, with their fields. */
  async determineActions(request: Request, view: any): Promise<Actions> {
    return describeActions(view, await this.permittedActions(request, view));
  }

  /** Of PUT and POST, those the view allows and the caller may use, in that order. */
  async permittedActions(request: Request, view: any): Promise<string[]> {
    const permitted: string[] = [];
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
      permitted.push(method);
    }
    return permitted;
  }
}

/** Each method's fields, as the view's serializer describes them. */
function describeActions(view: any, methods: readonly string[]): Actions {
  const actions: Actions = {};
  for (const method of methods) actions[method] = view.getSerializer().describeFields();
  return actions;
}
