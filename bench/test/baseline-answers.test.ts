/**
 * The hand-written baseline answers what the toolkit answers: for every scenario the bench
 * loads, and for the refusals around them, the same status, the same headers in the same
 * order, and the same body bytes (writes: the same JSON structure, as both run on one
 * database here and each write changes it). The bench's verify step checks the running
 * servers again before every measured run.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../examples/bookstore/src/app.ts';
import { buildBaseline } from '../baseline/app.ts';
import { BENCH_MODELS } from '../src/bench-models.ts';
import { buildScenarios, seedScenarioData } from '../src/scenarios.ts';
import { registerBenchRoutes } from '../src/servers/bench-router.ts';

interface Probe {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'OPTIONS';
  readonly path: string;
  readonly body?: string;
  readonly host?: string;
}

/** Refusals and edges next to the scenarios: compared byte for byte too. */
const EDGES: readonly Probe[] = [
  { method: 'GET', path: '/books/api/books/999999/' },
  { method: 'GET', path: '/books/api/books/abc/' },
  { method: 'GET', path: '/books/api/books/?page=99' },
  { method: 'GET', path: '/books/api/books/?page=last' },
  { method: 'GET', path: '/books/api/books/?page=2&price__gte=10' },
  { method: 'GET', path: '/books/api/books/?price__gte=abc' },
  { method: 'GET', path: '/bench/api/books-cursor/' },
  { method: 'GET', path: '/bench/api/books-cursor/?cursor=zzz' },
  { method: 'GET', path: '/api/profile/?ordering=-email&page=2' },
  { method: 'GET', path: '/bench/api/articles/' },
  { method: 'GET', path: '/bench/api/articles/?viewer=7&page=last' },
  { method: 'GET', path: '/bench/api/articles/?page=3&viewer=abc' },
  { method: 'GET', path: '/bench/api/articles/?viewer=2&page=99' },
  { method: 'GET', path: '/books/api/books/500/', host: 'evil.example' },
  { method: 'OPTIONS', path: '/books/api/books/', host: 'evil.example' },
  { method: 'GET', path: '/books/api/books/500/', host: 'LOCALHOST.:8000' },
  { method: 'PATCH', path: '/books/api/books/3/', body: '{"stock_information":{"price":"abc"}}' },
  { method: 'PATCH', path: '/books/api/books/999999/', body: '{"title":"x"}' },
  { method: 'POST', path: '/books/api/books/', body: '{"title":""}' },
  { method: 'POST', path: '/books/api/books/', body: '[1]' },
  {
    method: 'POST',
    path: '/books/api/books/',
    body: '{"title":"t","publishing_information":{"publication_date":"2024-05-17","isbn":"bench-0"},"stock_information":{"price":"1"}}',
  },
  {
    method: 'POST',
    path: '/books/api/books/',
    body: '{"title":"t","publishing_information":{"publication_date":"2024-02-30","isbn":"x"},"stock_information":{"price":"1.234"}}',
  },
];

/**
 * Headers that differ by the moment or the connection, not by the server; and the toolkit's
 * `X-Request-Id` (issue 43), a new UUID per request that no two answers share, which the
 * baseline does not send (it does less work for it, never more).
 */
const IGNORED = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);

/**
 * The headers in order. A write's Location names its own new row and its length its own
 * values, so for writes only their presence counts.
 */
function headersOf(response: LightMyRequestResponse, exact: boolean): string {
  return JSON.stringify(
    Object.entries(response.headers)
      .filter(([name]) => !IGNORED.has(name))
      .map(([name, value]) =>
        exact || (name !== 'location' && name !== 'content-length') ? [name, value] : [name],
      ),
  );
}

function bodyOf(request: { body?: string }): { body?: string } {
  return request.body === undefined ? {} : { body: request.body };
}

/** The JSON structure of a value: keys in order and the type of every leaf. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).map(([k, v]) => [k, shape(v)]);
  return value === null ? 'null' : typeof value;
}

for (const dialect of testDialects()) {
  describe(`the baseline answers as the toolkit on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let toolkit: FastifyInstance;
    let baseline: FastifyInstance;
    let drop: () => Promise<void>;
    /** Each contender's request (writes differ: a unique isbn, another price), and how to compare. */
    let probes: { toolkit: Probe; baseline: Probe; exact: boolean }[] = [];

    before(async () => {
      const created = await dialect.createUrl();
      drop = created.drop;
      db = Database.connect(created.url);
      await db.migrate(BENCH_MODELS);
      const data = await seedScenarioData(db);
      toolkit = await buildApp({ database: db });
      await registerBenchRoutes(toolkit);
      baseline = await buildBaseline(created.url);
      probes = [
        ...buildScenarios(data).map((scenario) => {
          const exact = scenario.compare === 'exact';
          return {
            toolkit: { method: scenario.method, ...scenario.request(0) },
            // A write of its own (another isbn, another price) on the same path.
            baseline: {
              method: scenario.method,
              path: scenario.request(0).path,
              ...bodyOf(scenario.request(exact ? 0 : 1)),
            },
            exact,
          };
        }),
        ...EDGES.map((probe) => ({ toolkit: probe, baseline: probe, exact: true })),
      ];
    });

    after(async () => {
      await baseline?.close();
      await toolkit?.close();
      await db?.close();
      await drop?.();
    });

    it('same status, headers and bytes for every probe', async () => {
      assert.ok(probes.length > 20);
      for (const { toolkit: probe, baseline: other, exact } of probes) {
        const send = (app: FastifyInstance, probe: Probe) =>
          app.inject({
            method: probe.method,
            url: probe.path,
            headers: {
              host: probe.host ?? '127.0.0.1:8000',
              ...(probe.body ? { 'content-type': 'application/json' } : {}),
            },
            ...(probe.body ? { payload: probe.body } : {}),
          });
        const a = await send(toolkit, probe);
        const b = await send(baseline, other);
        const what = `${probe.method} ${probe.path}${probe.host ? ` (Host ${probe.host})` : ''}`;
        assert.equal(b.statusCode, a.statusCode, `${what}: status (${a.body})`);
        assert.equal(headersOf(b, exact), headersOf(a, exact), `${what}: headers`);
        if (exact) assert.equal(b.body, a.body, `${what}: body`);
        else assert.deepEqual(shape(b.json()), shape(a.json()), `${what}: JSON structure`);
      }
    });
  });
}
