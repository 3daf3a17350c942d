import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clearPrefetched, getPrefetched, setPrefetched } from '@restframework/core/internal';

describe('prefetched rows', () => {
  it('keeps rows per relation name, out of sight of keys and JSON', () => {
    const row = { id: 1, title: 'T' };
    assert.equal(getPrefetched(row, 'tags'), undefined);
    setPrefetched(row, 'tags', [{ id: 2 }]);
    setPrefetched(row, 'comments', []);
    assert.deepEqual(getPrefetched(row, 'tags'), [{ id: 2 }]);
    assert.deepEqual(getPrefetched(row, 'comments'), []);
    assert.deepEqual(Object.keys(row), ['id', 'title']);
    assert.equal(JSON.stringify(row), '{"id":1,"title":"T"}');
    assert.deepEqual({ ...row }, { id: 1, title: 'T' });
  });

  it('forgets one relation or all of them', () => {
    const row = {};
    setPrefetched(row, 'a', [1]);
    setPrefetched(row, 'b', [2]);
    clearPrefetched(row, 'a');
    assert.equal(getPrefetched(row, 'a'), undefined);
    assert.deepEqual(getPrefetched(row, 'b'), [2]);
    clearPrefetched(row);
    assert.equal(getPrefetched(row, 'b'), undefined);
    clearPrefetched({}); // nothing kept: nothing to forget
  });
});
