/**
 * Throttles: how many requests a caller may make, checked after the permissions (DRF's
 * `check_throttles`). A refused request is answered 429 with `Retry-After`. Rates use DRF's
 * syntax (`100/min`, see {@link parseRate}) and are read from `DEFAULT_THROTTLE_RATES` by
 * scope, unless the class sets `rate`; counts live in the app's `THROTTLE_STORE`.
 *
 * @example
 * ```ts
 * class UploadViewSet extends ModelViewSet {
 *   override throttleClasses = [UserRateThrottle, ScopedRateThrottle];
 *   override throttleScope = 'uploads';   // DEFAULT_THROTTLE_RATES: { user: '1000/day', uploads: '20/hour' }
 * }
 * ```
 * @module
 */
import { channel } from 'node:diagnostics_channel';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { Request } from '../http/request.ts';
import type { APISettings } from '../settings/api-settings.ts';
import { thenMaybe } from '../utils/maybe-promise.ts';
import { parseRate, type Rate } from './parse-rate.ts';

/** A throttle. */
export interface Throttle {
  /** True when the request may go on; a refusal is a 429. */
  allowRequest(request: Request, view: ThrottledView): boolean | Promise<boolean>;
  /** Seconds until a refused caller may try again (`Retry-After`), null when unknown. */
  wait(): number | null;
  /** Start-up check against the settings and view (a missing or malformed rate). */
  check?(settings: APISettings, view: ThrottledView): void;
}

/** A throttle class. */
export type ThrottleClass = new () => Throttle;

/** What throttles read from a view. */
export interface ThrottledView {
  /** The scope of {@link ScopedRateThrottle}. */
  readonly throttleScope?: string | undefined;
}

/**
 * Allows everything; override `allowRequest`.
 *
 * @example
 * ```ts
 * class OfficeHoursThrottle extends BaseThrottle {
 *   override allowRequest() {
 *     const hour = new Date().getUTCHours();
 *     return hour >= 8 && hour < 18; // else 429
 *   }
 * }
 * ```
 */
export class BaseThrottle implements Throttle {
  allowRequest(_request: Request, _view: ThrottledView): boolean | Promise<boolean> {
    return true;
  }

  wait(): number | null {
    return null;
  }

  check(_settings: APISettings, _view: ThrottledView): void {}

  /**
   * Who the caller is when it is not logged in: its address, as Fastify gives it (behind a
   * proxy, set Fastify's `trustProxy` so that this is the client's and not the proxy's).
   */
  getIdent(request: Request): string {
    return request.raw.ip;
  }
}

/**
 * A limit per key in a window (DRF's `SimpleRateThrottle`): override `getCacheKey` to say
 * whose requests count together (null: this request is not throttled).
 *
 * @example
 * ```ts
 * class PerApiKeyThrottle extends SimpleRateThrottle {
 *   override rate = '1000/hour';
 *   override getCacheKey(request: Request) {
 *     const key = request.raw.headers['x-api-key'];
 *     return typeof key === 'string' ? `throttle_apikey_${key}` : null; // no key: not throttled
 *   }
 * }
 * ```
 */
export class SimpleRateThrottle extends BaseThrottle {
  /** The rate's name in `DEFAULT_THROTTLE_RATES`. */
  scope: string | undefined = undefined;
  /** The rate itself; when unset, read from the settings by scope. */
  rate: string | null | undefined = undefined;
  #wait: number | null = null;

  /** The key of this caller's count, or null to not throttle this request. */
  getCacheKey(_request: Request, _view: ThrottledView): string | null {
    throw new ImproperlyConfigured(
      'REST_ERR_THROTTLE_RATE',
      `${this.constructor.name} must override getCacheKey(request, view).`,
    );
  }

  /** The rate text: `rate`, or the settings' rate for `scope` (null: no limit). */
  getRate(settings: APISettings): string | null {
    if (this.rate !== undefined) return this.rate;
    const rates = settings.DEFAULT_THROTTLE_RATES;
    if (this.scope === undefined || !Object.hasOwn(rates, this.scope)) {
      throw new ImproperlyConfigured(
        'REST_ERR_THROTTLE_RATE',
        `${this.constructor.name}: no rate for the scope ${JSON.stringify(this.scope)}. Add it to DEFAULT_THROTTLE_RATES (e.g. { ${JSON.stringify(this.scope ?? 'scope')}: '100/min' }) or set \`rate\` on the class.`,
      );
    }
    return rates[this.scope] ?? null;
  }

