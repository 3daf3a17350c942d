/**
 * Reads `docs/architecture.md` for the architecture tests: the rows of its tables and the
 * file paths it names.
 * @module
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The text of `docs/architecture.md`. */
export const PAGE = readFileSync(
  fileURLToPath(new URL('../../../../docs/architecture.md', import.meta.url)),
  'utf8',
);

/** The body rows of the first table under the `## heading`, as arrays of trimmed cells. */
export function tableUnder(heading: string): string[][] {
  const start = PAGE.indexOf(`\n## ${heading}\n`);
  assert.ok(start !== -1, `docs/architecture.md has no "## ${heading}" section`);
  const next = PAGE.indexOf('\n## ', start + heading.length + 4);
  const lines = PAGE.slice(start, next === -1 ? undefined : next).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  assert.ok(first !== -1, `"## ${heading}" has no table`);
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The texts in backticks of a cell or paragraph, in order. */
export function quoted(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
}
