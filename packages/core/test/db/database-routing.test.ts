/**
 * Several named databases and their routers (issue 43): `Databases`, Django's router contract
 * (`dbForRead`/`dbForWrite`, first answer wins), `using('alias')`, and `PrimaryReplicaRouter`
 * (reads in turn on the fit replicas; the primary for writes, transactions and the reads of a
 * request that wrote; lagging, down or slow replicas skipped, checked on a timer only). Each
 * database here is its own SQLite file in memory holding one row named after its alias, so a
 * read says where it ran. The same against a real PostgreSQL streaming replica:
 * `postgres-replica.test.ts`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  Database,
  type DatabaseRouter,
  Databases,
  DefaultRouter,
  defineModel,
  type ExtraActions,
  healthChecks,
  ModelSerializer,
  ModelViewSet,
  models,
  PrimaryReplicaRouter,
  type Request,
  Response,
  type RouterHints,
  restFramework,
} from '@restframework/core';
import { assertImproperlyConfigured } from '@restframework/core/testing';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from '../fixtures/http-app.ts';

const Item = defineModel({
  name: 'Item',
  table: 'routing_item',
  fields: { name: models.CharField({ maxLength: 40 }) },
});

/** Databases in memory by alias, each holding one row named after its alias. */
async function marked(...aliases: string[]): Promise<Record<string, Database>> {
  const dbs: Record<string, Database> = {};
  for (const alias of aliases) {
    const db = Database.connect('sqlite::memory:');
    await db.migrate([Item]);
    await Item.objects.using(db).create({ name: alias });
    dbs[alias] = db;
  }
  return dbs;
}

/** Where a read of `Item` that names no database runs: the name of the row it finds. */
async function readsFrom(): Promise<string> {
  const rows = await Item.objects.orderBy('id').slice(0, 1).execute();
  return rows[0]?.name as string;
}

/** A lag measure answering from a table the test changes. */
function fakeLag(lags: Record<string, number | 'down' | 'hang'>, dbs: Record<string, Database>) {
  let calls = 0;
  const measure = (db: Database): Promise<number> => {
    calls++;
    const alias = Object.keys(dbs).find((name) => dbs[name] === db) as string;
    const lag = lags[alias] ?? 0;
    if (lag === 'down') return Promise.reject(new Error('connection refused'));
    if (lag === 'hang') return new Promise(() => {});
    return Promise.resolve(lag);
  };
  return { measure, calls: () => calls };
}

async function closeAll(databases: Databases, previous: Database | undefined): Promise<void> {
  await databases.close();
  Database.setDefault(previous);
}

