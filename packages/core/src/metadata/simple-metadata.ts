/**
 * OPTIONS bodies: DRF's `SimpleMetadata`.
 * @module
 */
import { APIException } from '../errors/api-exception.ts';
import type { FieldDescription } from '../fields/field.ts';
import type { Request } from '../http/request.ts';
import type { RoutePlan } from '../routers/route-plan.ts';
import { BoundedCache, ownPlan } from '../utils/bounded-cache.ts';
import { deepFreeze } from '../utils/immutable.ts';
import { catchMaybe, eachMaybe, type MaybePromise, thenMaybe } from '../utils/maybe-promise.ts';

/** What OPTIONS answers. */
export interface Metadata {
  /**
   * The OPTIONS body: at once, or a promise when something it asks had to wait, so a
   * {@link MaybePromise} (`@restframework/core` exports it, with `isPromiseLike`); callers
   * handle both, and an implementation may be `async`.
   *
   * @example
   * ```ts-fragment
   * const body = await new SimpleMetadata().determineMetadata(request, view);
   * body.name; // 'Book List'
   * ```
   */
  determineMetadata(request: Request, view: any): MaybePromise<Record<string, unknown>>;
}

/** A metadata class. */
export type MetadataClass = new () => Metadata;

type Actions = Readonly<Record<string, Readonly<Record<string, FieldDescription>>>>;

/** The actions of a view without a serializer, or of a caller who may use none. */
const NO_ACTIONS: Actions = Object.freeze({});

/** A body built, with the name, description and media types it was built from. */
interface Built {
  readonly name: string;
  readonly description: string;
  readonly renders: readonly string[];
  readonly parses: readonly string[];
  readonly body: Readonly<Record<string, unknown>>;
}

/**
 * The name of the route's cache of OPTIONS bodies (in its plan's `caches`): by the actions
 * object `determineActions` returned (by identity), the body last built for it. Keyed by
 * what was *returned*, not by which class decided it: the default actions are interned
 * (below), so a metadata subclass whose `determineActions` only calls `super` gets the same
 * objects and the same hits; one that builds its own actions object per request gets a body
 * of its own, never one built for other actions, and costs one of the bounded entries.
 */
export const OPTIONS_BODIES = 'OPTIONS bodies';
/** Entries of a route's OPTIONS bodies: actions objects met on the route. */
const MAX_OPTIONS_BODIES = 16;

/**
 * The default actions, interned: per fields' descriptions object (the same frozen object for
 * a serializer class every time: see `Serializer.describeFields`), then per list of methods,
 * the frozen `{ METHOD: descriptions }`: at most 3 per descriptions (PUT, POST or both). Kept
 * on the serializer class (with `ownPlan`), so they live with it.
 */
const INTERNED_ACTIONS = Symbol('interned OPTIONS actions');

/**
 * `{name, description, renders, parses, actions}`: `actions` holds, for `POST` on lists and
 * `PUT` on details, each serializer field's own description (read-only fields included), when
 * the caller may use that method. Fields describe themselves, so add-on fields appear with
 * their own keys without any change here.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override metadataClass = SimpleMetadata; // the default (`DEFAULT_METADATA_CLASS`)
 * }
 * // OPTIONS /books/ → {"name":"Book List","description":"…","renders":[…],"parses":[…],
 * //                    "actions":{"POST":{"title":{"type":"string","required":true,…},…}}}
 * ```
 */
export class SimpleMetadata implements Metadata {
  /**
   * The metadata of a view for this request. `determineActions` decides which actions it
   * lists (asked every time, overridden or not); for the same name, description, media types
   * and actions object it is the same object every time, frozen, so renderers can reuse its
   * JSON. At once when the actions are (permissions answering at once), else a promise: an
   * `await` on a value already there still costs the request a microtask turn.
   */
  determineMetadata(request: Request, view: any): MaybePromise<Record<string, unknown>> {
    if (typeof view.getSerializer !== 'function') return metadataOf(view, NO_ACTIONS);
    return thenMaybe(this.determineActions(request, view), (actions) => metadataOf(view, actions));
  }

  /**
   * The writable actions the caller may use, with their fields: the same frozen object for
   * the same serializer class and methods, so the body built for it is reused. Override to
   * describe actions otherwise (`async` or not); the result is honoured, and the body is
   * cached per object returned.
   */
  determineActions(request: Request, view: any): MaybePromise<Actions> {
    return thenMaybe(this.permittedActions(request, view), (methods) =>
      defaultActions(view, methods),
    );
  }

