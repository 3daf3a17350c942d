/**
 * `and`, `or`, `not` answer as DRF's `&`, `|`, `~` for every combination of answers, sync or
 * async (generated), and on objects `or` requires an operand to allow both the request and the
 * object (DRF 3.14+).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  and,
  BasePermission,
  not,
  or,
  type PermissionClass,
  type Request,
} from '@restframework/core';
import fc from 'fast-check';

/** A permission class that answers `has`/`obj`, at once or through a promise. */
function fixed(has: boolean, obj: boolean, async: boolean, message?: string): PermissionClass {
  return class extends BasePermission {
    readonly message = message;
    override hasPermission() {
      return async ? Promise.resolve(has) : has;
    }
    override hasObjectPermission() {
      return async ? Promise.resolve(obj) : obj;
    }
  };
}

const request = {} as Request;
const operand = fc.record({ has: fc.boolean(), obj: fc.boolean(), async: fc.boolean() });
const make = (o: { has: boolean; obj: boolean; async: boolean }) => fixed(o.has, o.obj, o.async);

describe('permission composition', () => {
  it('and / or / not follow boolean logic on hasPermission', async () => {
    await fc.assert(
      fc.asyncProperty(operand, operand, async (a, b) => {
        const A = make(a);
        const B = make(b);
        assert.equal(await new (and(A, B))().hasPermission(request, null), a.has && b.has);
        assert.equal(await new (or(A, B))().hasPermission(request, null), a.has || b.has);
        assert.equal(await new (not(A))().hasPermission(request, null), !a.has);
        assert.equal(
          await new (not(and(A, not(B))))().hasPermission(request, null),
          !(a.has && !b.has),
        );
      }),
    );
  });

  it('on objects, or needs an operand that allows the request and the object', async () => {
    await fc.assert(
      fc.asyncProperty(operand, operand, async (a, b) => {
        const A = make(a);
        const B = make(b);
        assert.equal(
          await new (and(A, B))().hasObjectPermission(request, null, {}),
          a.obj && b.obj,
        );
        assert.equal(
          await new (or(A, B))().hasObjectPermission(request, null, {}),
          (a.has && a.obj) || (b.has && b.obj),
        );
        assert.equal(await new (not(A))().hasObjectPermission(request, null, {}), !a.obj);
      }),
    );
  });

  it('answers at once when every operand does', () => {
    const yes = fixed(true, true, false);
    const no = fixed(false, false, false);
    assert.equal(new (and(yes, no))().hasPermission(request, null), false);
    assert.equal(new (or(no, yes))().hasPermission(request, null), true);
    assert.equal(new (not(no))().hasPermission(request, null), true);
  });

  it('and gives the message of the operand that refused; names say what was composed', () => {
    const yes = fixed(true, true, false, 'first');
    const no = fixed(false, false, false, 'second');
    const both = new (and(yes, no))();
    both.hasPermission(request, null);
    assert.equal(both.message, 'second');
    assert.equal(and(IsNamed, not(IsNamed)).name, 'and(IsNamed, not(IsNamed))');
  });
});

class IsNamed extends BasePermission {}