describe('Databases and routers', () => {
  it('leaves an app of one database unrouted, and refuses an alias there', async () => {
    const db = Database.connect('sqlite::memory:');
    try {
      assert.equal(db.routing, undefined);
      assertImproperlyConfigured(
        () => Item.objects.using(db).using('replica'),
        'REST_ERR_DATABASE_ROUTING',
        /one database/,
      );
    } finally {
      await db.close();
    }
  });

  it('refuses a set without default, a value that is no Database, one Database twice', async () => {
    const [a, b] = [Database.connect('sqlite::memory:'), Database.connect('sqlite::memory:')];
    try {
      assertImproperlyConfigured(
        () => new Databases({ replica: a }),
        'REST_ERR_DATABASE_ROUTING',
        /`default`/,
      );
      assertImproperlyConfigured(
        () => new Databases({ default: a, replica: 'sqlite::memory:' as never }),
        'REST_ERR_DATABASE_ROUTING',
        /"replica" is not a Database/,
      );
      assertImproperlyConfigured(
        () => new Databases({ default: a, replica: a }),
        'REST_ERR_DATABASE_ROUTING',
        /same Database/,
      );
      assertImproperlyConfigured(
        () => new Databases({ default: a }, [{ dbForRead: 'replica' } as never]),
        'REST_ERR_DATABASE_ROUTING',
        /dbForRead is not a method/,
      );
      assertImproperlyConfigured(
        () => new Databases({ default: a }, [new PrimaryReplicaRouter({ replicas: ['nope'] })]),
        'REST_ERR_DATABASE_ROUTING',
        /"nope"/,
      );
      assertImproperlyConfigured(
        () => new PrimaryReplicaRouter({ replicas: ['r'], maxLagSeconds: 0 }),
        'REST_ERR_DATABASE_ROUTING',
        /maxLagSeconds/,
      );
      const databases = new Databases({ default: a, other: b });
      assertImproperlyConfigured(
        () => new Databases({ default: a }),
        'REST_ERR_DATABASE_ROUTING',
        /another Databases/,
      );
      databases.release();
      assert.equal(a.routing, undefined, 'released: the default routes no more');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("asks the routers in order, the first answer wins, else default (Django's contract)", async () => {
    const dbs = await marked('default', 'archive', 'analytics');
    const previous = Database.default;
    const seen: [string, string, RouterHints][] = [];
    const archive: DatabaseRouter = {
      dbForRead: (model, hints) => {
        seen.push(['read', model.name, hints]);
        return undefined;
      },
    };
    const analytics: DatabaseRouter = {
      dbForRead: () => 'analytics',
      dbForWrite: (_model, hints) => {
        seen.push(['write', 'Item', hints]);
        return 'archive';
      },
    };
    const databases = new Databases(dbs, [archive, analytics]);
    Database.setDefault(databases.default);
    try {
      assert.equal(await readsFrom(), 'analytics');
      assert.equal(seen[0]?.[0], 'read', 'the first router was asked first');
      assert.deepEqual(seen[0]?.[2], { inTransaction: false, wroteInRequest: false });
      await Item.objects.create({ name: 'written' });
      assert.equal(await Item.objects.using('archive').filter({ name: 'written' }).count(), 1);
      assert.equal(await Item.objects.using(dbs.default as Database).count(), 1, 'not here');
      // using() skips the routers.
      assert.equal(
        (await Item.objects.using('default').execute()).map((r) => r.name).join(),
        'default',
      );
      assertImproperlyConfigured(
        () => Item.objects.using('replica9'),
        'REST_ERR_DATABASE_ROUTING',
        /"replica9".*"default", "archive", "analytics"/,
      );
      const wrong = new Databases(await marked('default'), [{ dbForRead: () => 'elsewhere' }]);
      Database.setDefault(wrong.default);
      await assert.rejects(readsFrom(), /dbForRead answered "elsewhere", which names no database/);
      await wrong.close();
    } finally {
      await closeAll(databases, previous);
    }
  });
});

describe('PrimaryReplicaRouter', () => {
  async function replicated(
    lags: Record<string, number | 'down' | 'hang'> = {},
    options: { checkIntervalSeconds?: number; checkTimeoutMs?: number } = {},
  ) {
    const dbs = await marked('default', 'r1', 'r2');
    const lag = fakeLag(lags, dbs);
    const router = new PrimaryReplicaRouter({
      replicas: ['r1', 'r2'],
      maxLagSeconds: 5,
      measureLag: lag.measure,
      ...options,
    });
    const databases = new Databases(dbs, [router]);
    const previous = Database.default;
    Database.setDefault(databases.default);
    return { dbs, lag, router, databases, done: () => closeAll(databases, previous) };
  }

  it('reads from the replicas in turn once checked, writes on the primary', async () => {
    const { router, done } = await replicated();
    try {
      await router.checkReplicas();
      const reads = [];
      for (let i = 0; i < 4; i++) reads.push(await readsFrom());
      assert.deepEqual(reads, ['r1', 'r2', 'r1', 'r2']);
      const created = await Item.objects.create({ name: 'new' });
      assert.equal(await Item.objects.using('default').filter({ pk: created.id }).count(), 1);
      assert.equal(await Item.objects.using('r1').filter({ name: 'new' }).count(), 0);
      assert.deepEqual(
        router.statuses.map((s) => s.state),
        ['ok', 'ok'],
      );
    } finally {
      await done();
    }
  });

  it('reads on the primary in a transaction and after the request wrote, per request', async () => {
    const { router, databases, done } = await replicated();
    try {
      await router.checkReplicas();
      const primary = databases.default;
      assert.equal(await primary.transaction(readsFrom), 'default');
      // Locking reads are writes' reads.
      assert.equal(
        (
          await primary.transaction(() =>
            Item.objects.selectForUpdate().orderBy('id').slice(0, 1).execute(),
          )
        )[0]?.name,
        'default',
      );
      let release!: () => void;
      const writerWrote = new Promise<void>((resolve) => {
        release = resolve;
      });
      const writer = primary.runRequest(async () => {
        const before = await readsFrom();
        await Item.objects.filter({ name: 'nothing' }).update({ name: 'x' });
        release();
        return [before, await readsFrom(), await readsFrom()];
      });
      // A request running alongside the one that wrote still reads from the replicas.
      const other = primary.runRequest(async () => {
        await writerWrote;
        return [await readsFrom(), await readsFrom()];
      });
      const [writerReads, otherReads] = await Promise.all([writer, other]);
      assert.equal(writerReads[0]?.startsWith('r'), true);
      assert.deepEqual(writerReads.slice(1), ['default', 'default']);
      assert.deepEqual(
        otherReads.map((name) => name.startsWith('r')),
        [true, true],
      );
      // A request that opened a transaction wrote too; outside any request nothing is kept.
      const afterTransaction = await primary.runRequest(async () => {
        await primary.transaction(async () => {});
        return readsFrom();
      });
      assert.equal(afterTransaction, 'default');
      await Item.objects.create({ name: 'script' });
      assert.notEqual(await readsFrom(), 'default', 'a script has no request to read back in');
    } finally {
      await done();
    }
  });

  it('skips a lagging, a down and a hanging replica, and the primary serves when none is fit', async () => {
    const lags: Record<string, number | 'down' | 'hang'> = { r1: 6, r2: 1 };
    const { router, done } = await replicated(lags, { checkTimeoutMs: 50 });
    try {
      await router.checkReplicas();
      assert.deepEqual(
        [await readsFrom(), await readsFrom()],
        ['r2', 'r2'],
        'r1 lags past 5 s: skipped',
      );
      assert.deepEqual(router.statuses, [
        { alias: 'r1', state: 'lagging', lagSeconds: 6 },
        { alias: 'r2', state: 'ok', lagSeconds: 1 },
      ]);
      lags.r1 = 'down';
      lags.r2 = 'hang';
      await router.checkReplicas();
      assert.deepEqual(
        router.statuses.map((s) => s.state),
        ['down', 'down'],
      );
      assert.equal(await readsFrom(), 'default');
      lags.r1 = 0;
      lags.r2 = 5;
      await router.checkReplicas();
      assert.deepEqual([await readsFrom(), await readsFrom()], ['r1', 'r2'], 'back, 5 s is within');
    } finally {
      await done();
    }
  });

  it('reads from the primary until the first check, and checks on its timer, never per read', async () => {
    const { lag, router, done } = await replicated({}, { checkIntervalSeconds: 0.05 });
    try {
      // attach() started the first check; before it answers nothing is known to be fit.
      assert.equal(router.statuses[0]?.state, 'unchecked');
      assert.equal(await readsFrom(), 'default');
      await router.checkReplicas();
      const before = lag.calls();
      for (let i = 0; i < 200; i++) await readsFrom();
      // 200 reads on SQLite take well under the 50 ms interval's few ticks: the checks ran
      // on the timer (2 replicas a tick), not per read.
      assert.ok(lag.calls() - before <= 8, `checks per 200 reads: ${lag.calls() - before}`);
      await new Promise((resolve) => setTimeout(resolve, 160));
      assert.ok(lag.calls() - before >= 2, 'the timer checks again');
    } finally {
      await done();
    }
    const stopped = lag.calls();
    await new Promise((resolve) => setTimeout(resolve, 120));
    assert.equal(lag.calls(), stopped, 'closing stopped the timer');
  });

  it('reads only fit replicas, each in turn, whatever the checks find (generated)', async () => {
    const { router, databases, done } = await replicated();
    try {
      const hints = { inTransaction: false, wroteInRequest: false };
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof(fc.constant<'down'>('down'), fc.integer({ min: 0, max: 10 })), {
            minLength: 2,
            maxLength: 2,
          }),
          fc.integer({ min: 1, max: 9 }),
          fc.boolean(),
          async ([lag1, lag2], reads, mustSeeWrites) => {
            const fit = (['r1', 'r2'] as const).filter((_, i) => {
              const lag = [lag1, lag2][i];
              return lag !== 'down' && (lag as number) <= 5;
            });
            const lags = { r1: lag1, r2: lag2 } as Record<string, number | 'down'>;
            const probe = new PrimaryReplicaRouter({
              replicas: ['r1', 'r2'],
              maxLagSeconds: 5,
              measureLag: (db) =>
                lags[db === databases.get('r1') ? 'r1' : 'r2'] === 'down'
                  ? Promise.reject(new Error('down'))
                  : Promise.resolve(lags[db === databases.get('r1') ? 'r1' : 'r2'] as number),
            });
            probe.attach(databases);
            try {
              await probe.checkReplicas();
              const answers = Array.from({ length: reads }, () =>
                probe.dbForRead(
                  Item,
                  mustSeeWrites ? { inTransaction: true, wroteInRequest: false } : hints,
                ),
              );
              if (mustSeeWrites || fit.length === 0) {
                assert.ok(answers.every((alias) => alias === 'default'));
              } else {
                answers.forEach((alias, i) => {
                  assert.equal(alias, fit[i % fit.length]);
                });
              }
            } finally {
              probe.detach();
            }
          },
        ),
        { numRuns: 60 },
      );
      assert.equal(router.dbForWrite(), 'default');
    } finally {
      await done();
    }
  });
});

