/**
 * Optional peer dependencies (database drivers), loaded the first time they are needed, so an
 * app installs only the driver of the database it uses.
 *
 * @example
 * ```ts
 * import type pg from 'pg';
 * const driver = requireOptional<typeof pg>('pg', 'A postgres:// DATABASE_URL');
 * ```
 * @module
 */
import { createRequire } from 'node:module';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';

// Resolved from this package, as a static import would be: the app's own node_modules.
const require = createRequire(import.meta.url);

/**
 * The package `name`, or `ImproperlyConfigured` (`REST_ERR_MISSING_PACKAGE`) naming what needs
 * it and the command that installs it. A package that is installed but fails to load (a native
 * module built for another Node.js, say) keeps its own error.
 */
export function requireOptional<T>(name: string, neededBy: string): T {
  try {
    return require(name) as T;
  } catch (error) {
    if (!isMissing(error, name)) throw error;
    throw new ImproperlyConfigured(
      'REST_ERR_MISSING_PACKAGE',
      `${neededBy} needs the "${name}" package, which is not installed: run \`npm install ${name}\`.`,
    );
  }
}

/** True when `error` says that `name` itself (not one of its own imports) cannot be found. */
function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === 'MODULE_NOT_FOUND' &&
    typeof message === 'string' &&
    message.startsWith(`Cannot find module '${name}'`)
  );
}
