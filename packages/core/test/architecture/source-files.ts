/**
 * Reads `packages/core/src` for the architecture tests: its files, their relative imports
 * (value or type) and their module-level caches. A line scanner, not a parser: the sources are
 * formatted by Biome, so a top-level statement starts at the beginning of a line, and TSDoc
 * lines start with `*`.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `packages/core/src`. */
export const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every `.ts` file under `src/`, as a path relative to it with `/` separators. */
export function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) out.push(relative(SRC, path).split(sep).join('/'));
    }
  };
  walk(SRC);
  return out.sort();
}

/** The text of a file of `src/`. */
export function sourceText(file: string): string {
  return readFileSync(join(SRC, file), 'utf8');
}

/** One relative import of a file of `src/`. */
export interface SourceImport {
  /** The importing file, relative to `src/`. */
  readonly from: string;
  /** The imported file, relative to `src/`. */
  readonly to: string;
  /** True when only types are imported (erased when the code runs). */
  readonly typeOnly: boolean;
  /** The statement's line (1-based). */
  readonly line: number;
}

const STATIC = /^(import|export)\b([\s\S]*?)\bfrom\s*['"]([^'"]+)['"]/;
const SIDE_EFFECT = /^import\s*['"]([^'"]+)['"]/;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Whether the clause of an `import … from` or `export … from` names only types. */
function onlyTypes(clause: string): boolean {
  const text = clause.trim();
  if (/^type\b/.test(text)) return true;
  const braces = /^\{([\s\S]*)\}$/.exec(text);
  if (!braces) return false;
  const names = braces[1]
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((name) => name.startsWith('type '));
}

/** The relative imports of one file of `src/` (static, re-exports and `import()`). */
export function importsOf(file: string): SourceImport[] {
  const lines = sourceText(file).split('\n');
  const out: SourceImport[] = [];
  const add = (specifier: string, typeOnly: boolean, line: number): void => {
    if (!specifier.startsWith('.')) return;
    const to = relative(SRC, resolve(dirname(join(SRC, file)), specifier))
      .split(sep)
      .join('/');
    out.push({ from: file, to, typeOnly, line });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^(import|export)\b/.test(line)) {
      // A statement may span lines: read on until its `from '…'` (at most 60 lines).
      let statement = line;
      let end = i;
      while (!/\bfrom\s*['"][^'"]+['"]/.test(statement) && end < i + 60 && end + 1 < lines.length) {
        if (
          /;\s*$/.test(lines[end]) ||
          (end > i && /^\S/.test(lines[end]) && !/^\}/.test(lines[end]))
        )
          break;
        end++;
        statement += `\n${lines[end]}`;
      }
      const match = STATIC.exec(statement);
      if (match) {
        const clause = match[1] === 'import' ? match[2] : match[2];
        add(match[3], onlyTypes(clause), i + 1);
        i = end;
        continue;
      }
      const sideEffect = SIDE_EFFECT.exec(line);
      if (sideEffect) add(sideEffect[1], false, i + 1);
    }
    if (/^\s*(\*|\/\/)/.test(line)) continue;
    for (const dynamic of line.matchAll(DYNAMIC)) add(dynamic[1], false, i + 1);
  }
  return out;
}

/** The top folder of a file of `src/` (`views` for `views/api-view.ts`; `.` for `index.ts`). */
export function folderOf(file: string): string {
  const slash = file.indexOf('/');
  return slash === -1 ? '.' : file.slice(0, slash);
}
