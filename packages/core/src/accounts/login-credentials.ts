/**
 * Reading a login's username and password from a request body, with DRF's messages, and the
 * throttle that limits login attempts.
 * @module
 */
import { ValidationError } from '../errors/api-exception.ts';
import type { Request } from '../http/request.ts';
import type { APISettings } from '../settings/api-settings.ts';
import { SimpleRateThrottle, type ThrottledView } from '../throttling/throttles.ts';
import type { Auth, UserRow } from './auth.ts';
import { unusableCharacter } from './credential-characters.ts';
import { MAX_PASSWORD_LENGTH } from './password-hashers.ts';

/** DRF's `AuthTokenSerializer` answer to wrong credentials (the same for an unknown user). */
export const UNABLE_TO_LOG_IN = 'Unable to log in with provided credentials.';

/** The body as an object of fields (`{}` for anything else). */
function fieldsOf(request: Request): Record<string, unknown> {
  const body = request.data;
  return (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
}

/**
 * The text of each field (in order), or one 400 with DRF's message for every field that is
 * missing, not text, blank, longer than its limit or holding a character no credential may
 * hold (NUL, a lone surrogate, a control character: see `credential-characters.ts`).
 */
export function requiredStrings(
  request: Request,
  limits: Readonly<Record<string, number>>,
): Record<string, string> {
  const data = fieldsOf(request);
  const errors: Record<string, string[]> = {};
  const values: Record<string, string> = {};
  for (const [field, max] of Object.entries(limits)) {
    const value = data[field];
    if (value === undefined || value === null) errors[field] = ['This field is required.'];
    else if (typeof value !== 'string') errors[field] = ['Not a valid string.'];
    else if (value === '') errors[field] = ['This field may not be blank.'];
    else if (value.length > max)
      errors[field] = [`Ensure this field has no more than ${max} characters.`];
    else {
      const unusable = unusableCharacter(value);
      if (unusable) errors[field] = [unusable];
      else values[field] = value;
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return values;
}

/** The `username` and `password` of a login body, or DRF's field errors. */
export function readCredentials(request: Request): { username: string; password: string } {
  const values = requiredStrings(request, { username: 150, password: MAX_PASSWORD_LENGTH });
  return { username: values.username as string, password: values.password as string };
}

/**
 * The user whose credentials the body carries, or a 400: field errors for a missing, blank or
 * non-text field; "Unable to log in with provided credentials." for wrong ones, whatever was
 * wrong.
 */
export async function userFromCredentials(request: Request, auth: Auth): Promise<UserRow> {
  const { username, password } = readCredentials(request);
  const user = await auth.authenticate(username, password);
  if (!user) throw new ValidationError({ non_field_errors: [UNABLE_TO_LOG_IN] });
  return user;
}

/**
 * Login attempts per client address: the `login` rate of `DEFAULT_THROTTLE_RATES`, or
 * 10 a minute when it has none. On the views that check passwords (obtain-token, session
 * login, JWT pair), so that passwords cannot be guessed at speed.
 *
 * @example
 * ```ts
 * // Five attempts a minute per client address on every login view, instead of ten:
 * await app.register(restFramework, {
 *   database: db,
 *   settings: { DEFAULT_THROTTLE_RATES: { login: '5/min' } },
 * });
 * ```
 */
export class LoginRateThrottle extends SimpleRateThrottle {
  override scope: string | undefined = 'login';

  /** Only attempts count: a GET of a login route (the session login's CSRF token) does not. */
  override allowRequest(request: Request, view: ThrottledView): boolean | Promise<boolean> {
    return request.isSafeMethod || super.allowRequest(request, view);
  }

  override getRate(settings: APISettings): string | null {
    if (this.rate !== undefined) return this.rate;
    return Object.hasOwn(settings.DEFAULT_THROTTLE_RATES, 'login')
      ? (settings.DEFAULT_THROTTLE_RATES.login ?? null)
      : '10/min';
  }

  override getCacheKey(request: Request): string {
    return `throttle_login_${this.getIdent(request)}`;
  }
}
