/**
 * The browsable API's own stylesheet and script, served under `/__restframework/static/`: no
 * third-party asset, names carrying a hash of their content so they can be cached for good
 * (`Cache-Control: immutable`).
 *
 * The files are read and hashed once, the first time a page or a route needs them (the
 * `browsableApi` plugin reads them when it is registered): a service without the browsable API
 * never loads this module (see `browsable-api-plugin.ts`).
 * @module
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { STATIC_CACHE_CONTROL } from '../static-cache-control.ts';
import { STATIC_PREFIX, STATIC_ROUTE } from './static-route.ts';

/** The files, by the name they are asked for and by their file name on disk. */
const FILES = ['browsable-api.css', 'browsable-api.js'] as const;

interface Asset {
  readonly url: string;
  readonly contentType: string;
  readonly body: Buffer;
}

interface AssetTable {
  /** `browsable-api.css` → its asset. */
  readonly byName: ReadonlyMap<string, Asset>;
  /** `browsable-api.<hash>.css` (the URL's last segment) → its asset. */
  readonly byFile: ReadonlyMap<string, Asset>;
}

const TYPES: Readonly<Record<string, string>> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

/**
 * Read once per process (two files, never re-read: they ship with the package and a new
 * version is a new process).
 */
let table: AssetTable | undefined;

function assets(): AssetTable {
  if (table) return table;
  const byName = new Map<string, Asset>();
  const byFile = new Map<string, Asset>();
  for (const name of FILES) {
    const body = readFileSync(new URL(`./static/${name}`, import.meta.url));
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    const dot = name.lastIndexOf('.');
    const file = `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
    const asset: Asset = {
      url: `${STATIC_PREFIX}${file}`,
      contentType: TYPES[name.slice(dot + 1)] as string,
      body,
    };
    byName.set(name, asset);
    byFile.set(file, asset);
  }
  table = { byName, byFile };
  return table;
}

/** The URL of one of the toolkit's files (`browsable-api.css` → `/__restframework/static/browsable-api.<hash>.css`). */
export function staticUrl(name: string): string {
  const asset = assets().byName.get(name);
  if (!asset) throw new Error(`No static file named ${name}.`);
  return asset.url;
}

/** Serves the toolkit's files (GET and HEAD); any other name under the prefix is a 404. */
export function registerStaticAssets(app: FastifyInstance): void {
  const { byFile } = assets();
  app.get(STATIC_ROUTE, async (request, reply) => {
    const asset = byFile.get((request.params as { file: string }).file);
    if (!asset) return reply.callNotFound();
    return reply
      .header('Content-Type', asset.contentType)
      .header('Cache-Control', STATIC_CACHE_CONTROL)
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .send(asset.body);
  });
}
