/**
 * The `package.json` of a new project: the toolkit's packages at this starter's own version
 * (they are released together), and the versions of Fastify, the SQLite driver and TypeScript
 * the toolkit is tested with.
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Version ranges the toolkit's own tests install (kept in step by the starter's tests). */
export const TESTED_RANGES = {
  fastify: '^5.12.8',
  'better-sqlite3': '^13.2.0',
  typescript: '^7.0.2',
  'swagger-ui-dist': '^5.35.0',
  '@types/node': '^24.0.0',
} as const;

const own = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
  version: string;
};

/** The manifest of a project named `name`. */
export function projectPackageJson(name: string): Record<string, unknown> {
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '>=22.18' },
    scripts: {
      start: 'node src/main.ts',
      test: 'tsc && node --test "test/**/*.test.ts"',
      typecheck: 'tsc',
    },
    dependencies: {
      '@restframework/core': `^${own.version}`,
      '@restframework/tricks': `^${own.version}`,
      'better-sqlite3': TESTED_RANGES['better-sqlite3'],
      fastify: TESTED_RANGES.fastify,
      // Swagger UI's files, for the API documentation page at /schema/docs/.
      'swagger-ui-dist': TESTED_RANGES['swagger-ui-dist'],
    },
    devDependencies: {
      '@types/node': TESTED_RANGES['@types/node'],
      typescript: TESTED_RANGES.typescript,
    },
  };
}