  #parsed(settings: APISettings): Rate | null {
    const text = this.getRate(settings);
    return text === null ? null : parseRate(text, `${this.constructor.name} (scope ${this.scope})`);
  }

  override check(settings: APISettings, _view: ThrottledView): void {
    this.#parsed(settings);
  }

  override allowRequest(request: Request, view: ThrottledView): boolean | Promise<boolean> {
    const rate = this.#parsed(request.settings);
    if (rate === null) return true;
    const key = this.getCacheKey(request, view);
    if (key === null) return true;
    const store = request.settings.THROTTLE_STORE;
    if (!store) return true;
    const decision = store.hit(key, rate.requests, rate.seconds * 1000, request.raw.log);
    return thenMaybe(decision, (d) => this.#decided(d.allowed, d.waitMs));
  }

  #decided(allowed: boolean, waitMs: number): boolean {
    this.#wait = allowed ? null : waitMs / 1000;
    // For metrics (`server/metrics.ts`): a flag read when nobody listens.
    if (throttleEvents.hasSubscribers)
      throttleEvents.publish({ scope: this.scope ?? '', allowed } satisfies ThrottleEvent);
    return allowed;
  }

  override wait(): number | null {
    return this.#wait;
  }
}

/** What the `restframework:throttle` diagnostics channel publishes for each decision. */
export interface ThrottleEvent {
  /** The throttle's scope (`anon`, `user`, ...); empty for a throttle without one. */
  readonly scope: string;
  /** True when the request passed. */
  readonly allowed: boolean;
}

const throttleEvents = channel('restframework:throttle');

/** `throttle_<scope>_<ident>`, DRF's cache key format. */
function cacheKey(scope: string | undefined, ident: string): string {
  return `throttle_${scope}_${ident}`;
}

/**
 * Callers that are not logged in, by address (scope `anon`); logged-in callers pass.
 *
 * @example
 * ```ts
 * await app.register(restFramework, {
 *   database: db,
 *   settings: { DEFAULT_THROTTLE_CLASSES: [AnonRateThrottle], DEFAULT_THROTTLE_RATES: { anon: '100/hour' } },
 * });
 * ```
 */
export class AnonRateThrottle extends SimpleRateThrottle {
  override scope: string | undefined = 'anon';

  override getCacheKey(request: Request): string | null {
    if (request.user.isAuthenticated) return null;
    return cacheKey(this.scope, this.getIdent(request));
  }
}

/**
 * Every caller: logged-in ones by user id, others by address (scope `user`).
 *
 * @example
 * ```ts
 * await app.register(restFramework, {
 *   database: db,
 *   settings: { DEFAULT_THROTTLE_CLASSES: [UserRateThrottle], DEFAULT_THROTTLE_RATES: { user: '1000/day' } },
 * });
 * ```
 */
export class UserRateThrottle extends SimpleRateThrottle {
  override scope: string | undefined = 'user';

  override getCacheKey(request: Request): string | null {
    const user = request.user;
    const ident =
      user.isAuthenticated && user.id !== undefined && user.id !== null
        ? `user:${String(user.id)}`
        : this.getIdent(request);
    return cacheKey(this.scope, ident);
  }
}

/**
 * A rate per view: the view's `throttleScope` names it in `DEFAULT_THROTTLE_RATES`; views
 * without one are not throttled. Callers are counted as by {@link UserRateThrottle}.
 *
 * @example
 * ```ts
 * class UploadViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override throttleClasses = [ScopedRateThrottle];
 *   override throttleScope = 'uploads'; // DEFAULT_THROTTLE_RATES: { uploads: '20/hour' }
 * }
 * ```
 */
export class ScopedRateThrottle extends UserRateThrottle {
  override scope: string | undefined = undefined;

  override check(settings: APISettings, view: ThrottledView): void {
    if (view.throttleScope === undefined) return;
    this.scope = view.throttleScope;
    super.check(settings, view);
  }

  override allowRequest(request: Request, view: ThrottledView): boolean | Promise<boolean> {
    if (view.throttleScope === undefined) return true;
    this.scope = view.throttleScope;
    return super.allowRequest(request, view);
  }
}
