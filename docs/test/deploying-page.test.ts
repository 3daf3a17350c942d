/**
 * docs/deploying.md shows what the scale-out test runs: the bookstore's production file as it
 * is, and the HAProxy settings of the test's configuration (examples/bookstore/test/scale/).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { haproxyConfig } from '../../examples/bookstore/test/scale/haproxy.ts';
import { ROOT } from './type-check-blocks.ts';

const page = readFileSync(join(ROOT, 'docs/deploying.md'), 'utf8');

/** The fenced block right after `marker` (an HTML comment), without its fences. */
function blockAfter(marker: string): string {
  const at = page.indexOf(marker);
  assert.notEqual(at, -1, `${marker} not on the page`);
  // Three backticks or more (four around a file whose comments hold a fenced example).
  const match = /^(`{3,})[\w-]*\n([\s\S]*?)^\1$/m.exec(page.slice(at + marker.length));
  assert.ok(match, `no fenced block after ${marker}`);
  return match[2] as string;
}

describe('docs/deploying.md', () => {
  it('shows examples/bookstore/src/production.ts as it is', () => {
    const file = 'examples/bookstore/src/production.ts';
    assert.equal(blockAfter(`<!-- ${file} -->`), readFileSync(join(ROOT, file), 'utf8'));
  });

  it("shows the scale-out test's HAProxy backend settings", () => {
    const shown = blockAfter('<!-- examples/bookstore/test/scale/haproxy.ts -->')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('server '));
    const used = new Set(
      haproxyConfig(8000, new Map([['w1', 8001]]), '/tmp')
        .split('\n')
        .map((line) => line.trim()),
    );
    assert.deepEqual(
      shown.filter((line) => !used.has(line)),
      [],
      'lines the test does not use',
    );
  });
});
