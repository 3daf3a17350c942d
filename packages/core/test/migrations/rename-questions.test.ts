/**
 * Likely renames are asked about when a terminal is attached (Django's questioner), never
 * assumed: a "yes" writes a rename, a "no" (or no terminal) leaves a removal and an addition.
 * Through `runCli` in this process, with the terminal's question answered by the test.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ProjectState, runCli } from '@restframework/core';
import { renameCandidates } from '@restframework/core/internal';
import { type CliProject, cliProject } from '../fixtures/cli-project.ts';

const V1 = `const Book = defineModel({ name: 'Book', table: 'book', fields: { title: models.CharField({ maxLength: 50 }), pages: models.IntegerField({ null: true }) } });`;
const V2 = `const Book = defineModel({ name: 'Book', table: 'book', fields: { name: models.CharField({ maxLength: 50 }), pages: models.IntegerField({ null: true }) } });`;
const V3 = `const Volume = defineModel({ name: 'Volume', table: 'book', fields: { name: models.CharField({ maxLength: 50 }), pages: models.IntegerField({ null: true }) } });`;

describe('makemigrations asks about likely renames', () => {
  let project: CliProject;
  let questions: string[];
  let output: string[];
  beforeEach(() => {
    project = cliProject();
    questions = [];
    output = [];
  });
  afterEach(() => project.remove());

  const run = (answer: boolean | undefined, ...args: string[]) =>
    runCli(['makemigrations', ...args], {
      cwd: project.dir,
      out: (line) => output.push(line),
      err: (line) => output.push(line),
      ...(answer === undefined
        ? {}
        : {
            ask: async (question: string) => {
              questions.push(question);
              return answer;
            },
          }),
    });
  const written = () => readdirSync(join(project.dir, 'migrations')).sort();

  // One process imports a config file once: each version of the models gets its own file.
  const version = (source: string, name: string, file: string) => {
    project.config(source, [name], file);
    return ['--config', file];
  };

  it('writes a RenameField when the answer is yes', async () => {
    assert.equal(
      await run(undefined, ...version(V1, 'Book', 'v1.config.ts')),
      0,
      output.join('\n'),
    );
    assert.equal(await run(true, ...version(V2, 'Book', 'v2.config.ts')), 0, output.join('\n'));
    assert.deepEqual(questions, ['Was Book.title renamed to Book.name? [y/N] ']);
    assert.deepEqual(written(), ['0001_initial.ts', '0002_rename_title_book_name.ts']);
    assert.match(
      readFileSync(join(project.dir, 'migrations', written()[1] as string), 'utf8'),
      /op: 'RenameField'/,
    );
  });

  it('writes a RenameModel when the answer is yes', async () => {
    assert.equal(await run(undefined, ...version(V2, 'Book', 'v2.config.ts')), 0);
    assert.equal(await run(true, ...version(V3, 'Volume', 'v3.config.ts')), 0, output.join('\n'));
    assert.deepEqual(questions, ['Was the model Book renamed to Volume? [y/N] ']);
    assert.match(
      readFileSync(join(project.dir, 'migrations', '0002_rename_book_volume.ts'), 'utf8'),
      /op: 'RenameModel'/,
    );
  });

  it('assumes nothing when the answer is no, or when no terminal is attached', async () => {
    assert.equal(await run(undefined, ...version(V1, 'Book', 'v1.config.ts')), 0);
    for (const answer of [false, undefined]) {
      questions = [];
      output = [];
      assert.equal(await run(answer, ...version(V2, 'Book', 'v2.config.ts')), 1);
      assert.deepEqual(
        questions,
        answer === undefined ? [] : ['Was Book.title renamed to Book.name? [y/N] '],
      );
      assert.match(
        output.join('\n'),
        /REST_ERR_MIGRATION_DETECT: Book\.name is a new NOT NULL field without a default/,
      );
      // The advice puts the rename first: a --default would lose the old column's values.
      assert.match(
        output.join('\n'),
        /If it is Book\.title renamed, pass --rename Book\.title:name first.*Otherwise: Give the field a default/,
      );
      assert.deepEqual(written(), ['0001_initial.ts']);
    }
  });

  it('does not ask under --check or --no-input', async () => {
    assert.equal(await run(undefined, ...version(V1, 'Book', 'v1.config.ts')), 0);
    const v2 = version(V2, 'Book', 'v2.config.ts');
    assert.equal(await run(true, ...v2, '--check'), 1);
    assert.equal(await run(true, ...v2, '--no-input'), 1);
    assert.deepEqual(questions, []);
  });
});

describe('renameCandidates', () => {
  const spec = (fields: Record<string, object>, name = 'Book') =>
    new ProjectState([
      {
        name,
        table: 'book',
        fields: { id: { kind: 'auto', primaryKey: true }, ...fields } as never,
      },
    ]);

  it('pairs a field that went with one that came with the same definition', () => {
    const from = spec({ title: { kind: 'char', maxLength: 50 }, pages: { kind: 'integer' } });
    const to = spec({ name: { kind: 'char', maxLength: 50 }, pages: { kind: 'integer' } });
    assert.deepEqual([...renameCandidates(from, to)], [['Book.title', 'name']]);
  });

  it('does not pair fields whose definitions differ', () => {
    const from = spec({ title: { kind: 'char', maxLength: 50 } });
    const to = spec({ name: { kind: 'char', maxLength: 60 } });
    assert.deepEqual([...renameCandidates(from, to)], []);
  });

  it('pairs a model that went with one that came with the same fields', () => {
    const from = spec({ title: { kind: 'char', maxLength: 50 } });
    const to = spec({ title: { kind: 'char', maxLength: 50 } }, 'Volume');
    assert.deepEqual([...renameCandidates(from, to)], [['Book', 'Volume']]);
  });

  it('pairs each added field once', () => {
    const from = spec({ a: { kind: 'integer' }, b: { kind: 'integer' } });
    const to = spec({ c: { kind: 'integer' } });
    assert.deepEqual([...renameCandidates(from, to)], [['Book.a', 'c']]);
  });
});
