/** `interpolate`: templates without placeholders come back as they are; the rest as before. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { interpolate } from '@restframework/core/internal';
import fc from 'fast-check';

/** The regular expression alone, as `interpolate` was. */
function reference(template: string, params: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{(\w+)\}|%\((\w+)\)s/g, (whole, a?: string, b?: string) => {
    const key = (a ?? b) as string;
    return Object.hasOwn(params, key) ? String(params[key]) : whole;
  });
}

describe('interpolate', () => {
  it('fills both placeholder styles and leaves unknown ones', () => {
    assert.equal(interpolate('At most {max} (%(max)s).', { max: 3 }), 'At most 3 (3).');
    assert.equal(interpolate('Keep {unknown} and %(x)s.', {}), 'Keep {unknown} and %(x)s.');
    assert.equal(interpolate('This field is required.', { max: 3 }), 'This field is required.');
  });

  it('answers as the regular expression did on generated templates', () => {
    const piece = fc.constantFrom('{', '}', '%(', ')s', 'max', 'a', ' ', '%', '(', 'toString');
    const template = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
    const params = fc.constantFrom({}, { max: 3 }, { a: 'x', toString: 'y' });
    fc.assert(
      fc.property(template, params, (text, values) => {
        assert.equal(interpolate(text, values), reference(text, values));
      }),
      { numRuns: 5000 },
    );
  });
});
