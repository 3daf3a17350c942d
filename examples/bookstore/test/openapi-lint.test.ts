/**
 * Redocly's recommended rules pass on the bookstore's document (issue 42), with one rule off
 * in `redocly.yaml`: DRF's trailing slash. Errors and warnings both fail the test.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import { buildApp } from '../src/app.ts';
import { ALL_MODELS } from '../src/models/index.ts';

const HERE = join(import.meta.dirname, '..');
const REDOCLY = join(HERE, '..', '..', 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

/** The problems Redocly finds in `document`, as `rule: message` lines. */
function lint(document: unknown, folder: string): string[] {
  const file = join(folder, `openapi-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(document));
  const result = spawnSync(
    process.execPath,
    [REDOCLY, 'lint', file, '--config', join(HERE, 'redocly.yaml'), '--format', 'json'],
    {
      cwd: HERE,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  const json = result.stdout.slice(result.stdout.indexOf('{'));
  const report = JSON.parse(json) as { problems: { ruleId: string; message: string }[] };
  return report.problems.map((p) => `${p.ruleId}: ${p.message}`);
}

describe("the bookstore's document and Redocly's recommended rules", () => {
  let document: any;
  let folder: string;

  before(async () => {
    const db = Database.connect('sqlite::memory:');
    await db.migrate(ALL_MODELS);
    const app = await buildApp({ database: db });
    document = (await app.inject({ url: '/schema/', headers: { host: '127.0.0.1' } })).json();
    await app.close();
    await db.close();
    folder = mkdtempSync(join(tmpdir(), 'redocly-'));
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it('has no error and no warning', () => {
    assert.deepEqual(lint(document, folder), []);
  });

  it('finds what the issue found when it is taken out again', () => {
    const broken = structuredClone(document);
    delete broken.servers;
    delete broken.info.license;
    delete broken.paths['/books/api/books/'].get.security;
    const problems = lint(broken, folder).join('\n');
    assert.match(problems, /no-empty-servers/);
    assert.match(problems, /info-license/);
    assert.match(problems, /security-defined/);
  });
});
