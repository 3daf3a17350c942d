/**
 * Type-checks every ```ts block of `docs/**\/*.md` with the repository's TypeScript, so that a
 * page never shows code that no longer compiles (Kysely's `test:jsdocs` does the same for its
 * TSDoc examples).
 *
 * How: each block is written to a file under `docs/.snippets/` (inside the repository, so
 * `@restframework/core` resolves through `node_modules`; the folder is gitignored and removed
 * afterwards), and one `tsc --noEmit -p docs/.snippets/tsconfig.json` compiles them all; the
 * generated tsconfig extends the root one. Each block is one test, named after its page and
 * line, failing with the compiler's messages at the page's own line numbers. Errors in the
 * repository's own files are left to `npm run typecheck`.
 *
 * Conventions (also stated at the top of `docs/index.md`):
 * - ```ts blocks compile as written, imports included; each is a module of its own.
 * - A block whose first line is a path comment (`// examples/tasks/src/models.ts`, `// book.ts`)
 *   is written at that path, inside its page's folder, so later blocks of the same page import
 *   it by that path (`import { Book } from './book.ts'`). A path shown again replaces the file
 *   for the blocks that follow; the blocks before it are compiled against the earlier version.
 * - Blocks that are not meant to compile use another fence: ```sh, ```json, ```http, ```text,
 *   or ```ts-fragment for TypeScript excerpts. A TypeScript fence under another name
 *   (```typescript, ```tsx, ```js, ```javascript) fails here, so no block escapes by accident.
 *
 * `KEEP_SNIPPETS=1` keeps the generated folder for a look after a failure.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type CompileErrors,
  fencedBlocks,
  ROOT,
  removeGenerated,
  typeCheck,
  UNCHECKED_TYPESCRIPT,
} from './type-check-blocks.ts';

const DOCS = join(ROOT, 'docs');
const OUT = join(DOCS, '.snippets');

/** A first line naming the file a block is (`// examples/tasks/src/app.ts`). */
const PATH_COMMENT = /^\/\/ ((?:[\w.-]+\/)*[\w.-]+\.ts)\s*$/;

/** One fenced block of a page. */
interface Block {
  /** The page, relative to the repository (`docs/tutorial.md`). */
  readonly page: string;
  /** The line of the opening fence (1-based); the block's first line is the next one. */
  readonly line: number;
  readonly lang: string;
  readonly code: string;
  /** The path its first line names, if any. */
  readonly path: string | undefined;
}

/**
 * Every `.md` file under `dir`, the generated folders left out (`.snippets`, and the API
 * reference, whose `media/` holds TypeDoc's copies of the pages its comments link to).
 */
function pages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        const generated = path === join(DOCS, 'api-reference');
        return entry.name.startsWith('.') || entry.name === 'node_modules' || generated
          ? []
          : pages(path);
      }
      return entry.name.endsWith('.md') ? [path] : [];
    })
    .sort();
}

/** The fenced blocks of a Markdown page, with their language and line. */
function blocks(file: string): Block[] {
  const page = relative(ROOT, file).split(sep).join('/');
  return fencedBlocks(readFileSync(file, 'utf8').split('\n')).map(({ index, lang, code }) => ({
    page,
    line: index + 1,
    lang,
    code,
    path: PATH_COMMENT.exec(code.split('\n')[0] ?? '')?.[1],
  }));
}

/** A generated file and the block it came from. */
interface Generated {
  readonly file: string;
  readonly block: Block;
}

/**
 * Lays a page's ts blocks out as files: named blocks at their path, the others under a name
 * of their own. A path named again starts a new folder (a "generation") holding the named
 * files as they are at that point, so each block compiles against the files shown before it.
 */
function layout(pageBlocks: readonly Block[], folder: string): Generated[] {
  const generated: Generated[] = [];
  let generation = 0;
  let current = new Map<string, Block>();
  const flush = () => {
    for (const [path, block] of current)
      generated.push({ file: join(folder, `g${generation}`, path), block });
    generation++;
  };
  for (const block of pageBlocks) {
    if (block.path && current.has(block.path)) {
      flush();
      const named = [...current].filter(([path]) => !path.startsWith('_snippet-'));
      current = new Map(named);
    }
    current.set(block.path ?? `_snippet-L${block.line}.ts`, block);
  }
  if (current.size) flush();
  return generated;
}

const all = pages(DOCS).flatMap(blocks);
const checked = all.filter((block) => block.lang === 'ts');

describe('docs: the code blocks of every page', () => {
  it('finds TypeScript blocks to check', () => {
    assert.ok(checked.length > 0, 'no ```ts block under docs/');
  });

  it('uses ts (checked) or ts-fragment (not checked) for TypeScript, never another name', () => {
    const wrong = all
      .filter((block) => UNCHECKED_TYPESCRIPT.has(block.lang))
      .map((block) => `${block.page}:${block.line} uses \`\`\`${block.lang}`);
    assert.deepEqual(wrong, [], 'write ```ts (type-checked) or ```ts-fragment (an excerpt)');
  });
});

describe('docs: every ```ts block compiles', () => {
  const files = new Map<string, Generated>();
  const byPage = Map.groupBy(checked, (block) => block.page);
  for (const [page, pageBlocks] of byPage) {
    const folder = join(
      OUT,
      page
        .replace(/^docs\//, '')
        .replace(/\.md$/, '')
        .replaceAll('/', '--'),
    );
    for (const generated of layout(pageBlocks, folder)) files.set(generated.file, generated);
  }
  let errors: CompileErrors = new Map();

  before(() => {
    const texts = new Map([...files].map(([file, { block }]) => [file, `${block.code}\n`]));
    errors = typeCheck(OUT, texts);
  });

  after(() => removeGenerated(OUT));

  for (const block of checked) {
    const name = `${block.page}:${block.line}${block.path ? ` (${block.path})` : ''}`;
    it(name, () => {
      const messages = new Set<string>();
      for (const [file, generated] of files) {
        if (generated.block !== block) continue;
        for (const [line, message] of errors.get(file) ?? [])
          messages.add(`${block.page}:${block.line + line} ${message}`);
      }
      assert.deepEqual(
        [...messages],
        [],
        `the block at ${block.page}:${block.line} does not compile`,
      );
    });
  }
});
