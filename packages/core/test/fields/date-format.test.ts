/**
 * How dates and date-times are written: one ISO 8601 shape by default (always microseconds),
 * DRF's DATETIME_FORMAT / DATE_FORMAT settings and the fields' `format` option (strftime
 * directives), bad formats refused at start-up, and the OpenAPI schema saying which shape.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DateField,
  DateTimeField,
  ImproperlyConfigured,
  resolveSettings,
  Serializer,
} from '@restframework/core';
import fc from 'fast-check';

const context = (DATETIME_FORMAT = 'iso-8601', DATE_FORMAT = 'iso-8601') => ({
  request: {
    reverse: () => '',
    buildAbsoluteUri: (path: string) => path,
    settings: { DATETIME_FORMAT, DATE_FORMAT },
  },
});

const Stamped = Serializer.with({
  fields: {
    at: new DateTimeField(),
    on: new DateField(),
    own: new DateTimeField({ format: '%Y/%m/%d' }),
  },
});
const row = { at: '2024-01-02T03:04:05.000Z', on: '2024-01-02', own: '2024-01-02T03:04:05.000Z' };

describe('date and date-time formats', () => {
  it('writes every instant in one ISO 8601 shape by default, whatever its milliseconds', () => {
    const field = new DateTimeField();
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        (date) => {
          const text = field.toRepresentation(date);
          assert.match(text, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
          assert.equal(new Date(text).getTime(), date.getTime());
        },
      ),
    );
  });

  it('follows DATETIME_FORMAT and DATE_FORMAT from the request settings; a field format wins', () => {
    const iso = new Stamped({ instance: row, context: context() }).data;
    assert.deepEqual(iso, {
      at: '2024-01-02T03:04:05.000000Z',
      on: '2024-01-02',
      own: '2024/01/02',
    });
    const custom = new Stamped({
      instance: row,
      context: context('%d/%m/%Y %H:%M:%S.%f %p %z', '%A %d %B %Y (%j) %%'),
    }).data;
    assert.deepEqual(custom, {
      at: '02/01/2024 03:04:05.000000 AM +0000',
      on: 'Tuesday 02 January 2024 (002) %',
      own: '2024/01/02',
    });
  });

  it('refuses an unknown directive, and time directives in a date format, at start-up', () => {
    assert.throws(
      () => resolveSettings({ DATETIME_FORMAT: '%Y-%Q' }),
      (e: unknown) =>
        e instanceof ImproperlyConfigured && e.code === 'REST_ERR_SETTINGS' && /%Q/.test(e.message),
    );
    assert.throws(
      () => resolveSettings({ DATE_FORMAT: '%Y %H' }),
      (e: unknown) => e instanceof ImproperlyConfigured && /%H/.test(e.message),
    );
    assert.throws(
      () => resolveSettings({ DATETIME_FORMAT: '' }),
      (e: unknown) => e instanceof ImproperlyConfigured && /DATETIME_FORMAT/.test(e.message),
    );
    assert.throws(
      () => new DateTimeField({ format: 'at %' }),
      (e: unknown) => e instanceof ImproperlyConfigured && e.code === 'REST_ERR_FIELD_OPTIONS',
    );
    assert.equal(resolveSettings({ DATE_FORMAT: '%d.%m.%Y' }).DATE_FORMAT, '%d.%m.%Y');
  });

  it('describes the shape in the schema: date-time for ISO 8601, the format otherwise', () => {
    const serializer = new Stamped();
    const iso = serializer.jsonSchema({ mode: 'response' }) as any;
    assert.deepEqual(iso.properties.at, { type: 'string', format: 'date-time' });
    assert.equal(iso.properties.own.format, undefined);
    assert.match(iso.properties.own.description, /%Y\/%m\/%d/);
    const custom = serializer.jsonSchema({
      mode: 'response',
      settings: { DATETIME_FORMAT: '%H:%M', DATE_FORMAT: '%d/%m/%Y' },
    }) as any;
    assert.equal(custom.properties.at.format, undefined);
    assert.match(custom.properties.at.description, /%H:%M/);
    assert.match(custom.properties.on.description, /%d\/%m\/%Y/);
    // What a client sends stays ISO 8601.
    const request = serializer.jsonSchema({
      mode: 'request',
      settings: { DATETIME_FORMAT: '%H:%M', DATE_FORMAT: '%d/%m/%Y' },
    }) as any;
    assert.equal(request.properties.at.format, 'date-time');
    assert.equal(request.properties.on.format, 'date');
  });
});
