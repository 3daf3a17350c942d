/**
 * Runs every workspace's tests with Node's own test runner, on the Node.js that runs this
 * script (`npm test` uses the project's Node.js 24; CI runs it once more on Node.js 22).
 *
 *   node scripts/run-tests.ts [workspace...] [-- extra node --test options]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const WORKSPACES = [
  'packages/core',
  'packages/tricks',
  'packages/create-restframework-app',
  'examples/bookstore',
  'bench',
  'docs',
  'packaging',
];

const dash = process.argv.indexOf('--');
const args = dash === -1 ? process.argv.slice(2) : process.argv.slice(2, dash);
const extra = dash === -1 ? [] : process.argv.slice(dash + 1);
const selected = args.length
  ? WORKSPACES.filter((w) => args.some((a) => w.includes(a)))
  : WORKSPACES;

// The packages run from their sources here (see .npmrc): every process the tests start,
// however deep, gets the export condition through NODE_OPTIONS.
const SOURCE_CONDITION = '--conditions=@restframework/source';
const nodeOptions = process.env.NODE_OPTIONS ?? '';
const env = {
  ...process.env,
  NODE_OPTIONS: nodeOptions.includes(SOURCE_CONDITION)
    ? nodeOptions
    : `${nodeOptions} ${SOURCE_CONDITION}`.trim(),
};

console.log(`Tests on Node.js ${process.version}`);
let failed = 0;
for (const workspace of selected) {
  const cwd = join(root, workspace);
  if (!existsSync(join(cwd, 'test'))) continue;
  console.log(`\n# ${workspace}`);
  const result = spawnSync(
    process.execPath,
    ['--test', '--test-reporter=spec', ...extra, 'test/**/*.test.ts'],
    { cwd, stdio: 'inherit', env },
  );
  if (result.status !== 0) {
    failed++;
    console.error(`# ${workspace}: tests failed (exit ${result.status ?? result.signal})`);
  }
}
if (failed) process.exit(1);
