/**
 * Select plans (the select list and row reader of a model with its related rows) are kept per
 * model, dialect and related paths, and bounded: the related paths can follow a client's
 * ordering (cursor pagination), whose orders of relations are many.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Database, defineModel, models } from '@restframework/core';
import { selectPlan } from '../../src/db/plan/select-plan.ts';

const Target = defineModel({
  name: 'PlanTarget',
  table: 'plan_target',
  fields: { name: models.CharField({ maxLength: 20 }) },
});

const RELATIONS = ['a', 'b', 'c', 'd', 'e'] as const;

const Source = defineModel({
  name: 'PlanSource',
  table: 'plan_source',
  fields: Object.fromEntries(
    RELATIONS.map((name) => [name, models.ForeignKey(Target, { onDelete: 'CASCADE', null: true })]),
  ),
});

/** Every order of `items`. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

describe('select plans', () => {
  const db = Database.connect('sqlite::memory:');
  after(() => db.close());

  it('are made once per model, dialect and related paths', () => {
    assert.equal(selectPlan(Source, db, ['a', 'b']), selectPlan(Source, db, ['a', 'b']));
    assert.notEqual(selectPlan(Source, db, ['a', 'b']), selectPlan(Source, db, ['b', 'a']));
    assert.notEqual(selectPlan(Source, db, []), selectPlan(Source, db, ['a']));
    const read = selectPlan(Source, db, ['b']).read;
    assert.deepEqual(
      read({
        id: 1,
        a_id: null,
        b_id: 2,
        c_id: null,
        d_id: null,
        e_id: null,
        b__id: 2,
        b__name: 'x',
      }),
      {
        id: 1,
        a_id: null,
        b_id: 2,
        c_id: null,
        d_id: null,
        e_id: null,
        b: { id: 2, name: 'x' },
      },
    );
  });

  it('keep a bounded number per model, the oldest going first', () => {
    // Every order of five relations, of four and of three: 300 related paths.
    const orders = permutations(RELATIONS);
    const paths = [
      ...orders,
      ...new Set(orders.map((order) => order.slice(0, 4).join())),
      ...new Set(orders.map((order) => order.slice(0, 3).join())),
    ].map((order) => (typeof order === 'string' ? order.split(',') : order));
    assert.equal(paths.length, 300);
    const first = selectPlan(Source, db, ['e', 'd', 'c', 'b', 'a']);
    for (const related of paths) selectPlan(Source, db, related);
    // Past the bound, the first ones went.
    const latest = selectPlan(Source, db, ['c', 'b', 'a']);
    assert.equal(selectPlan(Source, db, ['c', 'b', 'a']), latest, 'a recent plan is kept');
    assert.notEqual(selectPlan(Source, db, ['e', 'd', 'c', 'b', 'a']), first, 'the oldest went');
  });
});
