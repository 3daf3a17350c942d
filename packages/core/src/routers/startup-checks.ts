/**
 * What a router checks when it registers a view set, so that a mistake fails at start-up
 * with a `REST_ERR_*` code rather than as a 500 on the first request: the query set and
 * serializer (prepared here, once), filter backends, throttles, authenticators, and the
 * routes hyperlinked fields name.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyField } from '../fields/field.ts';
import { HyperlinkedIdentityField } from '../fields/hyperlinked-identity-field.ts';
import { HyperlinkedRelatedField } from '../fields/hyperlinked-related-field.ts';
import { ManyRelatedField } from '../fields/many-related-field.ts';
import type { RestFrameworkState } from '../plugin/rest-framework.ts';
import { Serializer } from '../serializers/serializer.ts';
import type { APIView } from '../views/api-view.ts';
import { checkConditionalFields } from '../views/conditional-requests.ts';
import { GenericAPIView, type SerializerClass } from '../views/generic-api-view.ts';

/** A registration as the checks name it: `BookViewSet (registered as "books")`. */
export interface CheckedRegistration {
  readonly prefix: string;
  readonly viewset: { readonly name: string };
}

/** What a view set's checks found without a request: the serializer classes it uses. */
export interface PreparedViewSet {
  readonly serializerClasses: readonly SerializerClass[];
}

/**
 * Every start-up check of one view set, on a `probe` instance (no request), for the
 * `actions` its routes serve.
 *
 * @example
 * ```ts
 * declare const state: RestFrameworkState; // the app's, as restFramework made it
 *
 * class BookViewSet extends ReadOnlyModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * const registration = { prefix: 'books', viewset: BookViewSet };
 * const prepared = await checkViewSet(new BookViewSet(), registration, ['list', 'retrieve'], state);
 * prepared.serializerClasses; // [BookSerializer]
 * ```
 */
export async function checkViewSet(
  probe: APIView,
  registration: CheckedRegistration,
  actions: readonly string[],
  state: RestFrameworkState,
): Promise<PreparedViewSet> {
  const settings = state.settings;
  const prepared = checkGenericView(probe, registration, actions);
  // Filter backends check the view too, the view's own or else the settings' defaults.
  if (probe instanceof GenericAPIView)
    for (const Backend of probe.filterBackends ?? settings.DEFAULT_FILTER_BACKENDS)
      new Backend().check?.(probe);
  for (const Throttle of probe.throttleClasses ?? settings.DEFAULT_THROTTLE_CLASSES)
    new Throttle().check?.(settings, probe);
  for (const Authentication of probe.authenticationClasses ??
    settings.DEFAULT_AUTHENTICATION_CLASSES)
    await new Authentication().check?.(settings);
  await probe.checkConfiguration(settings);
  return prepared;
}

/**
 * The query set and serializer of a generic view, as its routes' actions would get them.
 * An attribute is taken as it is; without one, the method is asked on the probe, as a
 * request would ask it. So an override that only calls `super` (or returns a fixed class or
 * query set) is checked and prepared here, and one that needs the request (reads
 * `this.request`) throws something else and is honoured per request, unchecked.
 */
function checkGenericView(
  view: APIView,
  registration: CheckedRegistration,
  actions: readonly string[],
): PreparedViewSet {
  if (!(view instanceof GenericAPIView)) return { serializerClasses: [] };
  const where = `${registration.viewset.name} (registered as "${registration.prefix}")`;
  const serializerClasses = new Set<SerializerClass>();
  const probe = view as GenericAPIView & { action?: string | undefined };
  // A view set with none of the routes' actions is still checked, without an action.
  const asked: readonly (string | undefined)[] = actions.length ? actions : [undefined];
  // The declared model first: serializers are prepared from it.
  view.queryset?.model.check();
  // Then the serializers, prepared (a broken declaration fails with its own message): the
  // default getQueryset() asks for one.
  if (view.serializerClass) serializerClasses.add(view.serializerClass);
  for (const action of asked) {
    probe.action = action;
    const found = ask(where, 'serializerClass', 'getSerializerClass', () =>
      probe.getSerializerClass(),
    );
    if (found) serializerClasses.add(found);
  }
  for (const serializerClass of serializerClasses) serializerClass.prepare();
  if (!view.queryset) {
    for (const action of asked) {
      probe.action = action;
      ask(where, 'queryset', 'getQueryset', () => probe.getQueryset())?.model.check();
    }
  }
  probe.action = undefined;
  checkConditionalFields(view);
  return { serializerClasses: [...serializerClasses] };
}

