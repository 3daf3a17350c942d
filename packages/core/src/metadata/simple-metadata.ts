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

type Actions = Readonly<Record<string, Readonly<Record<string, FieldDescription>>>>;

/** The actions of a view without a serializer, or of a caller who may use none. */
const NO_ACTIONS: Actions = Object.freeze({});

/**
 * Bodies already built, per actions object (by identity), then per name, description and
 * media types. Keyed by what `determineActions` *returned*, not by which class decided it: the
 * default actions are interned (below), so they hit every time, whatever metadata subclass
 * asked, and a subclass whose `determineActions` only calls `super` gets the same objects and
 * the same hits; one that builds its own actions object gets a body of its own, never one built
 * for other actions. Weakly held: a per-request actions object is dropped with its body.
 */
const bodies = new WeakMap<Actions, Map<string, Readonly<Record<string, unknown>>>>();
/**
 * At most this many bodies per actions object: a view whose name or description changes per
 * request would otherwise grow the map without end; past it, bodies are built and not kept.
 */
const MAX_BODIES_PER_ACTIONS = 64;

/**
 * The default actions, interned: per fields' descriptions object (the same frozen object for
 * a serializer class every time: see `Serializer.describeFields`), then per list of methods,
 * the frozen `{ METHOD: descriptions }`. Bound: per descriptions object (weakly held), one
 * entry per combination of PUT and POST (at most 3). Never invalidated: the value is a pure
 * function of the key, and the descriptions are frozen.
 */
const internedActions = new WeakMap<object, Map<string, Actions>>();

/** Counts the bodies built (not those served from the cache): a test hook. */
let bodiesBuilt = 0;

/**
 * How many OPTIONS bodies have been built so far, in this process: tests compare it before and
 * after requests to tell a body served from the cache from one built again.
 *
 * @example
 * ```ts-fragment
 * const before = metadataBodiesBuilt();
 * await app.inject({ method: 'OPTIONS', url: '/books/' });
 * metadataBodiesBuilt() - before; // 0 once the body was built by an earlier request
 * ```
 */
export function metadataBodiesBuilt(): number {
  return bodiesBuilt;
}

/**
 * `{name, description, renders, parses, actions}`: `actions` holds, for `POST` on lists and
 * `PUT` on details, each serializer field's own description (read-only fields included), when
 * the caller may use that method. Fields describe themselves, so add-on fields appear with
 * their own keys without any change here.
 */
export class SimpleMetadata implements Metadata {
  /**
   * The metadata of a view for this request. `determineActions` decides which actions it
   * lists (asked every time, overridden or not); for the same name, description, media types
   * and actions object it is the same object every time, frozen, so renderers can reuse its
   * JSON.
   */
  async determineMetadata(request: Request, view: any): Promise<Record<string, unknown>> {
    const actions: Actions =
      typeof view.getSerializer === 'function'
        ? await this.determineActions(request, view)
        : NO_ACTIONS;
    const name: string = view.getViewName();
    const description: string = view.getViewDescription();
    const renders: string[] = view.getRenderers().map((r: { mediaType: string }) => r.mediaType);
    const parses: string[] = view.getParsers().map((p: { mediaType: string }) => p.mediaType);
    // NUL cannot appear in names, descriptions or media types: the key is unambiguous.
    const key = `${name}\0${description}\0${renders.join()}\0${parses.join()}`;
    let byKey = bodies.get(actions);
    if (!byKey) bodies.set(actions, (byKey = new Map()));
    let metadata = byKey.get(key);
    if (!metadata) {
      bodiesBuilt++;
      metadata = deepFreeze({
        name,
        description,
        renders,
        parses,
        ...(Object.keys(actions).length ? { actions } : {}),
      });
      if (byKey.size < MAX_BODIES_PER_ACTIONS) byKey.set(key, metadata);
    }
    return metadata as Record<string, unknown>;
  }

  /**
   * The writable actions the caller may use, with their fields: the same frozen object for
   * the same serializer class and methods, so the body built for it is reused. Override to
   * describe actions otherwise; the result is honoured, and the body is cached per object
   * returned.
   */
  async determineActions(request: Request, view: any): Promise<Actions> {
    return defaultActions(view, await this.permittedActions(request, view));
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

/**
 * Each method's fields, as the view's serializer for this request describes them, interned by
 * descriptions and methods (see `internedActions`).
 */
function defaultActions(view: any, methods: readonly string[]): Actions {
  if (methods.length === 0) return NO_ACTIONS;
  // The serializer the view gives for this request (its getSerializer may choose by request),
  // described by its class's frozen descriptions.
  const described: Readonly<Record<string, FieldDescription>> = view
    .getSerializer()
    .describeFields();
  let byMethods = internedActions.get(described);
  if (!byMethods) internedActions.set(described, (byMethods = new Map()));
  const key = methods.join();
  let actions = byMethods.get(key);
  if (!actions) {
    const built: Record<string, Readonly<Record<string, FieldDescription>>> = {};
    for (const method of methods) built[method] = described;
    actions = Object.freeze(built);
    byMethods.set(key, actions);
  }
  return actions;
}
