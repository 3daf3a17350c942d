import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { ALL_MODELS, Task } from '../src/models.ts';

describe('the tasks API', () => {
  let db: Database;
  let app: FastifyInstance;

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(ALL_MODELS);
    app = await buildApp(db);
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  it('creates a task and lists it', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/tasks/',
      payload: { title: 'Write the docs', priority: 'high' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const task = created.json();
    assert.equal(task.done, false);
    assert.equal(created.headers.location, task.url);

    const list = await app.inject({ url: '/api/tasks/' });
    assert.equal(list.json().count, 1);
    assert.equal(list.json().results[0].title, 'Write the docs');
  });

  it('answers 400 with the errors of each field', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/tasks/',
      payload: { title: 'untitled', due_date: 'tomorrow' },
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), {
      title: ['Give the task a real title.'],
      due_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
    });
  });

  it('marks a task done with PATCH, and filters with ?done=', async () => {
    const task = await Task.objects.using(db).create({ title: 'Water the plants' });
    const patched = await app.inject({
      method: 'PATCH',
      url: `/api/tasks/${task.id}/`,
      payload: { done: true },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().done, true);

    const open = await app.inject({ url: '/api/tasks/?done=false' });
    assert.ok(open.json().results.every((t: { done: boolean }) => !t.done));
  });

  it('orders by a friendly name, - for descending', async () => {
    await Task.objects.using(db).create({ title: 'Zebra', due_date: '2030-01-01' });
    const response = await app.inject({ url: '/api/tasks/?ordering=-title' });
    assert.equal(response.json().results[0].title, 'Zebra');
  });

  it('deletes a task', async () => {
    const task = await Task.objects.using(db).create({ title: 'Temporary' });
    const response = await app.inject({ method: 'DELETE', url: `/api/tasks/${task.id}/` });
    assert.equal(response.statusCode, 204);
    assert.equal(await Task.objects.using(db).filter({ pk: task.id }).exists(), false);
  });
});
