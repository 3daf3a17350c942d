/**
 * OPTIONS bodies: DRF's `SimpleMetadata`.
 * @module
 */
import { APIException } from '../errors/api-exception.ts';
import type { FieldDescription } from '../fields/field.ts';
import type { Request } from '../http/request.ts';
import { deepFreeze } from '../utils/immutable.ts';
import { isPromiseLike, type MaybePromise } from '../utils/maybe-promise.ts';

/** What OPTIONS answers. */
export interface Metadata {
  /** At once, or a promise when something it asks had to wait (callers handle both). */
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

/** The bodies built for one actions object. */
interface BodiesOf {
  /** By name, description and media types (one string). */
  readonly byKey: Map<string, Built>;
  /**
   * The last body served per view class (a route's own subclass, under the router): checked
   * first by comparing its inputs in place, since the same route asks again and again; joining
   * the media types into a key and hashing it cost more than the rest of the body's lookup.
   */
  readonly lastByView: WeakMap<object, Built>;
}

/**
 * Bodies already built, per actions object (by identity), then per name, description and
 * media types. Keyed by what `determineActions` *returned*, not by which class decided it: the
 * default actions are interned (below), so they hit every time, whatever metadata subclass
 * asked, and a subclass whose `determineActions` only calls `super` gets the same objects and
 * the same hits; one that builds its own actions object gets a body of its own, never one built
 * for other actions. Weakly held: a per-request actions object is dropped with its body.
 */
const bodies = new WeakMap<Actions, BodiesOf>();
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
    const actions = this.determineActions(request, view);
    return isPromiseLike(actions)
      ? Promise.resolve(actions).then((settled) => metadataOf(view, settled))
      : metadataOf(view, actions);
  }

  /**
   * The writable actions the caller may use, with their fields: the same frozen object for
   * the same serializer class and methods, so the body built for it is reused. Override to
   * describe actions otherwise (`async` or not); the result is honoured, and the body is
   * cached per object returned.
   */
  determineActions(request: Request, view: any): MaybePromise<Actions> {
    const methods = this.permittedActions(request, view);
    return isPromiseLike(methods)
      ? Promise.resolve(methods).then((settled) => defaultActions(view, settled))
      : defaultActions(view, methods);
  }

  /**
   * Of PUT and POST, those the view allows and the caller may use, in that order: at once
   * while the permission checks (and, for PUT, `getObject`) answer at once, else a promise.
   */
  permittedActions(request: Request, view: any): MaybePromise<string[]> {
    const permitted: string[] = [];
    const allowed: readonly string[] = view.allowedMethods;
    for (let i = 0; i < WRITE_METHODS.length; i++) {
      const method = WRITE_METHODS[i] as string;
      if (!allowed.includes(method)) continue;
      const may = mayUse(request, view, method);
      if (may === true) permitted.push(method);
      else if (may !== false) return permittedAfter(request, view, allowed, i, may, permitted);
    }
    return permitted;
  }
}

/** The methods whose fields OPTIONS describes, in the order it lists them. */
const WRITE_METHODS: readonly string[] = ['PUT', 'POST'];

/**
 * Whether the caller may use `method` (its permission checks pass as if the request used it,
 * DRF's `clone_request`, and for PUT the object is found): at once when every check answered
 * at once, else a promise of it. A refusal (any `APIException`) is `false`; other errors pass.
 */
function mayUse(request: Request, view: any, method: string): boolean | Promise<boolean> {
  request.methodOverride = method;
  try {
    const checked: unknown = view.checkPermissions(request);
    if (isPromiseLike(checked)) return mayUseAfter(request, view, method, checked, true);
    if (method === 'PUT' && typeof view.getObject === 'function') {
      const found: unknown = view.getObject();
      if (isPromiseLike(found)) return mayUseAfter(request, view, method, found, false);
    }
  } catch (error) {
    request.methodOverride = undefined;
    if (error instanceof APIException) return false;
    throw error;
  }
  request.methodOverride = undefined;
  return true;
}

/**
 * `mayUse` from a check that had to wait: the method stays overridden until every check
 * settled, as when each was awaited in turn.
 */
async function mayUseAfter(
  request: Request,
  view: any,
  method: string,
  pending: PromiseLike<unknown>,
  thenGetObject: boolean,
): Promise<boolean> {
  try {
    await pending;
    if (thenGetObject && method === 'PUT' && typeof view.getObject === 'function')
      await view.getObject();
    return true;
  } catch (error) {
    if (error instanceof APIException) return false;
    throw error;
  } finally {
    request.methodOverride = undefined;
  }
}

/** `permittedActions` from the method at `from`, whose check had to wait. */
async function permittedAfter(
  request: Request,
  view: any,
  allowed: readonly string[],
  from: number,
  pending: Promise<boolean>,
  permitted: string[],
): Promise<string[]> {
  if (await pending) permitted.push(WRITE_METHODS[from] as string);
  for (let i = from + 1; i < WRITE_METHODS.length; i++) {
    const method = WRITE_METHODS[i] as string;
    if (allowed.includes(method) && (await mayUse(request, view, method))) permitted.push(method);
  }
  return permitted;
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
  let known = bodies.get(actions);
  const last = known?.lastByView.get(view.constructor);
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
  // NUL cannot appear in names, descriptions or media types: the key is unambiguous.
  const key = `${name}\0${description}\0${renders.join()}\0${parses.join()}`;
  if (!known) bodies.set(actions, (known = { byKey: new Map(), lastByView: new WeakMap() }));
  let built = known.byKey.get(key);
  if (!built) {
    bodiesBuilt++;
    const body = deepFreeze({
      name,
      description,
      renders,
      parses,
      ...(Object.keys(actions).length ? { actions } : {}),
    });
    built = { name, description, renders, parses, body };
    if (known.byKey.size < MAX_BODIES_PER_ACTIONS) known.byKey.set(key, built);
  }
  known.lastByView.set(view.constructor, built);
  return built.body as Record<string, unknown>;
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
  // One method (the usual case) is its own key: no string joined per request.
  const key = methods.length === 1 ? (methods[0] as string) : methods.join();
  let actions = byMethods.get(key);
  if (!actions) {
    const built: Record<string, Readonly<Record<string, FieldDescription>>> = {};
    for (const method of methods) built[method] = described;
    actions = Object.freeze(built);
    byMethods.set(key, actions);
  }
  return actions;
}
