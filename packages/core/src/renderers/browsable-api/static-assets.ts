/**
 * The browsable API's own stylesheet and script, served by the toolkit's plugin under
 * `/__restframework/static/`: no third-party asset, names carrying a hash of their content so
 * they can be cached for good (`Cache-Control: immutable`).
 * @module
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

/** Where the toolkit serves its files. */
export const STATIC_PREFIX = '/__restframework/static/';

/** Headers of every static file: cached for a year, never re-validated (the name changes instead). */
export const STATIC_CACHE_CONTROL = 'public, max-age=31536000, immutable';

interface Asset {
  readonly url: string;
  readonly contentType: string;
  readonly body: Buffer;
}

const TYPES: Readonly<Record<string, string>> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

const byName = new Map<string, Asset>();
const byFile = new Map<string, Asset>();

for (const name of ['browsable-api.css', 'browsable-api.js']) {
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

/** The URL of one of the toolkit's files (`browsable-api.css` → `/__restframework/static/browsable-api.<hash>.css`). */
export function staticUrl(name: string): string {
  const asset = byName.get(name);
  if (!asset) throw new Error(`No static file named ${name}.`);
  return asset.url;
}

/** Serves the toolkit's files (GET and HEAD); any other name under the prefix is a 404. */
export function registerStaticAssets(app: FastifyInstance): void {
  app.get(`${STATIC_PREFIX}:file`, async (request, reply) => {
    const asset = byFile.get((request.params as { file: string }).file);
    if (!asset) return reply.callNotFound();
    return reply
      .header('Content-Type', asset.contentType)
      .header('Cache-Control', STATIC_CACHE_CONTROL)
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .send(asset.body);
  });
}
