/**
 * The layer table of `docs/architecture.md` is the rule: every file of `src/` belongs to one
 * row, and a value import only goes to a folder of the same row or of a row below. Type-only
 * imports are erased at run time and are not checked.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { quoted, tableUnder } from './architecture-page.ts';
import { importsOf, type SourceImport, SRC, sourceFiles } from './source-files.ts';

interface Layer {
  readonly name: string;
  /** Its position from the top (0 is the top). */
  readonly rank: number;
  /** Folders as `views/`, files as `index.ts`. */
  readonly entries: readonly string[];
}

const LAYERS: Layer[] = tableUnder('The layers').map(([name, folders], rank) => ({
  name,
  rank,
  entries: quoted(folders),
}));

/** The layer of a file of `src/`: the row naming the longest folder that holds it. */
function layerOf(file: string): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of LAYERS) {
    for (const entry of layer.entries) {
      const holds = entry.endsWith('/') ? file.startsWith(entry) : file === entry;
      if (holds && (!best || entry.length > best.length)) best = { layer, length: entry.length };
    }
  }
  return best?.layer;
}

describe('the layer table of docs/architecture.md', () => {
  it('has rows, each naming folders or files that exist', () => {
    assert.ok(LAYERS.length >= 5, 'the layer table has fewer than five rows');
    for (const layer of LAYERS) {
      assert.ok(layer.entries.length > 0, `the layer ${layer.name} names no folder`);
      for (const entry of layer.entries) {
        assert.ok(
          existsSync(join(SRC, entry)),
          `the layer ${layer.name} names ${entry}, which is not in src/`,
        );
      }
    }
  });

  it('holds every file of src/', () => {
    const homeless = sourceFiles().filter((file) => !layerOf(file));
    assert.deepEqual(homeless, [], 'files of src/ in no row of the layer table');
  });

  it('is followed by every value import of src/', () => {
    const upward: string[] = [];
    for (const file of sourceFiles()) {
      for (const imported of importsOf(file)) {
        if (imported.typeOnly) continue;
        const from = layerOf(imported.from);
        const to = layerOf(imported.to);
        if (from && to && to.rank < from.rank) upward.push(describeImport(imported, from, to));
      }
    }
    assert.deepEqual(upward, [], 'value imports that run upward against the layer table');
  });

  it('sees an upward import (the scanner is not blind)', () => {
    const scanned = importsOf('plugin/default-settings.ts');
    assert.ok(
      scanned.some((imported) => imported.to === 'parsers/json-parser.ts' && !imported.typeOnly),
      'the scanner found no value import of parsers/json-parser.ts in plugin/default-settings.ts',
    );
    assert.ok(
      importsOf('settings/default-values.ts').every((imported) => imported.typeOnly),
      'settings/default-values.ts imports a value',
    );
    const glue = layerOf('plugin/default-settings.ts');
    const http = layerOf('parsers/json-parser.ts');
    assert.ok(glue && http && glue.rank < http.rank, 'plugin/ is not above parsers/');
  });
});

function describeImport(imported: SourceImport, from: Layer, to: Layer): string {
  return `${imported.from}:${imported.line} (${from.name}) imports ${imported.to} (${to.name})`;
}
