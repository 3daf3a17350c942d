/**
 * The quick path of `authorizationWords` answers exactly what DRF's `header.split()` (a trim,
 * runs of spaces and tabs) did, and `Auth.requestUser` is the row without its password hash.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAuth, type Request } from '@restframework/core';
import { authorizationWords } from '@restframework/core/internal';
import fc from 'fast-check';

/** What `authorizationWords` answered before its quick path. */
function reference(header: unknown, scheme: string): string[] | null {
  if (typeof header !== 'string' || header === '') return null;
  const words = header.trim().split(/[ \t]+/);
  return words[0]?.toLowerCase() === scheme.toLowerCase() ? words : null;
}

const requestWith = (authorization: unknown) =>
  ({ raw: { headers: { authorization } } }) as unknown as Request;

describe('authorizationWords', () => {
  it('splits as the general way for any header', () => {
    const piece = fc.constantFrom(
      'Token',
      'token',
      'TOKEN',
      'Bearer',
      'Basic',
      ' ',
      '  ',
      '\t',
      '\u00a0',
      '\v',
      '\n',
      'a1b2',
      'é',
      '',
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(piece, fc.string({ maxLength: 6 })), { maxLength: 6 }),
        fc.constantFrom('Token', 'Bearer', 'Basic'),
        (pieces, scheme) => {
          const header = pieces.join('');
          assert.deepEqual(
            authorizationWords(requestWith(header), scheme),
            reference(header, scheme),
            JSON.stringify(header),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('answers the usual header and its variants', () => {
    const key = '0123456789abcdef0123456789abcdef01234567';
    const cases = [
      `Token ${key}`,
      `token ${key}`,
      ` Token ${key}`,
      `Token  ${key}`,
      `Token\t${key}`,
      `Token ${key} `,
      `Token ${key} extra`,
      `Token`,
      `Token `,
      `Tokens ${key}`,
      `Bearer ${key}`,
      `\u00a0Token ${key}`,
    ];
    for (const header of cases)
      assert.deepEqual(
        authorizationWords(requestWith(header), 'Token'),
        reference(header, 'Token'),
        JSON.stringify(header),
      );
    assert.equal(authorizationWords(requestWith(undefined), 'Token'), null);
    assert.equal(authorizationWords(requestWith(['Token x']), 'Token'), null);
  });
});

describe('Auth.requestUser', () => {
  it('is the row without its password, with the flags, in the same key order, frozen', () => {
    const auth = createAuth();
    const row = {
      id: 7,
      password: 'pbkdf2$secret',
      username: 'ada',
      is_staff: true,
      is_superuser: false,
      is_active: true,
      email: 'ada@example.com',
    };
    const { password: _hash, ...fields } = row;
    const expected = {
      ...fields,
      isAuthenticated: true,
      isStaff: true,
      isSuperuser: false,
      isActive: true,
      id: 7,
    };
    const user = auth.requestUser(row);
    assert.deepEqual(Object.keys(user), Object.keys(expected));
    assert.deepEqual({ ...user }, expected);
    assert.ok(Object.isFrozen(user));
    assert.ok(!('password' in user));
    // Flags follow the row; a missing is_active is active, as before.
    const plain = auth.requestUser({ id: 1, password: '', username: 'b' });
    assert.equal(plain.isActive, true);
    assert.equal(plain.isStaff, false);
  });
});
