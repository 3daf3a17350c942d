/**
 * The API reference builds (`scripts/api-reference/build.ts`: TypeDoc over the packages' public
 * entries) with no warning: every public symbol has a doc comment, except the ones
 * `scripts/api-reference/not-yet-documented.txt` still lists, and every `{@link}` leads
 * somewhere. The list only shrinks: TypeDoc fails on a listed name that is documented now (take
 * it out), and this test on a list longer than `MAX_NOT_DOCUMENTED` (lower the number when you
 * take names out; never raise it: document the new symbol instead).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ROOT } from './type-check-blocks.ts';

/** The length of the allow-list when it was last shortened. */
const MAX_NOT_DOCUMENTED = 553;
const BUILD = join(ROOT, 'scripts', 'api-reference', 'build.ts');
const ALLOW_LIST = join(ROOT, 'scripts', 'api-reference', 'not-yet-documented.txt');

const out = mkdtempSync(join(tmpdir(), 'rf-api-reference-'));
after(() => rmSync(out, { recursive: true, force: true }));

function allowList(): string[] {
  return readFileSync(ALLOW_LIST, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

describe('the API reference', () => {
  it('the allow-list of undocumented symbols only shrinks, sorted and without repeats', () => {
    const names = allowList();
    assert.ok(
      names.length <= MAX_NOT_DOCUMENTED,
      `${names.length} names in not-yet-documented.txt, more than the ${MAX_NOT_DOCUMENTED} allowed: document the new public symbols instead of listing them`,
    );
    assert.deepEqual(names, [...new Set(names)].sort(), 'sorted, each name once');
  });

  it('builds with TypeDoc, with no warning: each public symbol documented or listed', () => {
    const result = spawnSync(process.execPath, [BUILD, '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.ok(existsSync(join(out, 'index.html')));
  });

  it('has a page per public class with its signatures and examples', () => {
    const modules = join(out, 'modules');
    assert.ok(existsSync(modules), 'one page per entry point');
    // A class of each entry point, with a signature and the example of its TSDoc.
    const page = (entry: string, name: string) => {
      const file = join(out, 'classes', `${entry}.${name}.html`);
      assert.ok(existsSync(file), file);
      return readFileSync(file, 'utf8');
    };
    const renderer = page('_restframework_core', 'JSONRenderer');
    assert.match(renderer, /render/);
    assert.match(renderer, /rendererClasses/, 'the @example');
    const client = page('_restframework_core_testing', 'APIClient');
    assert.match(client, /forceAuthenticate/);
    const ordering = page('_restframework_tricks', 'OrderingFilter');
    assert.match(ordering, /orderingFields/);
  });
});
