/**
 * The floor answers what it was given: for each recorded request, the recorded status, every
 * recorded header in its order and the recorded body with the floor's own address, for the
 * exact path, for another id on the same route (PATCH spreads over ids) and for a query
 * string the recording did not have; a route it was not given is Fastify's 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildFloor, type FloorAnswer, routeOf } from '../floor/app.ts';

const ANSWERS: FloorAnswer[] = [
  {
    method: 'GET',
    path: '/books/api/books/500/',
    status: 200,
    headers: [
      ['x-frame-options', 'DENY'],
      ['allow', 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS'],
      ['vary', 'Accept'],
      ['content-type', 'application/json'],
    ],
    body: '{"url":"http://127.0.0.1:PORT/books/api/books/500/","id":500}',
  },
  {
    method: 'GET',
    path: '/books/api/books/?page=2',
    status: 200,
    headers: [['content-type', 'application/json']],
    body: '{"page":2,"next":"http://127.0.0.1:PORT/books/api/books/?page=3"}',
  },
  {
    method: 'GET',
    path: '/books/api/books/',
    status: 200,
    headers: [['content-type', 'application/json']],
    body: '{"page":1}',
  },
  {
    method: 'PATCH',
    path: '/books/api/books/7/',
    status: 200,
    headers: [['content-type', 'application/json']],
    body: '{"id":7}',
  },
];

describe('the floor', () => {
  const floor = buildFloor(ANSWERS);
  const port = 54321;
  before(async () => {
    await floor.app.ready();
    floor.answerWith(port);
  });
  after(() => floor.app.close());

  it('routes a path without its query string, numeric segments as parameters', () => {
    assert.equal(routeOf('/books/api/books/500/?x=1'), '/books/api/books/:p0/');
    assert.equal(routeOf('/a/1/b/22/'), '/a/:p0/b/:p1/');
    assert.equal(routeOf('/books/api/books/'), '/books/api/books/');
  });

  it('answers the recorded bytes, headers in their order, its own address in the body', async () => {
    const response = await floor.app.inject({ method: 'GET', url: '/books/api/books/500/' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, `{"url":"http://127.0.0.1:${port}/books/api/books/500/","id":500}`);
    const names = Object.keys(response.headers);
    assert.deepEqual(
      names.filter((n) => ANSWERS[0]?.headers.some(([h]) => h === n)),
      ['x-frame-options', 'allow', 'vary', 'content-type'],
    );
    assert.equal(response.headers['content-type'], 'application/json');
  });

  it('tells recorded query strings apart, and answers the first one for another', async () => {
    const second = await floor.app.inject({ url: '/books/api/books/?page=2' });
    assert.equal(
      second.body,
      `{"page":2,"next":"http://127.0.0.1:${port}/books/api/books/?page=3"}`,
    );
    const first = await floor.app.inject({ url: '/books/api/books/' });
    assert.equal(first.body, '{"page":1}');
    const other = await floor.app.inject({ url: '/books/api/books/?page=9' });
    assert.equal(other.body, second.body);
  });

  it('answers a write to another id of the route with the recorded answer', async () => {
    const response = await floor.app.inject({
      method: 'PATCH',
      url: '/books/api/books/123/',
      payload: { price: '1.00' },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, '{"id":7}');
  });

  it('knows no other route', async () => {
    const response = await floor.app.inject({ method: 'POST', url: '/books/api/books/' });
    assert.equal(response.statusCode, 404);
  });
});
