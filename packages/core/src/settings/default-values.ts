/**
 * The defaults of every setting that is a plain value (numbers, names, lists, null). The five
 * settings whose defaults are classes or functions of upper layers (renderers, parsers,
 * permissions, metadata, the exception handler) are supplied by the plugin
 * (`plugin/default-settings.ts`), so that `settings/` imports nothing above it.
 * @module
 */
import type { APISettings } from './api-settings.ts';

/** The settings whose defaults the plugin supplies (concrete classes of upper layers). */
export type ClassSettingName =
  | 'DEFAULT_RENDERER_CLASSES'
  | 'DEFAULT_PARSER_CLASSES'
  | 'DEFAULT_PERMISSION_CLASSES'
  | 'DEFAULT_METADATA_CLASS'
  | 'EXCEPTION_HANDLER';

const MiB = 1024 * 1024;

/** The default of every setting that is a value; `defaultSettings` adds the classes. */
export const defaultValues: Readonly<Omit<APISettings, ClassSettingName>> = Object.freeze({
  DEFAULT_AUTHENTICATION_CLASSES: [],
  AUTH: null,
  DEFAULT_FILTER_BACKENDS: [],
  DEFAULT_THROTTLE_CLASSES: [],
  DEFAULT_THROTTLE_RATES: {},
  THROTTLE_STORE: null,
  CACHES: null,
  DEFAULT_PAGINATION_CLASS: null,
  PAGE_SIZE: null,
  DEFAULT_VERSIONING_CLASS: null,
  DEFAULT_VERSION: null,
  ALLOWED_VERSIONS: null,
  VERSION_PARAM: 'version',
  USE_ETAGS: false,
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
});
