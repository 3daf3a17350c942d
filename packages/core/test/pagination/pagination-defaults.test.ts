/**
 * The paginators keep their defaults on their prototypes (a paginator is made per request):
 * a new one defines no field, reads DRF's defaults, and what one request's paginator sets is
 * its own; a subclass's field overrides a default for that subclass only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CursorPagination,
  LimitOffsetPagination,
  PageNumberPagination,
  type Request,
} from '@restframework/core';

const DEFAULTS: [string, new () => object, Record<string, unknown>][] = [
  [
    'PageNumberPagination',
    PageNumberPagination,
    {
      pageSize: null,
      pageQueryParam: 'page',
      pageSizeQueryParam: null,
      maxPageSize: null,
      lastPageStrings: ['last'],
      invalidPageMessage: 'Invalid page.',
      count: 0,
      pageNumber: 1,
      numPages: 1,
      request: undefined,
    },
  ],
  [
    'LimitOffsetPagination',
    LimitOffsetPagination,
    {
      defaultLimit: null,
      limitQueryParam: 'limit',
      offsetQueryParam: 'offset',
      maxLimit: null,
      count: 0,
      limit: 0,
      offset: 0,
      request: undefined,
    },
  ],
  [
    'CursorPagination',
    CursorPagination,
    {
      cursorQueryParam: 'cursor',
      pageSize: null,
      pageSizeQueryParam: null,
      maxPageSize: null,
      ordering: null,
      invalidCursorMessage: 'Invalid cursor',
      request: undefined,
      nextCursor: null,
      previousCursor: null,
      fingerprint: '',
    },
  ],
];

describe('paginator defaults', () => {
  for (const [name, Paginator, defaults] of DEFAULTS) {
    it(`${name}: defines no field, and reads DRF's defaults`, () => {
      const paginator = new Paginator() as Record<string, unknown>;
      assert.deepEqual(Object.keys(paginator), []);
      for (const [key, value] of Object.entries(defaults))
        assert.deepEqual(paginator[key], value, key);
    });

    it(`${name}: what one paginator sets is its own`, () => {
      const first = new Paginator() as Record<string, unknown>;
      const second = new Paginator() as Record<string, unknown>;
      for (const key of Object.keys(defaults)) first[key] = `changed ${key}`;
      for (const [key, value] of Object.entries(defaults))
        assert.deepEqual(second[key], value, key);
    });
  }

  it('shares lastPageStrings frozen, and lets a subclass declare its own', () => {
    assert.ok(Object.isFrozen(new PageNumberPagination().lastPageStrings));
    class Pages extends PageNumberPagination {
      override pageSize = 7;
      override lastPageStrings = ['last', 'end'];
    }
    const own = new Pages();
    assert.equal(own.getPageSize({ settings: { PAGE_SIZE: 100 } } as Request), 7);
    assert.deepEqual(own.lastPageStrings, ['last', 'end']);
    assert.equal(new PageNumberPagination().pageSize, null);
    assert.deepEqual(new PageNumberPagination().lastPageStrings, ['last']);
  });
});