class ItemSerializer extends ModelSerializer.with({ model: Item, fields: ['id', 'name'] }) {}

class ItemViewSet extends ModelViewSet {
  override queryset = Item.objects.all();
  override serializerClass = ItemSerializer;
  static override extraActions: ExtraActions<ItemViewSet> = {
    writeThenList: { detail: false, methods: ['post'] },
  };

  /** A write outside a transaction, then a read in the same request. */
  async writeThenList(_request: Request) {
    await Item.objects.create({ name: 'fresh' });
    const rows = await Item.objects.filter({ name: 'fresh' }).execute();
    return new Response({ found: rows.length });
  }
}

describe('restFramework with databases', () => {
  async function app(
    dbs: Record<string, Database>,
    router: PrimaryReplicaRouter,
  ): Promise<FastifyInstance> {
    const app = Fastify();
    await app.register(restFramework, { databases: dbs, databaseRouters: [router] });
    const routes = new DefaultRouter();
    routes.register('items', ItemViewSet);
    await app.register(routes.plugin, { prefix: '/api' });
    await app.register(healthChecks);
    await app.ready();
    return app;
  }

  it('lists from a replica, writes on the primary, reads a request’s own write back', async () => {
    const dbs = await marked('default', 'r1');
    const router = new PrimaryReplicaRouter({ replicas: ['r1'] });
    const previous = Database.default;
    const server = await app(dbs, router);
    try {
      await router.checkReplicas();
      const list = await request(server, { url: '/api/items/' });
      assert.deepEqual(
        (list.json() as { name: string }[]).map((r) => r.name),
        ['r1'],
      );
      const created = await request(server, {
        method: 'POST',
        url: '/api/items/',
        payload: { name: 'posted' },
      });
      assert.equal(created.statusCode, 201);
      assert.equal(await Item.objects.using(dbs.default as Database).count(), 2);
      const own = await request(server, { method: 'POST', url: '/api/items/write-then-list/' });
      assert.deepEqual(own.json(), { found: 1 }, 'the read after the write went to the primary');
      const again = await request(server, { url: '/api/items/' });
      assert.deepEqual(
        (again.json() as { name: string }[]).map((r) => r.name),
        ['r1'],
        'the next request reads from the replica again',
      );
      const ready = await request(server, { url: '/readyz' });
      assert.deepEqual(ready.json(), {
        status: 'ready',
        checks: { database: 'ok', 'database:r1': 'ok' },
      });
      await (dbs.r1 as Database).close();
      const degraded = await request(server, { url: '/readyz' });
      assert.equal(degraded.statusCode, 200, 'a replica down does not fail readiness');
      assert.deepEqual(degraded.json(), {
        status: 'ready',
        checks: { database: 'ok', 'database:r1': 'failed' },
        degraded: ['database:r1'],
      });
      await router.checkReplicas();
      const fallback = await request(server, { url: '/api/items/' });
      assert.equal(fallback.statusCode, 200);
      assert.equal((fallback.json() as unknown[]).length, 3, 'the primary serves the list');
    } finally {
      await server.close();
      assert.equal(dbs.default?.routing, undefined, 'the app released its routing');
      await Promise.all(Object.values(dbs).map((db) => db.close()));
      Database.setDefault(previous);
    }
  });

  it('refuses routers without databases, and a database that is not their default', async () => {
    const db = Database.connect('sqlite::memory:');
    try {
      await assert.rejects(async () => {
        await Fastify().register(restFramework, { database: db, databaseRouters: [] });
      }, /databaseRouters without databases/);
      const other = Database.connect('sqlite::memory:');
      await assert.rejects(async () => {
        await Fastify().register(restFramework, { database: other, databases: { default: db } });
      }, /not the `default`/);
      await other.close();
    } finally {
      await db.close();
    }
  });
});
