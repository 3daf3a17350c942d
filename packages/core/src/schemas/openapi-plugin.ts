/**
 * Serves an app's OpenAPI 3.1 document as JSON, and an interactive documentation page (Swagger
 * UI) that works offline: its files come from the `swagger-ui-dist` package, served by the app
 * itself, under a Content-Security-Policy that allows nothing from elsewhere.
 *
 * `swagger-ui-dist` is an optional peer dependency: an app that serves the documentation page
 * installs it (`npm install swagger-ui-dist`); one that serves only the document does not.
 *
 * @example
 * ```ts
 * await app.register(restFramework, { database: db });
 * await app.register(router.plugin, { prefix: '/api' });
 * await app.register(openApi, { title: 'Bookstore', version: '1.0.0' });
 * // GET /schema/       → the document (application/json, or application/vnd.oai.openapi+json when asked)
 * // GET /schema/docs/  → Swagger UI
 * ```
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { parseAccept } from '../http/content-negotiation.ts';
import { html } from '../renderers/html.ts';
import { STATIC_CACHE_CONTROL } from '../renderers/static-cache-control.ts';
import {
  type OpenAPIDocument,
  SchemaGenerator,
  type SchemaGeneratorOptions,
} from './schema-generator.ts';

/** Options of {@link openApi}. */
export interface OpenAPIOptions extends SchemaGeneratorOptions {
  /** Where the document is served (default `/schema/`). */
  readonly path?: string;
  /** Where the documentation page is served (default `/schema/docs/`); `false` for none. */
  readonly docsPath?: string | false;
  /** The generator (default: a `SchemaGenerator` with these options). */
  readonly generator?: SchemaGenerator;
  /**
   * One document per API version, each at `<path><version>/` (`/schema/v1/`), built with
   * `apiVersion` set to it (see `SchemaGeneratorOptions.apiVersion`). The document at `path`
   * stays the one of `apiVersion` (or of no version).
   */
  readonly apiVersions?: readonly string[];
}

/** The documentation page's policy: Swagger UI's own files and the document, from this site only. */
export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const OPENAPI_JSON = 'application/vnd.oai.openapi+json';
const DOCS_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

/** The folder of the installed `swagger-ui-dist`, and its version. */
function swaggerUiDist(): { dir: string; version: string } {
  try {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve('swagger-ui-dist/package.json');
    const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
    return { dir: dirname(manifest), version };
  } catch {
    throw new ImproperlyConfigured(
      'REST_ERR_OPENAPI_DOCS',
      'The API documentation page needs the swagger-ui-dist package: run `npm install swagger-ui-dist`, ' +
        'or pass { docsPath: false } to serve only the OpenAPI document.',
    );
  }
}

/** See the module documentation. Register it after the routers it describes, or before: the document is built on first request. */
export async function openApi(app: FastifyInstance, options: OpenAPIOptions = {}): Promise<void> {
  if (!app.hasDecorator('restFramework')) {
    throw new ImproperlyConfigured(
      'REST_ERR_OPENAPI_DOCS',
      'Register the restFramework plugin before openApi: app.register(restFramework, { database }).',
    );
  }
  const path = options.path ?? '/schema/';
  const docsPath = options.docsPath === undefined ? '/schema/docs/' : options.docsPath;
  for (const p of [path, docsPath]) {
    if (p !== false && (!p.startsWith('/') || !p.endsWith('/'))) {
      throw new ImproperlyConfigured(
        'REST_ERR_OPENAPI_DOCS',
        `openApi: paths must start and end with "/", got "${p}".`,
      );
    }
  }
  const generator = options.generator ?? new SchemaGenerator(options);
  const state = app.restFramework;
  let document: OpenAPIDocument | undefined;
  let body: Buffer | undefined;

  const send = (request: FastifyRequest, reply: FastifyReply, bytes: Buffer) => {
    const wantsOpenApi = parseAccept(request.headers.accept).some((r) => r.text === OPENAPI_JSON);
    return reply
      .header('Content-Type', wantsOpenApi ? OPENAPI_JSON : 'application/json; charset=utf-8')
      .header('Vary', 'Accept')
      .send(bytes);
  };
  app.get(path, async (request: FastifyRequest, reply: FastifyReply) => {
    document ??= generator.getSchema(state);
    body ??= Buffer.from(JSON.stringify(document));
    return send(request, reply, body);
  });
  redirectToSlash(app, path);
  for (const apiVersion of options.apiVersions ?? []) {
    if (!/^[\w.-]+$/.test(apiVersion)) {
      throw new ImproperlyConfigured(
        'REST_ERR_OPENAPI_DOCS',
        `openApi: the API version ${JSON.stringify(apiVersion)} must be letters, digits, ".", "-" or "_" (it is a path segment).`,
      );
    }
    // Each version's document is built once, on first request, with a generator of its own.
    const versioned = new (generator.constructor as typeof SchemaGenerator)({
      ...generator.options,
      apiVersion,
    });
    let bytes: Buffer | undefined;
    const at = `${path}${apiVersion}/`;
    app.get(at, async (request: FastifyRequest, reply: FastifyReply) => {
      bytes ??= Buffer.from(JSON.stringify(versioned.getSchema(state)));
      return send(request, reply, bytes);
    });
    redirectToSlash(app, at);
  }
  if (docsPath === false) return;

  const dist = swaggerUiDist();
  const staticBase = `${docsPath}static/${dist.version}/`;
  const files = new Map<string, { type: string; body: Buffer }>();
  for (const [name, type] of Object.entries(DOCS_FILES))
    files.set(name, { type, body: readFileSync(join(dist.dir, name)) });
  files.set('swagger-init.js', {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(new URL('./static/swagger-init.js', import.meta.url)),
  });

  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${generator.options.title ?? 'API'} · API documentation</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${staticBase}swagger-ui.css">
<script src="${staticBase}swagger-ui-bundle.js" defer></script>
<script src="${staticBase}swagger-init.js" defer></script>
</head>
<body>
<noscript><p>This page needs JavaScript. The OpenAPI document itself is at <a href="${path}">${path}</a>.</p></noscript>
<div id="swagger-ui" data-schema-url="${path}"></div>
</body>
</html>
`.toString();

  app.get(docsPath, async (_request, reply) =>
    reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY)
      .send(page),
  );
  redirectToSlash(app, docsPath);
  app.get(`${staticBase}:file`, async (request, reply) => {
    const file = files.get((request.params as { file: string }).file);
    if (!file) return reply.callNotFound();
    return reply
      .header('Content-Type', file.type)
      .header('Cache-Control', STATIC_CACHE_CONTROL)
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .send(file.body);
  });
}

/** `/schema` → 301 `/schema/`, as the routers answer a missing trailing slash. */
function redirectToSlash(app: FastifyInstance, path: string): void {
  app.get(path.slice(0, -1), async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply
      .code(301)
      .header('Location', `${path}${query}`)
      .type('text/html; charset=utf-8')
      .send('');
  });
}