  /**
   * Of PUT and POST, those the view allows and the caller may use, in that order: at once
   * while the permission checks (and, for PUT, `getObject`) answer at once, else a promise.
   */
  permittedActions(request: Request, view: any): MaybePromise<string[]> {
    const permitted: string[] = [];
    const allowed: readonly string[] = view.allowedMethods;
    const asked = eachMaybe(WRITE_METHODS, (method) => {
      if (!allowed.includes(method)) return undefined;
      return thenMaybe(mayUse(request, view, method), (may) => {
        if (may) permitted.push(method);
      });
    });
    return thenMaybe(asked, () => permitted);
  }
}

/** The methods whose fields OPTIONS describes, in the order it lists them. */
const WRITE_METHODS: readonly string[] = ['PUT', 'POST'];

/**
 * Whether the caller may use `method` (its permission checks pass as if the request used it,
 * DRF's `clone_request`, and for PUT the object is found): at once when every check answered
 * at once, else a promise of it. A refusal (any `APIException`) is `false`; other errors pass.
 * The method stays overridden until every check settled.
 */
function mayUse(request: Request, view: any, method: string): boolean | Promise<boolean> {
  request.methodOverride = method;
  return catchMaybe(
    () =>
      thenMaybe(
        thenMaybe(view.checkPermissions(request), () => objectFor(view, method)),
        () => {
          request.methodOverride = undefined;
          return true;
        },
      ),
    (error) => {
      request.methodOverride = undefined;
      if (error instanceof APIException) return false;
      throw error;
    },
  );
}

/** For PUT, the object the URL names (its lookup and object permissions), else nothing. */
function objectFor(view: any, method: string): unknown {
  return method === 'PUT' && typeof view.getObject === 'function' ? view.getObject() : undefined;
}

/**
 * The body for `actions` and the view's name, description and media types: built once per
 * such combination (see `bodies`), frozen. Every input is asked for and compared on every
 * request, so a name, description or renderer that changes shows up at once.
 */
function metadataOf(view: any, actions: Actions): Record<string, unknown> {
  const name: string = view.getViewName();
  const description: string = view.getViewDescription();
  const renderers: readonly { mediaType: string }[] = view.getRenderers();
  const parsers: readonly { mediaType: string }[] = view.getParsers();
  // A view outside a router (no plan) builds its body every time.
  const bodies = (view.routePlan as RoutePlan | undefined)?.caches.cache<Actions, Built>(
    OPTIONS_BODIES,
    MAX_OPTIONS_BODIES,
  );
  const last = bodies?.get(actions);
  // Compared in place: joining the media types into a key and hashing it cost more than the
  // rest of the lookup. A route whose name, description or media types changed gets a new body.
  if (
    last !== undefined &&
    last.name === name &&
    last.description === description &&
    sameMediaTypes(last.renders, renderers) &&
    sameMediaTypes(last.parses, parsers)
  )
    return last.body as Record<string, unknown>;
  const renders = renderers.map((r) => r.mediaType);
  const parses = parsers.map((p) => p.mediaType);
  const body = deepFreeze({
    name,
    description,
    renders,
    parses,
    ...(Object.keys(actions).length ? { actions } : {}),
  });
  bodies?.set(actions, { name, description, renders, parses, body });
  return body as Record<string, unknown>;
}

/** True when `instances` have these media types, in this order. */
function sameMediaTypes(
  mediaTypes: readonly string[],
  instances: readonly { mediaType: string }[],
): boolean {
  if (mediaTypes.length !== instances.length) return false;
  for (let i = 0; i < mediaTypes.length; i++)
    if ((instances[i] as { mediaType: string }).mediaType !== mediaTypes[i]) return false;
  return true;
}

/**
 * Each method's fields, as the view's serializer for this request describes them, interned on
 * its class by methods (see `INTERNED_ACTIONS`).
 */
function defaultActions(view: any, methods: readonly string[]): Actions {
  if (methods.length === 0) return NO_ACTIONS;
  // The serializer the view gives for this request (its getSerializer may choose by request),
  // described by its class's frozen descriptions.
  const serializer = view.getSerializer();
  const described: Readonly<Record<string, FieldDescription>> = serializer.describeFields();
  const interned = ownPlan(
    serializer.constructor,
    INTERNED_ACTIONS,
    () => new BoundedCache<string, Actions>('OPTIONS actions', 3),
  );
  // One method (the usual case) is its own key: no string joined per request.
  const first = methods[0] as string;
  const key = methods.length === 1 ? first : methods.join();
  const found = interned.get(key);
  // The class's descriptions are one frozen object; an override of describeFields that
  // answers another gets actions of its own.
  if (found !== undefined && found[first] === described) return found;
  const built: Record<string, Readonly<Record<string, FieldDescription>>> = {};
  for (const method of methods) built[method] = described;
  return interned.set(key, Object.freeze(built));
}
