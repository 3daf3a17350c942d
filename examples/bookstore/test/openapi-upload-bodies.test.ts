/**
 * The upload route's request bodies in the OpenAPI document are the ones it really takes
 * (issue 42): for every media type its parsers read, the route is asked with the best body
 * that type can carry (every text field, and the file when the type carries files). A media
 * type is in the document exactly when that body succeeds, and a body made from the
 * document's shape for the type (its required keys only) succeeds too.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import { multipartBody } from '@restframework/core/testing';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../src/app.ts';
import { ALL_MODELS } from '../src/models/index.ts';
import { UploadViewSet } from '../src/viewsets/upload-viewset.ts';

const HOST = { host: '127.0.0.1' };
type Json = Record<string, any>;

/** A body of one media type with these text values, and a file under each `files` name. */
function encode(type: string, values: Record<string, string>, files: string[]): InjectOptions {
  if (type === 'multipart/form-data') {
    const body = multipartBody([
      ...Object.entries(values).map(([name, value]) => ({ name, value })),
      ...files.map((name) => ({ name, filename: `${name}.txt`, content: 'my resume' })),
    ]);
    return { payload: body.payload, headers: { ...HOST, ...body.headers } };
  }
  if (type === 'application/x-www-form-urlencoded')
    return {
      payload: new URLSearchParams(values).toString(),
      headers: { ...HOST, 'content-type': type },
    };
  return { payload: JSON.stringify(values), headers: { ...HOST, 'content-type': type } };
}

describe("the upload route's request bodies in the document", () => {
  let db: Database;
  let app: FastifyInstance;
  let document: Json;
  const media = mkdtempSync(join(tmpdir(), 'upload-bodies-'));
  const types = new UploadViewSet().getParsers().map((p) => p.mediaType);

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(ALL_MODELS);
    app = await buildApp({ database: db, mediaRoot: media });
    document = (await app.inject({ url: '/schema/', headers: HOST })).json();
  });

  after(async () => {
    await app.close();
    await db.close();
    rmSync(media, { recursive: true, force: true });
  });

  const resolve = (schema: Json): Json =>
    schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop()]) : schema;

  /** A new upload's detail URL (each write of a PUT or PATCH gets a row of its own). */
  async function existing(): Promise<string> {
    const created = await app.inject({
      method: 'POST',
      url: '/api/upload/',
      ...encode('multipart/form-data', { username: 'first' }, ['resume']),
    });
    assert.equal(created.statusCode, 201, created.body);
    return `/api/upload/${created.json().id}/`;
  }

  for (const [method, template] of [
    ['post', '/api/upload/'],
    ['put', '/api/upload/{pk}/'],
    ['patch', '/api/upload/{pk}/'],
  ] as const) {
    it(`${method.toUpperCase()} ${template}: every media type that works, with its shape`, async () => {
      assert.deepEqual(types, [
        'multipart/form-data',
        'application/x-www-form-urlencoded',
        'application/json',
      ]);
      const content = document.paths[template][method].requestBody.content as Json;
      const works: string[] = [];
      for (const type of types) {
        const url = method === 'post' ? template : await existing();
        const files = type === 'multipart/form-data' ? ['resume'] : [];
        const answer = await app.inject({
          method: method.toUpperCase() as 'POST',
          url,
          ...encode(type, { username: `best-${type.length}` }, files),
        });
        assert.ok(answer.statusCode < 500, answer.body);
        if (answer.statusCode < 300) works.push(type);
        const documented = content[type];
        if (!documented) continue;
        // The documented shape: a file only where the type carries files; its required keys
        // are enough.
        const shape = resolve(documented.schema);
        const binary = Object.keys(shape.properties).filter(
          (k) => shape.properties[k].format === 'binary',
        );
        if (type !== 'multipart/form-data') assert.deepEqual(binary, [], `${type} has no file`);
        const required: string[] = shape.required ?? [];
        const values = Object.fromEntries(
          required.filter((k) => !binary.includes(k)).map((k) => [k, `req-${type.length}`]),
        );
        const minimal = await app.inject({
          method: method.toUpperCase() as 'POST',
          url: method === 'post' ? template : await existing(),
          ...encode(
            type,
            values,
            binary.filter((k) => required.includes(k)),
          ),
        });
        assert.ok(minimal.statusCode < 300, `${type} with ${required}: ${minimal.body}`);
      }
      assert.deepEqual(Object.keys(content).sort(), works.sort());
    });
  }
});
