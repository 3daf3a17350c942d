/**
 * A typed client generated from the bookstore's document (openapi-typescript) and run with
 * openapi-fetch's defaults against the running app (a loopback listen) gets the right rows
 * (issue 42): openapi-fetch sends arrays as repeated keys (`state__in=a&state__in=b`,
 * `ordering=-price&ordering=title`), which the service reads as the whole list. The client
 * module is type-checked with the repository's `tsc`, so the calls match the document.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { Database } from '@restframework/core';
import type { FastifyInstance } from 'fastify';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/app.ts';
import { ALL_MODELS, Book } from '../src/models/index.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const OUT = join(import.meta.dirname, '.openapi-fetch');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** The client calls, typed by the generated `paths`; each answers the ids of its rows. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

type Row = { id?: number };
const ids = (rows: readonly Row[] | undefined) => (rows ?? []).map((row) => row.id);

export async function run(baseUrl: string) {
  const client = createClient<paths>({ baseUrl, headers: { host: '127.0.0.1' } });
  const states = await client.GET('/books/api/books/', {
    params: { query: { state__in: ['published', 'in_progress'] } },
  });
  const range = await client.GET('/books/api/books/', {
    params: { query: { price__range: [10, 20] } },
  });
  const sorted = await client.GET('/books/api/proxy-books/', {
    params: { query: { ordering: ['-price', 'title'] } },
  });
  // The browsable API's text/html is a documented answer too: JSON is the page object.
  return {
    states: ids(typeof states.data === 'string' ? [] : states.data?.results),
    range: ids(typeof range.data === 'string' ? [] : range.data?.results),
    sorted: ids(typeof sorted.data === 'string' ? [] : sorted.data?.results),
    statuses: [states.response.status, range.response.status, sorted.response.status],
  };
}
`;

describe('a generated openapi-fetch client with its defaults', () => {
  let db: Database;
  let app: FastifyInstance;
  let baseUrl: string;
  const rows: { id: number; title: string; state: string; price: string }[] = [];

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(ALL_MODELS);
    const books = [
      ['Beta', 'published', '15.00'],
      ['Alpha', 'in_progress', '15.00'],
      ['Gamma', 'not_published', '12.00'],
      ['Delta', 'published', '25.00'],
      ['Epsilon', 'in_progress', '5.00'],
    ] as const;
    for (const [i, [title, state, price]] of books.entries()) {
      const book = await Book.objects.using(db).create({
        title,
        state,
        price,
        isbn: `978000000000${i}`,
        publication_date: '2020-01-01',
      } as never);
      rows.push({ id: (book as { id: number }).id, title, state, price });
    }
    app = await buildApp({ database: db });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address() as { port: number };
    baseUrl = `http://127.0.0.1:${address.port}`;
    const document = (await app.inject({ url: '/schema/', headers: { host: '127.0.0.1' } })).json();
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    writeFileSync(join(OUT, 'schema.ts'), astToString(await openapiTS(document)));
    writeFileSync(join(OUT, 'client.ts'), CLIENT);
    writeFileSync(
      join(OUT, 'tsconfig.json'),
      `${JSON.stringify({ extends: '../../../../tsconfig.json', include: ['*.ts'] }, null, 2)}\n`,
    );
  });

  after(async () => {
    await app?.close();
    await db?.close();
    if (!process.env.KEEP_OPENAPI_FETCH) rmSync(OUT, { recursive: true, force: true });
  });

  it('type-checks against the generated paths', () => {
    const result = spawnSync(
      process.execPath,
      [TSC, '--noEmit', '--pretty', 'false', '-p', join(OUT, 'tsconfig.json')],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  });

  it('gets the rows of every value of a list filter, of a range, and the whole sort', async () => {
    const { run } = (await import(pathToFileURL(join(OUT, 'client.ts')).href)) as {
      run(url: string): Promise<Record<string, unknown>>;
    };
    const answer = await run(baseUrl);
    assert.deepEqual(answer.statuses, [200, 200, 200]);
    const byId = (pick: (r: (typeof rows)[number]) => boolean) =>
      rows.filter(pick).map((r) => r.id);
    assert.deepEqual(
      answer.states,
      byId((r) => r.state === 'published' || r.state === 'in_progress'),
    );
    assert.deepEqual(
      answer.range,
      byId((r) => Number(r.price) >= 10 && Number(r.price) <= 20),
    );
    const sorted = [...rows]
      .sort((a, b) => Number(b.price) - Number(a.price) || a.title.localeCompare(b.title))
      .map((r) => r.id);
    assert.deepEqual(answer.sorted, sorted);
  });
});
