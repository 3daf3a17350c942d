import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EMPTY,
  HyperlinkedIdentityField,
  ImproperlyConfigured,
  type RequestLike,
} from '@restframework/core';
import { bindField, fieldValues, SKIPPED, testRunContext } from '@restframework/core/testing';

/** A request that reverses `<name>` to `http://testserver/<name>/<params>/`. */
const request: RequestLike = {
  reverse: (name, params = {}) =>
    `http://testserver/${name}/${Object.entries(params)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join('&')}/`,
  buildAbsoluteUri: (path) => `http://testserver${path}`,
};

fieldValues('HyperlinkedIdentityField', {
  field: () => new HyperlinkedIdentityField({ viewName: 'book-detail' }),
  runContext: { context: { request } },
  // Read-only: whatever is sent is ignored.
  validInputs: [
    ['http://testserver/book-detail/pk=1/', SKIPPED],
    [EMPTY, SKIPPED],
  ],
  outputs: [
    [{ id: 1, title: 'Dune' }, 'http://testserver/book-detail/pk=1/'],
    [{ id: 42 }, 'http://testserver/book-detail/pk=42/'],
  ],
});

fieldValues('HyperlinkedIdentityField with a lookup field and URL parameter', {
  field: () =>
    new HyperlinkedIdentityField({
      viewName: 'book-by-isbn',
      lookupField: 'isbn',
      lookupUrlKwarg: 'isbn',
    }),
  runContext: { context: { request } },
  outputs: [[{ id: 1, isbn: '978-0' }, 'http://testserver/book-by-isbn/isbn=978-0/']],
});

describe('HyperlinkedIdentityField', () => {
  it('reads the whole record (its source is *) and is read-only', () => {
    const field = bindField(new HyperlinkedIdentityField({ viewName: 'book-detail' }), 'url');
    const row = { id: 3 };
    assert.equal(field.getAttribute(row), row);
    assert.equal(field.readOnly, true);
    assert.equal(field.required, false);
    assert.deepEqual(field.describe(), {
      type: 'field',
      required: false,
      read_only: true,
      label: 'Url',
    });
  });

  it('passes the view name and the lookup to reverse(), once per request for a list', () => {
    const calls: unknown[] = [];
    const spyOn = (origin: string): RequestLike => ({
      reverse: (name, params = {}) => {
        calls.push([name, params]);
        return `${origin}/books/${encodeURIComponent(String(params.pk))}/`;
      },
      buildAbsoluteUri: (path) => path,
    });
    const field = bindField(new HyperlinkedIdentityField({ viewName: 'book-detail' }), 'url');
    const first = testRunContext({ context: { request: spyOn('http://a') } });
    assert.deepEqual(
      [{ id: 5 }, { id: 6 }, { id: 'a/b ü' }].map((row) => field.toRepresentation(row, first)),
      ['http://a/books/5/', 'http://a/books/6/', 'http://a/books/a%2Fb%20%C3%BC/'],
    );
    // The first row as any (a detail view renders no other), then one call for the rest of
    // the request, a placeholder standing in for the parameter of every row.
    assert.deepEqual(calls, [
      ['book-detail', { pk: 5 }],
      ['book-detail', { pk: '\u0000' }],
    ]);
    // Another request (another host) is never given the first one's URLs.
    const second = testRunContext({ context: { request: spyOn('http://b') } });
    assert.equal(field.toRepresentation({ id: 5 }, second), 'http://b/books/5/');
    assert.equal(field.toRepresentation({ id: 6 }, second), 'http://b/books/6/');
    assert.equal(calls.length, 4);
  });

  it('calls reverse() for each row when the URL does not show its parameter', () => {
    const calls: [string, unknown][] = [];
    const spy: RequestLike = {
      reverse: (name, params) => {
        calls.push([name, params]);
        return 'http://x/';
      },
      buildAbsoluteUri: (path) => path,
    };
    const field = bindField(new HyperlinkedIdentityField({ viewName: 'book-detail' }), 'url');
    const ctx = testRunContext({ context: { request: spy } });
    assert.equal(field.toRepresentation({ id: 5 }, ctx), 'http://x/');
    assert.equal(field.toRepresentation({ id: 6 }, ctx), 'http://x/');
    assert.deepEqual(
      calls.filter(([, params]) => (params as { pk: unknown }).pk !== '\u0000'),
      [
        ['book-detail', { pk: 5 }],
        ['book-detail', { pk: 6 }],
      ],
    );
  });

  it('needs the request in the serializer context', () => {
    const field = bindField(new HyperlinkedIdentityField({ viewName: 'book-detail' }), 'url');
    assert.throws(
      () => field.toRepresentation({ id: 1 }, testRunContext()),
      (error: unknown) =>
        error instanceof ImproperlyConfigured &&
        /needs the request in the serializer context/.test(error.message) &&
        /context: \{ request \}/.test(error.message),
    );
  });

  it('keeps its options when cloned', () => {
    const field = new HyperlinkedIdentityField({ viewName: 'book-detail', lookupField: 'isbn' });
    const copy = field.clone();
    assert.notEqual(copy, field);
    assert.equal(copy.viewName, 'book-detail');
    assert.equal(copy.lookupField, 'isbn');
    assert.equal(copy.lookupUrlKwarg, 'pk');
  });
});
