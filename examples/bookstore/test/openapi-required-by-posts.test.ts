/**
 * The `required` lists of the request bodies in the OpenAPI document are what the server
 * requires (issue 42): from a full valid body, each key (at every depth) is left out in
 * turn and the body sent; the key is required exactly when that answer is a 400 naming it.
 * The result is compared with the document's create body (POST) and PUT body, level by
 * level, for the nested proxy groups of Author (`contact_information`, two levels deep) and
 * Book.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { ALL_MODELS } from '../src/models/index.ts';

const HOST = { host: '127.0.0.1' };
type Json = Record<string, any>;

let unique = 0;
const ROUTES: Record<string, () => Json> = {
  '/books/api/authors/': () => ({
    salutation: 'Dr',
    name: 'Ada',
    birth_date: '1815-12-10',
    biography: 'Notes on the engine.',
    contact_information: {
      personal_contact_information: {
        email: 'ada@example.com',
        phone_number: '1',
        website: 'https://ada.example.com/',
      },
      business_contact_information: {
        company: 'Analytical',
        company_email: 'office@example.com',
        company_phone_number: '2',
        company_website: 'https://engine.example.com/',
      },
    },
  }),
  '/books/api/books/': () => ({
    title: 'Notes',
    description: 'On the engine.',
    summary: 'Notes.',
    publishing_information: { publication_date: '1843-10-01', isbn: `REQ-${++unique}`, pages: 50 },
    stock_information: { stock_count: 3, price: '9.99', state: 'published' },
  }),
};

/** Every key path of a body, groups before their keys. */
function paths(body: Json, prefix: string[] = []): string[][] {
  return Object.entries(body).flatMap(([key, value]) => [
    [...prefix, key],
    ...(value && typeof value === 'object' ? paths(value, [...prefix, key]) : []),
  ]);
}

function without(body: Json, path: string[]): Json {
  const copy = structuredClone(body);
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  delete node[path.at(-1) as string];
  return copy;
}

describe('the request bodies require what the server requires', () => {
  let db: Database;
  let app: FastifyInstance;
  let document: Json;

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(ALL_MODELS);
    app = await buildApp({ database: db });
    document = (await app.inject({ url: '/schema/', headers: HOST })).json();
  });

  after(async () => {
    await app.close();
    await db.close();
  });

  const resolve = (schema: Json): Json =>
    schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop()]) : schema;

  /** The key paths the document's body requires, each where its group is sent. */
  function documented(schema: Json, prefix: string[] = []): string[] {
    const own = resolve(schema);
    return Object.entries(own.properties ?? {}).flatMap(([key, property]) => [
      ...((own.required ?? []).includes(key) ? [[...prefix, key].join('.')] : []),
      ...documented(property as Json, [...prefix, key]),
    ]);
  }

  for (const [list, full] of Object.entries(ROUTES)) {
    for (const method of ['post', 'put'] as const) {
      it(`${method.toUpperCase()} ${list}`, async () => {
        let url = list;
        if (method === 'put') {
          const created = await app.inject({ method: 'POST', url, headers: HOST, payload: full() });
          assert.equal(created.statusCode, 201, created.body);
          url = `${list}${created.json().id}/`;
        }
        const operation = document.paths[method === 'post' ? list : `${list}{pk}/`][method];
        const expected = documented(operation.requestBody.content['application/json'].schema);
        const required: string[] = [];
        for (const path of paths(full())) {
          const answer = await app.inject({
            method: method.toUpperCase() as 'POST',
            url,
            headers: HOST,
            payload: without(full(), path),
          });
          if (answer.statusCode < 300) continue;
          assert.equal(answer.statusCode, 400, answer.body);
          // The 400 names the key left out, or a key under it (a group's required column).
          let errors = answer.json();
          for (const key of path) errors = errors?.[key];
          assert.ok(errors, `${path.join('.')} left out: ${answer.body}`);
          required.push(path.join('.'));
        }
        assert.deepEqual(expected.sort(), required.sort());
      });
    }
  }
});
