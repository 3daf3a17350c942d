/**
 * The tests of `packages/core` mirror `src/`: each test folder is a folder of `src/` (besides
 * the shared `fixtures/`, the compile-time `types/` and this `architecture/`), and a test
 * imports the package's entries (`@restframework/core`, `/internal`, `/testing`, `/cli`), never a
 * file of `src/`, so that what it checks is what an app gets.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SRC } from './source-files.ts';

const TEST = fileURLToPath(new URL('../', import.meta.url));

/** Test folders that are not a folder of `src/`. */
const OWN_FOLDERS = new Set(['fixtures', 'types', 'architecture']);

/**
 * Test files that still import a file of `src/`, each for a test counter or a module of `db/`
 * that issue 38's other branches are replacing or moving (the counters become the caches' own
 * statistics; `db/` is split into its query, plan and dialect folders). Remove a line once its
 * file imports an entry: the test fails while a listed file no longer needs to be listed.
 */
const PENDING = new Set([
  'db/decimal-text.test.ts',
  'db/lookup-plans.test.ts',
  'db/postgres-client.test.ts',
  'db/row-writes.test.ts',
  'db/select-plans.test.ts',
  'db/statement-slots.test.ts',
  'fixtures/row-survival.ts',
  'metadata/options.test.ts',
  'serializers/serializer-overrides.test.ts',
]);

function files(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(path));
    else if (entry.name.endsWith('.ts')) out.push(relative(TEST, path).split(sep).join('/'));
  }
  return out.sort();
}

describe('packages/core/test', () => {
  it('has a folder of src/ for each of its test folders', () => {
    const strays: string[] = [];
    for (const file of files(TEST)) {
      const folder = file.slice(0, file.lastIndexOf('/'));
      const top = folder.split('/')[0] as string;
      if (!folder || OWN_FOLDERS.has(top)) continue;
      if (!existsSync(join(SRC, folder))) strays.push(file);
    }
    assert.deepEqual(strays, [], 'test files in a folder that src/ does not have');
  });

  it('imports the package through its entries, not src/', () => {
    const importing = files(TEST).filter((file) =>
      /\bfrom\s*['"](\.\.\/)+src\/|\bimport\(\s*['"](\.\.\/)+src\//.test(
        readFileSync(join(TEST, file), 'utf8'),
      ),
    );
    assert.deepEqual(
      importing.filter((file) => !PENDING.has(file)),
      [],
      'test files that import a file of src/ (import @restframework/core or /internal instead)',
    );
    assert.deepEqual(
      [...PENDING].filter((file) => !importing.includes(file)),
      [],
      'files listed as pending that import no file of src/ any more: remove them from PENDING',
    );
  });
});
