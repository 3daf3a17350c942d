/**
 * `docs/errors.md` lists every HTTP error class and every `REST_ERR_*` configuration code, and
 * nothing else: a class or code added to the source without a row, or a row left behind by a
 * removed one, fails here. The HTTP table's status, code and default detail must also match the
 * classes, and the `ErrorCode` union (`ERROR_CODES`) must list the same codes as the page.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { API_EXCEPTIONS, APIException, ERROR_CODES } from '@restframework/core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');

/** The rows of the first table after `heading`, as arrays of cells. */
function tableAfter(heading: string): string[][] {
  const start = DOC.indexOf(`\n${heading}\n`);
  assert.ok(start !== -1, `docs/errors.md has no "${heading}" section`);
  const next = DOC.indexOf('\n## ', start + heading.length + 2);
  const section = DOC.slice(start, next === -1 ? undefined : next);
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  // Drop the header and the separator row.
  return rows.slice(2);
}

/** `ValidationError` from `` `ValidationError` ``. */
function unquote(cell: string | undefined): string {
  return (cell ?? '').replace(/^`|`$/g, '');
}

/** Every `.ts` file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const CATALOGUE = join('core', 'src', 'errors', 'error-codes.ts');

/** The `REST_ERR_*` codes in the code of every package (comments and the catalogue left out). */
function sourceCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  const packages = join(ROOT, 'packages');
  for (const name of readdirSync(packages)) {
    let files: string[];
    try {
      files = sourceFiles(join(packages, name, 'src'));
    } catch {
      continue;
    }
    for (const file of files) {
      // The catalogue lists every code: it would make each one look used.
      if (file.endsWith(CATALOGUE)) continue;
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        const code = line.trim();
        if (code.startsWith('*') || code.startsWith('/*') || code.startsWith('//')) continue;
        for (const match of code.matchAll(/REST_ERR_[A-Z0-9_]+/g))
          if (!codes.has(match[0])) codes.set(match[0], file.slice(ROOT.length + 1));
      }
    }
  }
  return codes;
}

describe('the error catalogue (docs/errors.md)', () => {
  const httpRows = tableAfter('## HTTP errors');
  const configRows = tableAfter('## Configuration errors');

  it('lists every class of API_EXCEPTIONS, and only those', () => {
    const documented = httpRows.map((row) => unquote(row[0]));
    const exported = API_EXCEPTIONS.map((cls) => cls.name);
    for (const name of exported)
      assert.ok(documented.includes(name), `docs/errors.md has no row for ${name}`);
    for (const name of documented)
      assert.ok(
        exported.includes(name as never),
        `docs/errors.md lists ${name}, which no longer exists`,
      );
    assert.equal(new Set(documented).size, documented.length, 'a class is listed twice');
  });

  it('lists every HTTP error class declared in the source in API_EXCEPTIONS', () => {
    const source = readFileSync(
      join(ROOT, 'packages', 'core', 'src', 'errors', 'api-exception.ts'),
      'utf8',
    );
    const declared = [...source.matchAll(/^export class (\w+) extends \w+/gm)].map((m) => m[1]);
    const exported = API_EXCEPTIONS.map((cls) => cls.name);
    assert.deepEqual(
      declared.filter((name) => name !== APIException.name).sort(),
      [...exported].sort(),
      'every class of api-exception.ts belongs in API_EXCEPTIONS (and so in docs/errors.md)',
    );
  });

  it("gives each class's status, code and default detail as the class has them", () => {
    for (const cls of API_EXCEPTIONS) {
      const row = httpRows.find((r) => unquote(r[0]) === cls.name) as string[];
      assert.ok(row, cls.name);
      assert.equal(row.length, 6, `${cls.name}: class, status, code, detail, when, what to do`);
      assert.equal(row[1], String(cls.statusCode), `${cls.name} status`);
      assert.equal(unquote(row[2]), cls.defaultCode, `${cls.name} code`);
      assert.equal(row[3], cls.defaultDetail, `${cls.name} default detail`);
      assert.ok((row[4] as string).length > 20, `${cls.name}: say when it happens`);
      assert.ok((row[5] as string).length > 10, `${cls.name}: say what the client should do`);
    }
  });

  it('lists every REST_ERR code used in the packages, and only those', () => {
    const documented = configRows.map((row) => unquote(row[0]));
    const used = sourceCodes();
    assert.ok(used.size > 10, 'the source scan found the codes');
    for (const [code, file] of used)
      assert.ok(
        documented.includes(code),
        `docs/errors.md has no row for ${code} (used in ${file})`,
      );
    for (const code of documented)
      assert.ok(used.has(code), `docs/errors.md lists ${code}, which no package uses any more`);
    assert.equal(new Set(documented).size, documented.length, 'a code is listed twice');
    for (const row of configRows) {
      assert.equal(row.length, 3, `${row[0]}: code, when, fix`);
      assert.ok(
        row.every((cell) => cell.length > 0),
        `${row[0]}: no empty cell`,
      );
    }
  });

  it('lists exactly the codes of the ErrorCode union (ERROR_CODES), each described', () => {
    const documented = configRows.map((row) => unquote(row[0]));
    const typed = Object.keys(ERROR_CODES);
    for (const code of typed)
      assert.ok(documented.includes(code), `docs/errors.md has no row for ${code} (ERROR_CODES)`);
    for (const code of documented)
      assert.ok(typed.includes(code), `${code} is in docs/errors.md but not in ERROR_CODES`);
    for (const [code, description] of Object.entries(ERROR_CODES))
      assert.ok(description.length > 10, `${code}: say in one line what it means`);
    assert.deepEqual(typed, [...typed].sort(), 'ERROR_CODES is in alphabetical order');
  });

  it('keeps the codes in alphabetical order, so a new one has one place to go', () => {
    const documented = configRows.map((row) => unquote(row[0]));
    assert.deepEqual(documented, [...documented].sort());
  });
});
