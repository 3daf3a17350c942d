/**
 * What the docs' snippet test and the TSDoc example test share: finding fenced blocks in
 * Markdown text, and type-checking a set of generated files with one `tsc --noEmit`, its errors
 * read back by file and line.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The repository's root. */
export const ROOT = join(import.meta.dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** Fences that hold TypeScript but would not be checked: write ```ts or ```ts-fragment. */
export const UNCHECKED_TYPESCRIPT = new Set([
  'typescript',
  'tsx',
  'js',
  'javascript',
  'mjs',
  'mts',
]);

/** One fenced block of a Markdown text. */
export interface Fenced {
  /** The index, in the lines given, of the opening fence; the block's first line is the next. */
  readonly index: number;
  /** The fence's language, lower-cased (`ts`, `ts-fragment`, `sh`, or `` for none). */
  readonly lang: string;
  readonly code: string;
}

/** The fenced blocks of Markdown lines, each with its language and the index of its fence. */
export function fencedBlocks(lines: readonly string[]): Fenced[] {
  const found: Fenced[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i] as string);
    if (!open) continue;
    const [, indent = '', fence = '', lang = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const text = lines[j] as string;
      if (text.trim().startsWith(fence) && text.trim().replace(/[`~]/g, '') === '') break;
      body.push(text.startsWith(indent) ? text.slice(indent.length) : text.trimStart());
    }
    found.push({ index: i, lang: lang.toLowerCase(), code: body.join('\n') });
    i = j;
  }
  return found;
}

/** Compiler errors by generated file (absolute path): `[line, message]`, lines 1-based. */
export type CompileErrors = Map<string, [number, string][]>;

/**
 * Writes `files` (absolute paths under `out`, to their text) and a `tsconfig.json` extending the
 * root one, then type-checks them all with one `tsc --noEmit`. `out` must lie inside the
 * repository so that `@restframework/*` resolve through `node_modules`; it is emptied first.
 * Errors in the repository's own files are reported too (keyed by their own path), and are left
 * to `npm run typecheck`.
 *
 * tsc reports no type errors at all while any file has a syntax error (TS1xxx), which would let
 * every other block pass unchecked; so the files with syntax errors are set aside and the rest
 * compiled once more.
 */
export function typeCheck(out: string, files: ReadonlyMap<string, string>): CompileErrors {
  rmSync(out, { recursive: true, force: true });
  for (const [file, text] of files) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  const errors = runTsc(out, []);
  const broken = [...errors]
    .filter(([, list]) => list.some(([, message]) => / TS1\d{3} /.test(message)))
    .map(([file]) => file);
  if (broken.length === 0) return errors;
  for (const [file, list] of runTsc(out, broken)) errors.set(file, list);
  return errors;
}

/** One `tsc --noEmit` over `out`, the `excluded` files left out, its errors by file. */
function runTsc(out: string, excluded: readonly string[]): CompileErrors {
  const posix = (path: string) => path.split('\\').join('/');
  const config = {
    extends: posix(relative(out, join(ROOT, 'tsconfig.json'))),
    include: ['**/*.ts'],
    exclude: excluded.map((file) => posix(relative(out, file))),
  };
  writeFileSync(join(out, 'tsconfig.json'), `${JSON.stringify(config, null, 2)}\n`);
  const result = spawnSync(
    process.execPath,
    [TSC, '--noEmit', '--pretty', 'false', '-p', join(out, 'tsconfig.json')],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.error) throw result.error;
  const output = `${result.stdout}${result.stderr}`;
  const errors: CompileErrors = new Map();
  let last: [number, string][] | undefined;
  let lastIndex = -1;
  for (const text of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(text);
    if (match) {
      const [, file = '', line = '0', column = '', code = '', message = ''] = match;
      const key = join(ROOT, file);
      last = errors.get(key) ?? [];
      errors.set(key, last);
      last.push([Number(line), `column ${column}: ${code} ${message}`]);
      lastIndex = last.length - 1;
    } else if (last && text.startsWith(' ') && lastIndex >= 0) {
      const entry = last[lastIndex] as [number, string];
      entry[1] += `\n    ${text.trim()}`;
    } else {
      last = undefined;
    }
  }
  if (result.status !== 0 && errors.size === 0) {
    throw new Error(`tsc failed without errors it could name:\n${output}`);
  }
  return errors;
}

/** Removes a generated folder, unless `KEEP_SNIPPETS=1` asks to keep it for a look. */
export function removeGenerated(out: string): void {
  if (!process.env.KEEP_SNIPPETS) rmSync(out, { recursive: true, force: true });
}
