/**
 * The header grammar of conditional requests: entity-tag lists, HTTP dates in RFC 9110's
 * three formats, strong and weak comparison, and the order of evaluation (13.2.2), checked
 * with generated values: a parser never throws, and what it accepts it reads back exactly.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  evaluatePreconditions,
  formatHttpDate,
  parseEntityTags,
  parseHttpDate,
  strongMatch,
  weakMatch,
} from '@restframework/core';
import fc from 'fast-check';

const etagc = fc
  .integer({ min: 0x21, max: 0x7e })
  .filter((c) => c !== 0x22)
  .map((c) => String.fromCharCode(c));
const tag = fc
  .tuple(fc.boolean(), fc.array(etagc, { maxLength: 12 }))
  .map(([weak, chars]) => `${weak ? 'W/' : ''}"${chars.join('')}"`);

describe('parseEntityTags', () => {
  it('reads back any list of valid tags, whatever the spacing and empty elements', () => {
    fc.assert(
      fc.property(
        fc.array(tag, { minLength: 1, maxLength: 5 }),
        fc.constantFrom(',', ', ', ' ,\t', ',,'),
        (tags, sep) => {
          assert.deepEqual(parseEntityTags(tags.join(sep)), tags);
        },
      ),
    );
  });

  it('never throws; anything else is null or a list of valid tags', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseEntityTags(text);
        if (parsed !== null && parsed !== '*')
          for (const t of parsed) assert.match(t, /^(W\/)?"[^"]*"$/);
      }),
    );
  });

  it('refuses unquoted tags and * in a list', () => {
    for (const text of ['abc', '"a", *', 'W/abc', '"a" "b"', '', ' , ', '"a'])
      assert.equal(parseEntityTags(text), null, text);
    assert.equal(parseEntityTags(' * '), '*');
  });
});

describe('comparison', () => {
  it('strong: equal and neither weak; weak: equal without the mark', () => {
    assert.ok(strongMatch('"1"', '"1"'));
    assert.ok(!strongMatch('W/"1"', '"1"'));
    assert.ok(!strongMatch('W/"1"', 'W/"1"'));
    assert.ok(weakMatch('W/"1"', '"1"'));
    assert.ok(!weakMatch('"1"', '"2"'));
  });
});

describe('HTTP dates', () => {
  it('the three formats name the same time', () => {
    const time = 784111777000;
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), time);
    assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', Date.UTC(2026, 0, 1)), time);
    assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994'), time);
  });

  it('reads back any time it formats, to the second', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799 }), (seconds) => {
        const date = new Date(seconds * 1000);
        assert.equal(parseHttpDate(formatHttpDate(date)), seconds * 1000);
      }),
    );
  });

  it('never throws; refuses what is not a date', () => {
    fc.assert(fc.property(fc.string(), (text) => void parseHttpDate(text)));
    for (const text of [
      'yesterday',
      'Sun, 31 Feb 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 25:49:37 GMT',
      'Xyz, 06 Nov 1994 08:49:37 GMT',
    ])
      assert.equal(parseHttpDate(text), null, text);
  });
});

describe('evaluatePreconditions', () => {
  const validators = { etag: '"7"', lastModified: 784111777000 };
  const date = (ms: number) => new Date(ms).toUTCString();

  it('If-Match before If-Unmodified-Since; If-None-Match before If-Modified-Since', () => {
    assert.equal(
      evaluatePreconditions(
        { 'if-match': '"7"', 'if-unmodified-since': date(0) },
        'PUT',
        validators,
      ).result,
      'proceed',
    );
    assert.equal(evaluatePreconditions({ 'if-match': '"6"' }, 'PUT', validators).result, 'failed');
    assert.equal(
      evaluatePreconditions({ 'if-unmodified-since': date(0) }, 'PUT', validators).result,
      'failed',
    );
    assert.equal(
      evaluatePreconditions(
        { 'if-none-match': '"6"', 'if-modified-since': date(validators.lastModified) },
        'GET',
        validators,
      ).result,
      'proceed',
    );
    assert.equal(
      evaluatePreconditions({ 'if-none-match': 'W/"7"' }, 'GET', validators).result,
      'not-modified',
    );
    assert.equal(
      evaluatePreconditions({ 'if-none-match': '"7"' }, 'PUT', validators).result,
      'failed',
    );
    assert.equal(
      evaluatePreconditions(
        { 'if-modified-since': date(validators.lastModified) },
        'GET',
        validators,
      ).result,
      'not-modified',
    );
    assert.equal(
      evaluatePreconditions(
        { 'if-modified-since': date(validators.lastModified) },
        'PUT',
        validators,
      ).result,
      'proceed',
    );
  });

  it('malformed If-Match is 400; a read ignores a malformed If-None-Match; bad dates are ignored', () => {
    assert.equal(
      evaluatePreconditions({ 'if-match': 'abc' }, 'PUT', validators).result,
      'malformed',
    );
    assert.equal(
      evaluatePreconditions({ 'if-none-match': 'abc' }, 'PUT', validators).result,
      'malformed',
    );
    assert.equal(
      evaluatePreconditions({ 'if-none-match': 'abc' }, 'GET', validators).result,
      'proceed',
    );
    assert.equal(
      evaluatePreconditions({ 'if-unmodified-since': 'abc' }, 'PUT', validators).result,
      'proceed',
    );
  });

  it('never throws, whatever the four headers hold', () => {
    const header = fc.option(fc.string(), { nil: undefined });
    fc.assert(
      fc.property(
        header,
        header,
        header,
        header,
        fc.constantFrom('GET', 'PUT', 'DELETE'),
        (a, b, c, d, method) => {
          const result = evaluatePreconditions(
            { 'if-match': a, 'if-none-match': b, 'if-modified-since': c, 'if-unmodified-since': d },
            method,
            validators,
          ).result;
          assert.ok(['proceed', 'not-modified', 'failed', 'malformed'].includes(result));
        },
      ),
    );
  });
});
