/**
 * The default settings.
 * @module
 */

import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { SimpleMetadata } from '../metadata/simple-metadata.ts';
import { FormParser } from '../parsers/form-parser.ts';
import { JSONParser } from '../parsers/json-parser.ts';
import { MultiPartParser } from '../parsers/multi-part-parser.ts';
import { AllowAny } from '../permissions/permissions.ts';
import { JSONRenderer } from '../renderers/json-renderer.ts';
import { parseRate } from '../throttling/parse-rate.ts';
import { exceptionHandler } from '../views/exception-handler.ts';
import type { APISettings, SettingsInput } from './api-settings.ts';

const MiB = 1024 * 1024;

/** Every setting's default. */
export const defaultSettings: APISettings = Object.freeze({
  DEFAULT_RENDERER_CLASSES: [JSONRenderer],
  DEFAULT_PARSER_CLASSES: [JSONParser, FormParser, MultiPartParser],
  DEFAULT_AUTHENTICATION_CLASSES: [],
  AUTH: null,
  DEFAULT_PERMISSION_CLASSES: [AllowAny],
  DEFAULT_FILTER_BACKENDS: [],
  DEFAULT_THROTTLE_CLASSES: [],
  DEFAULT_THROTTLE_RATES: {},
  THROTTLE_STORE: null,
  DEFAULT_PAGINATION_CLASS: null,
  PAGE_SIZE: null,
  DEFAULT_METADATA_CLASS: SimpleMetadata,
  ORDERING_PARAM: 'ordering',
  SEARCH_PARAM: 'search',
  URL_FORMAT_OVERRIDE: 'format',
  ALLOWED_HOSTS: ['127.0.0.1', 'localhost', '[::1]'],
  MAX_BODY_SIZE: 2.5 * MiB,
  MAX_BODY_DEPTH: 64,
  MAX_UPLOAD_BODY_SIZE: 100 * MiB,
  MAX_UPLOAD_PARTS: 1000,
  MAX_UPLOAD_FIELD_SIZE: 2.5 * MiB,
  RESPONSE_WRITE_TIMEOUT: 30_000,
  MAX_PENDING_RESPONSES: 32,
  MEDIA_ROOT: 'media',
  MEDIA_URL: '/media/',
  STORAGE: null,
  FILE_UPLOAD_TEMP_DIR: null,
  DELETE_ORPHANED_FILES: true,
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
