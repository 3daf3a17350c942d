import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JSONRenderer } from '@restframework/core';
import { deepFreeze, isDeepFrozen } from '@restframework/core/internal';
import fc from 'fast-check';

const text = (rendered: string | Buffer) => rendered.toString();

describe('JSONRenderer', () => {
  const renderer = new JSONRenderer();

  it('renders nothing for no data', () => {
    assert.equal(renderer.render(null), '');
    assert.equal(renderer.render(undefined), '');
  });

  it('encodes deeply frozen data once and reuses the bytes', () => {
    const data = deepFreeze({
      name: 'Book List',
      actions: { POST: { title: { type: 'string' } } },
    });
    const first = renderer.render(data);
    assert.equal(renderer.render(data), first);
    assert.equal(text(first), JSON.stringify(data));
  });

  it('renders shallowly frozen data afresh: a child that changed is never served stale', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (before, after) => {
        const child = { value: before };
        const data = Object.freeze({ child });
        assert.equal(text(renderer.render(data)), JSON.stringify({ child: { value: before } }));
        child.value = after;
        assert.equal(text(renderer.render(data)), JSON.stringify({ child: { value: after } }));
      }),
      { seed: 20261125, numRuns: 200 },
    );
  });
});

describe('deepFreeze', () => {
  it('freezes every object reachable, cycles included, and marks only what it froze', () => {
    const leaf = { n: 1 };
    const root: Record<string, unknown> = { list: [leaf, { deeper: [leaf] }] };
    root.self = root;
    deepFreeze(root);
    assert.ok(Object.isFrozen(root) && Object.isFrozen(root.list) && Object.isFrozen(leaf));
    assert.ok(isDeepFrozen(root) && isDeepFrozen(leaf));
    assert.equal(isDeepFrozen(Object.freeze({ child: {} })), false);
  });

  it('reaches into children that were frozen shallowly before', () => {
    const inner = { mutable: {} as Record<string, unknown> };
    const outer = { inner: Object.freeze(inner) };
    deepFreeze(outer);
    assert.ok(Object.isFrozen(inner.mutable));
  });
});