/**
 * Asks a view's method without a request: its answer; a start-up error when it found nothing
 * to answer with (the base class's error: no attribute, no real override) or met another
 * mistake of declaration; undefined when it needs a request.
 */
function ask<T>(
  where: string,
  attribute: string,
  method: string,
  question: () => T,
): T | undefined {
  try {
    return question();
  } catch (error) {
    if (!(error instanceof ImproperlyConfigured)) return undefined;
    if (error.code === 'REST_ERR_VIEW_CONFIG') {
      throw new ImproperlyConfigured(
        'REST_ERR_VIEW_CONFIG',
        `${where} should either include a \`${attribute}\` attribute, or override the \`${method}()\` method. ` +
          `An override that calls super.${method}() needs the attribute too.`,
      );
    }
    throw new ImproperlyConfigured(error.code, `${where}.${method}(): ${error.message}`);
  }
}

/**
 * Every hyperlinked field of a view set's serializers, at any depth, must name a registered
 * route, or its first rendering would be a 500. Run once every router has registered its
 * routes (`onReady`).
 */
export function checkLinks(
  registration: CheckedRegistration,
  prepared: PreparedViewSet,
  state: RestFrameworkState,
): void {
  const visit = (fields: readonly AnyField[], where: string) => {
    for (const field of fields) {
      const related =
        field instanceof ManyRelatedField && field.child instanceof HyperlinkedRelatedField
          ? field.child
          : field;
      if (related instanceof HyperlinkedRelatedField) {
        checkRelatedLink(related, `${where}.${field.fieldName}`, state);
        continue;
      }
      if (field instanceof HyperlinkedIdentityField && !state.urls.has(field.viewName)) {
        throw new ImproperlyConfigured(
          'REST_ERR_ROUTE_NAME',
          `${where}.${field.fieldName} links to the route "${field.viewName}", which no router registers. ` +
            `Register its view set with { basename: '${field.viewName.replace(/-detail$/, '')}' }, or pass viewName. ` +
            `Known names: ${state.urls.routes.map((r) => r.name).join(', ')}.`,
        );
      }
      if (field instanceof Serializer) visit(field.prepared.fields, `${where}.${field.fieldName}`);
    }
  };
  for (const serializerClass of prepared.serializerClasses)
    visit(
      serializerClass.prepare().fields,
      `${registration.viewset.name} (${serializerClass.name})`,
    );
}

/**
 * A hyperlinked relation renders and reads links of its route: the route must be registered
 * (under the router's namespace, or none) and take the parameter `lookupUrlKwarg`.
 */
function checkRelatedLink(
  field: HyperlinkedRelatedField,
  where: string,
  state: RestFrameworkState,
): void {
  const route =
    state.urls.get(field.viewName) ??
    state.urls.routes.find((r) => r.name.endsWith(`:${field.viewName}`));
  if (route === undefined) {
    throw new ImproperlyConfigured(
      'REST_ERR_ROUTE_NAME',
      `${where} links to the route "${field.viewName}", which no router registers. ` +
        `Register the related view set with { basename: '${field.viewName.replace(/-detail$/, '')}' }, or pass viewName. ` +
        `Known names: ${state.urls.routes.map((r) => r.name).join(', ')}.`,
    );
  }
  if (!route.params.includes(field.lookupUrlKwarg)) {
    throw new ImproperlyConfigured(
      'REST_ERR_ROUTE_NAME',
      `${where} fills the parameter "${field.lookupUrlKwarg}" of the route "${route.name}" (${route.template}), ` +
        `which has ${route.params.length ? `only ${route.params.map((p) => `"${p}"`).join(', ')}` : 'no parameter'}. ` +
        "Pass lookupUrlKwarg (the route's parameter), or lookupField.",
    );
  }
}
