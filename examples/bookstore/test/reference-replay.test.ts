/**
 * Replays the recorded exchanges with the original library against the bookstore, in their
 * order, on a freshly seeded database (see reference-exchanges.ts for what is compared and
 * where the bookstore answers otherwise on purpose).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Database } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { ALL_MODELS } from '../src/models/index.ts';
import { seed } from '../src/seed.ts';
import { caseLabel, REFERENCE_CASES, replayCase } from './reference-exchanges.ts';

for (const dialect of testDialects()) {
  describe(`the bookstore replays the original's exchanges on ${dialect.name}`, {
    skip: dialect.skip,
  }, () => {
    let db: Database;
    let app: FastifyInstance;
    let media: string;

    before(async () => {
      db = await dialect.create();
      await db.migrate(ALL_MODELS);
      await seed(db);
      media = mkdtempSync(join(tmpdir(), 'bookstore-media-'));
      app = await buildApp({ database: db, mediaRoot: media });
    });
    after(async () => {
      await app.close();
      await dialect.drop(db);
      rmSync(media, { recursive: true, force: true });
    });

    for (const ref of REFERENCE_CASES) it(caseLabel(ref), () => replayCase(app, ref));

    it('answers no request of the replay with a 5xx, and the database holds no partial record', async () => {
      const { Book } = await import('../src/models/index.ts');
      // 15 books were created and one deleted on top of the seeded 1000.
      assert.equal(await Book.objects.using(db).count(), 1014);
      assert.equal(await Book.objects.using(db).filter({ isbn: '' }).count(), 0);
    });
  });
}
