/**
 * Defaults computed from the run: DRF's `CurrentUserDefault` and `CreateOnlyDefault`.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { type AnyField, type ContextDefault, type RunContext, SKIPPED } from './field.ts';

/** Marks `compute` as a default that needs the run (see {@link ContextDefault}). */
function contextDefault<T>(compute: (ctx: RunContext, field: AnyField) => T): ContextDefault<T> {
  return Object.assign(compute, { requiresContext: true as const });
}

/**
 * The default that is the request's user (DRF's `CurrentUserDefault`): `request.user` of the
 * serializer context, which generic views fill. A serializer run without a request in its
 * context is a programming mistake (`REST_ERR_FIELD_CONTEXT`).
 *
 * @example
 * ```ts
 * const owner = new HiddenField({ default: CurrentUserDefault() });
 * ```
 */
export function CurrentUserDefault<T = unknown>(): ContextDefault<T> {
  return contextDefault((ctx, field) => {
    const request = ctx.context.request as { readonly user?: T } | undefined;
    if (request === undefined) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_CONTEXT',
        `${field.fieldName}: CurrentUserDefault needs the request in the serializer context ` +
          '(generic views pass it; else give context: { request }).',
      );
    }
    return request.user as T;
  });
}

/**
 * A default that applies only when creating (DRF's `CreateOnlyDefault`): on an update the
 * field is left out of the validated data, so the row keeps its value. `value` may be a
 * function (called each time) or another context default.
 *
 * @example
 * ```ts
 * const createdBy = new HiddenField({ default: CreateOnlyDefault(CurrentUserDefault()) });
 * ```
 */
export function CreateOnlyDefault<T>(value: T | (() => T) | ContextDefault<T>): ContextDefault<T> {
  return contextDefault((ctx, field) => {
    if (ctx.instance !== undefined) return SKIPPED as T;
    if (typeof value !== 'function') return value;
    return isContextDefault(value) ? value(ctx, field) : (value as () => T)();
  });
}

/** True for defaults made by {@link CurrentUserDefault} or {@link CreateOnlyDefault}. */
export function isContextDefault(value: unknown): value is ContextDefault<unknown> {
  return (
    typeof value === 'function' && (value as { requiresContext?: unknown }).requiresContext === true
  );
}
