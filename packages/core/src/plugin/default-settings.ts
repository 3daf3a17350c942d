/**
 * The default settings: the values of `settings/default-values.ts` plus the concrete classes
 * this plugin supplies (JSON and form parsers, the JSON renderer, `AllowAny`, `SimpleMetadata`,
 * `exceptionHandler`), and the check of a settings input at registration.
 * @module
 */

import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { checkDateFormat } from '../fields/date-format.ts';
import { SimpleMetadata } from '../metadata/simple-metadata.ts';
import { FormParser } from '../parsers/form-parser.ts';
import { JSONParser } from '../parsers/json-parser.ts';
import { MultiPartParser } from '../parsers/multi-part-parser.ts';
import { AllowAny } from '../permissions/permissions.ts';
import { JSONRenderer } from '../renderers/json-renderer.ts';
import type { APISettings, SettingsInput } from '../settings/api-settings.ts';
import { defaultValues } from '../settings/default-values.ts';
import { parseRate } from '../throttling/parse-rate.ts';
import { exceptionHandler } from '../views/exception-handler.ts';

/** Every setting's default. */
export const defaultSettings: APISettings = Object.freeze({
  ...defaultValues,
  DEFAULT_RENDERER_CLASSES: [JSONRenderer],
  DEFAULT_PARSER_CLASSES: [JSONParser, FormParser, MultiPartParser],
  DEFAULT_PERMISSION_CLASSES: [AllowAny],
  DEFAULT_METADATA_CLASS: SimpleMetadata,
  EXCEPTION_HANDLER: exceptionHandler,
});

/** The defaults with `input` on top; unknown names and wrong types fail at start-up. */
export function resolveSettings(input: SettingsInput = {}): APISettings {
  for (const [key, value] of Object.entries(input)) {
    if (!Object.hasOwn(defaultSettings, key)) {
      throw new ImproperlyConfigured(
        'REST_ERR_SETTINGS',
        `Unknown setting ${key}. Known settings: ${Object.keys(defaultSettings).join(', ')}.`,
      );
    }
    const expected = defaultSettings[key as keyof APISettings];
    const numeric = typeof expected === 'number' || key === 'PAGE_SIZE';
    if (numeric && value !== null && (!Number.isInteger(value) || (value as number) < 0)) {
      throw new ImproperlyConfigured(
        'REST_ERR_SETTINGS',
        `${key} must be a non-negative integer, got ${JSON.stringify(value)}.`,
      );
    }
    if (typeof expected === 'boolean' && typeof value !== 'boolean') {
      throw new ImproperlyConfigured(
        'REST_ERR_SETTINGS',
        `${key} must be true or false, got ${JSON.stringify(value)}.`,
      );
    }
    if (Array.isArray(expected) && !Array.isArray(value)) {
      throw new ImproperlyConfigured('REST_ERR_SETTINGS', `${key} must be a list.`);
    }
  }
  const settings = { ...defaultSettings, ...input } as APISettings;
  checkExceptionHandler(settings.EXCEPTION_HANDLER);
  checkThrottleRates(settings.DEFAULT_THROTTLE_RATES);
  checkVersioning(settings);
  checkDateFormat(settings.DATETIME_FORMAT, 'DATETIME_FORMAT', 'datetime', 'REST_ERR_SETTINGS');
  checkDateFormat(settings.DATE_FORMAT, 'DATE_FORMAT', 'date', 'REST_ERR_SETTINGS');
  if (!settings.MEDIA_URL.startsWith('/') || !settings.MEDIA_URL.endsWith('/')) {
    throw new ImproperlyConfigured(
      'REST_ERR_SETTINGS',
      `MEDIA_URL must start and end with "/", got "${settings.MEDIA_URL}".`,
    );
  }
  return Object.freeze(settings);
}

/**
 * The exception handler is a synchronous function: a promise in its place would reach every
 * error path as something that is not a response, and each error would become a 500.
 */
function checkExceptionHandler(handler: unknown): void {
  if (typeof handler !== 'function') {
    throw new ImproperlyConfigured(
      'REST_ERR_SETTINGS',
      `EXCEPTION_HANDLER must be a function (exc, context) => Response | null, got ${describe(handler)}. ` +
        'Pass the function itself, not its name or its result; leave the setting out for the default exceptionHandler.',
    );
  }
  if (handler.constructor.name === 'AsyncFunction') {
    throw new ImproperlyConfigured(
      'REST_ERR_SETTINGS',
      `EXCEPTION_HANDLER (${handler.name || 'anonymous'}) is async: it must answer a Response or null at once. ` +
        'Remove `async`; do slow work (reporting the error elsewhere) without awaiting it.',
    );
  }
}

/** A value as a message may show it: its type, and its text when short. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value;
}

/** The versioning settings: a class or null, texts or null, a list of texts or null. */
function checkVersioning(settings: APISettings): void {
  const { DEFAULT_VERSIONING_CLASS, DEFAULT_VERSION, ALLOWED_VERSIONS, VERSION_PARAM } = settings;
  if (DEFAULT_VERSIONING_CLASS !== null && typeof DEFAULT_VERSIONING_CLASS !== 'function')
    throw new ImproperlyConfigured(
      'REST_ERR_SETTINGS',
      `DEFAULT_VERSIONING_CLASS must be a versioning class (URLPathVersioning, ...) or null, got ${describe(DEFAULT_VERSIONING_CLASS)}.`,
    );
  if (DEFAULT_VERSION !== null && typeof DEFAULT_VERSION !== 'string')
    throw new ImproperlyConfigured(
      'REST_ERR_SETTINGS',
      `DEFAULT_VERSION must be a text or null, got ${describe(DEFAULT_VERSION)}.`,
    );
  if (
    ALLOWED_VERSIONS !== null &&
    (!Array.isArray(ALLOWED_VERSIONS) || ALLOWED_VERSIONS.some((v) => typeof v !== 'string'))
  )
    throw new ImproperlyConfigured(
      'REST_ERR_SETTINGS',
      "ALLOWED_VERSIONS must be a list of texts (['v1', 'v2']) or null for any version.",
    );
  if (typeof VERSION_PARAM !== 'string' || !/^\w+$/.test(VERSION_PARAM))
    throw new ImproperlyConfigured(
      'REST_ERR_SETTINGS',
      `VERSION_PARAM must be a name of letters, digits and _, got ${describe(VERSION_PARAM)}.`,
    );
}

/** Every rate of DEFAULT_THROTTLE_RATES is null or parses (else the error names the scope). */
function checkThrottleRates(rates: unknown): void {
  if (typeof rates !== 'object' || rates === null || Array.isArray(rates)) {
    throw new ImproperlyConfigured(
      'REST_ERR_SETTINGS',
      "DEFAULT_THROTTLE_RATES must be an object of rates by scope, e.g. { anon: '100/min' }.",
    );
  }
  for (const [scope, rate] of Object.entries(rates)) {
    if (rate !== null) parseRate(rate as string, `DEFAULT_THROTTLE_RATES.${scope}`);
  }
}
