/**
 * Two `restframework migrate` processes started together against one database: both exit 0,
 * and every migration is applied once (the second waits for the migration lock, then finds
 * nothing to do). A slow data migration (1.5 s) keeps the first one busy while the second
 * arrives: without the lock both would run it, and the counter would say 2.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Database } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import { cliProject, freshDatabase, runCli } from '../fixtures/cli-project.ts';

const MODELS = `const Counter = defineModel({ name: 'Counter', table: 'counter', fields: { runs: models.IntegerField() } });`;

/** The slow migration; it writes the time it finished its work to `stampFile` (before its commit). */
const slow = (stampFile: string) => `export default {
  dependencies: ['0001_initial'],
  operations: [
    {
      op: 'RunCode',
      description: 'Count the runs slowly',
      code: async ({ models }) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await models.Counter.objects.create({ runs: 1 });
        const { writeFileSync } = await import('node:fs');
        writeFileSync(${JSON.stringify(stampFile)}, String(Date.now()));
      },
      reverseCode: async () => {},
    },
  ],
};
`;

for (const dialect of testDialects()) {
  describe(`two migrate processes at once on ${dialect.name}`, { skip: dialect.skip }, () => {
    it('both exit 0 and each migration is applied once', async () => {
      const project = cliProject();
      const database = await freshDatabase(dialect.name);
      const env = { DATABASE_URL: database.url };
      try {
        project.config(MODELS, ['Counter']);
        assert.equal((await runCli(project.dir, ['makemigrations'], env)).code, 0);
        mkdirSync(join(project.dir, 'migrations'), { recursive: true });
        const stampFile = join(project.dir, 'slow-done.txt');
        writeFileSync(join(project.dir, 'migrations', '0002_slow.js'), slow(stampFile));
        const finished: number[] = [];
        const runs = await Promise.all(
          [0, 1].map((i) =>
            runCli(project.dir, ['migrate'], env).then((run) => {
              finished[i] = Date.now();
              return run;
            }),
          ),
        );
        for (const run of runs) assert.equal(run.code, 0, run.stderr);
        const applying = runs.map((r) => (r.stdout.match(/Applying/g) ?? []).length).sort();
        assert.deepEqual(applying, [0, 2], runs.map((r) => r.stdout).join('\n---\n'));
        const idle = runs.findIndex((r) => r.stdout.includes('No migrations to apply.'));
        assert.notEqual(idle, -1);
        // The process that found nothing to do waited for the other one's migration: it ended
        // after that migration's work did (ordered by the lock, not by a time allowance that a
        // loaded machine could exceed).
        const slowDone = Number(readFileSync(stampFile, 'utf8'));
        assert.ok((finished[idle] as number) >= slowDone, `${finished[idle]} < ${slowDone}`);
        const db = Database.connect(database.url);
        try {
          const recorded = await db.query(
            'select "name", count(*) as "n" from "restframework_migrations" group by "name" order by "name"',
            [],
          );
          assert.deepEqual(
            recorded.map((r: any) => `${r.name}:${Number(r.n)}`),
            ['0001_initial:1', '0002_slow:1'],
          );
          const counted = await db.query('select count(*) as "n" from "counter"', []);
          assert.equal(Number((counted[0] as { n: number }).n), 1);
        } finally {
          await db.close();
        }
      } finally {
        project.remove();
        await database.drop();
      }
    });
  });
}
