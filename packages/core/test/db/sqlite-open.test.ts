/**
 * Processes that open one new SQLite file at the same moment (two `migrate` commands, two
 * services started together) all get their database: switching a file to WAL takes an
 * exclusive lock, and SQLite answers "database is locked" at once, without waiting, to the
 * process that loses the race.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const work = mkdtempSync(join(tmpdir(), 'rf-sqlite-open-'));
after(() => rmSync(work, { recursive: true, force: true }));

const OPEN = `
  const { Database } = await import('@restframework/core');
  // Every process opens at the same moment, once its modules are loaded.
  while (Date.now() < Number(process.argv[2])) {}
  const db = Database.connect('sqlite:' + process.argv[1]);
  await db.query('create table if not exists t (id integer primary key)', []);
  await db.close();
  console.log('opened');
`;

/** Runs OPEN in a new process (the repository's export condition comes with NODE_OPTIONS). */
function open(file: string, at: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', OPEN, file, String(at)], {
      cwd: import.meta.dirname,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('a new SQLite file opened by processes at once', () => {
  it('opens in every process, round after round', async () => {
    for (let round = 0; round < 5; round++) {
      const file = join(work, `race-${round}.sqlite3`);
      const at = Date.now() + 1500;
      const results = await Promise.all([open(file, at), open(file, at), open(file, at)]);
      for (const { code, output } of results) {
        assert.equal(code, 0, `round ${round}: ${output}`);
        assert.match(output, /opened/);
      }
    }
  });
});
