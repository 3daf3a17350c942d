/**
 * The OpenAPI document and the inferred TypeScript types agree, for every serializer of the
 * bookstore: what a client receives (`Representation`), and what it sends to create (POST,
 * `CreateInput`), replace (PUT, `UpdateInput`) and patch (PATCH, `PartialInput`).
 *
 * How: the document the service serves is turned into TypeScript by a client generator
 * (json-schema-to-typescript, which reads the components' JSON Schemas as they are), and a
 * generated module assigns each generated type to the inferred one and back (the compiler
 * names the property that differs) and asserts that they are the same type (an extra optional
 * key passes both assignments); the repository's `tsc` compiles it. Any difference in a key,
 * its presence, `null`, a choice or a value type fails. A second module does the same with a document changed on
 * purpose in several ways, and must fail for each of them, so that this test can fail.
 *
 * Bodies that carry files are compared in their multipart form (JSON carries no files);
 * files are `Blob` on both sides. `KEEP_OPENAPI_TYPES=1` keeps the generated folder.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database, SchemaGenerator } from '@restframework/core';
import { compile } from 'json-schema-to-typescript';
import { buildApp } from '../src/app.ts';
import { ALL_MODELS } from '../src/models/index.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const OUT = join(import.meta.dirname, '.openapi-types');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** Each serializer the document describes: its component and where its class is exported. */
const SERIALIZERS = [
  {
    component: 'Book',
    name: 'BookSerializer',
    module: '../../src/serializers/book-serializers.ts',
  },
  {
    component: 'NullableBook',
    name: 'NullableBookSerializer',
    module: '../../src/serializers/book-serializers.ts',
  },
  {
    component: 'Author',
    name: 'AuthorSerializer',
    module: '../../src/serializers/author-serializers.ts',
  },
  {
    component: 'Profile',
    name: 'ProfileSerializer',
    module: '../../src/serializers/profile-serializer.ts',
  },
  {
    component: 'Upload',
    name: 'UploadSerializer',
    module: '../../src/serializers/upload-serializer.ts',
  },
  // The management routes' login body (token and session logins), core's own serializer.
  { component: 'Login', name: 'LoginSerializer', module: '@restframework/core' },
] as const;

/** The inferred type of each body, and the component (in JSON or form) that documents it. */
const BODIES = [
  { body: 'Representation', json: (c: string) => c, form: (c: string) => c },
  {
    body: 'CreateInput',
    json: (c: string) => [`${c}CreateRequest`, `${c}Request`],
    form: (c: string) => [`${c}CreateFormRequest`, `${c}FormRequest`],
  },
  {
    body: 'UpdateInput',
    json: (c: string) => `${c}Request`,
    form: (c: string) => `${c}FormRequest`,
  },
  {
    body: 'PartialInput',
    json: (c: string) => `Patched${c}Request`,
    form: (c: string) => `Patched${c}FormRequest`,
  },
] as const;

type Schema = Record<string, any>;

/** A file is a `Blob` to a client (a part of a multipart body). */
function filesAsBlobs(schema: Schema): Schema {
  if (schema.format === 'binary') return { ...schema, tsType: 'Blob' };
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (!properties) return schema;
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [name, filesAsBlobs(property)]),
    ),
  };
}

function hasFiles(schema: Schema): boolean {
  return Object.values((schema.properties ?? {}) as Record<string, Schema>).some(
    (property) => property.format === 'binary' || hasFiles(property),
  );
}

/** The first of `names` the document has. */
function pick(schemas: Record<string, Schema>, names: string | readonly string[]): string {
  const found = [names].flat().find((name) => schemas[name] !== undefined);
  assert.ok(found, `the document has no component ${[names].flat().join(' or ')}`);
  return found;
}

/**
 * A module that assigns, for each serializer and body, the generated type to the inferred one
 * and back (`const x: Generated = inferred; const y: Inferred = generated;`).
 */
async function checkModule(schemas: Record<string, Schema>): Promise<string> {
  const lines = [
    "import type { CreateInput, PartialInput, Representation, UpdateInput } from '@restframework/core';",
    // Identical types, not merely assignable: an extra optional key passes an assignment.
    'type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;',
    'type Expect<T extends true> = T;',
  ];
  for (const { name, module } of SERIALIZERS) {
    lines.push(`import type { ${name} } from '${module}';`);
  }
  for (const { component, name } of SERIALIZERS) {
    // JSON carries no files: a serializer that takes files is compared in its form body.
    const form = hasFiles(schemas[`${component}FormRequest`] as Schema);
    for (const { body, json, form: formName } of BODIES) {
      const source = pick(
        schemas,
        form && body !== 'Representation' ? formName(component) : json(component),
      );
      const typeName = `Wire${body}${component}`;
      const generated = await compile(filesAsBlobs(schemas[source] as Schema), typeName, {
        bannerComment: '',
        additionalProperties: false,
        format: false,
        declareExternallyReferenced: true,
        unknownAny: true,
      });
      lines.push(`// ${body}<${name}> ⇔ components.schemas.${source}`);
      lines.push(generated.replace(/^export interface /m, 'interface '));
      const inferred = `${body}<${name}>`;
      lines.push(`declare const inferred${typeName}: ${inferred};`);
      lines.push(`declare const openapi${typeName}: ${typeName};`);
      lines.push(`export const toOpenApi${typeName}: ${typeName} = inferred${typeName};`);
      lines.push(`export const toInferred${typeName}: ${inferred} = openapi${typeName};`);
      lines.push(`export type Same${typeName} = Expect<Equal<${inferred}, ${typeName}>>;`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Compiler errors by generated file name. */
function typecheck(): Map<string, string[]> {
  const result = spawnSync(
    process.execPath,
    [TSC, '--noEmit', '--pretty', 'false', '-p', join(OUT, 'tsconfig.json')],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.error) throw result.error;
  const errors = new Map<string, string[]>();
  let last: string[] | undefined;
  for (const text of `${result.stdout}${result.stderr}`.split('\n')) {
    const match = /^(.+?)\(\d+,\d+\): error TS\d+: /.exec(text);
    if (match) {
      const file = (match[1] as string).split(/[\\/]/).pop() as string;
      last = errors.get(file) ?? [];
      errors.set(file, last);
      last.push(text);
    } else if (text.trim() && last) {
      last.push(text);
    }
  }
  if (result.status !== 0 && errors.size === 0) {
    throw new Error(`tsc failed without errors by file:\n${result.stdout}${result.stderr}`);
  }
  return errors;
}

/** The document changed on purpose, one way per module: each must fail the check. */
const DIVERGENCES: Record<string, (schemas: Record<string, Schema>) => void> = {
  // A create that the document says may leave out the title.
  'optional-title': (s) => {
    const create = s.BookCreateRequest as Schema;
    create.required = (create.required as string[]).filter((name) => name !== 'title');
  },
  // A state the model does not have.
  'extra-choice': (s) => {
    (s.Book as Schema).properties.stock_information.properties.state.enum.push('sold');
  },
  // A nullable description the document forgets.
  'no-null': (s) => {
    (s.PatchedBookRequest as Schema).properties.description.type = 'string';
  },
  // A key the types do not have.
  'extra-key': (s) => {
    (s.ProfileRequest as Schema).properties.nickname = { type: 'string' };
  },
  // A key read as a number.
  'wrong-type': (s) => {
    (s.Author as Schema).properties.name = { type: 'integer' };
  },
};

describe('the OpenAPI document and the inferred types', () => {
  let schemas: Record<string, Schema>;

  before(async () => {
    const db = Database.connect('sqlite::memory:');
    await db.migrate(ALL_MODELS);
    const app = await buildApp({ database: db });
    try {
      // Every body of every serializer, also those no route uses (the served document leaves
      // them out: the login serializer's representation, its PATCH bodies), so that each is
      // compared; the served document's components are a subset of these.
      await app.ready();
      const all = new SchemaGenerator({ keepUnusedComponents: true }).getSchema(app.restFramework);
      schemas = all.components.schemas as Record<string, Schema>;
      const response = await app.inject({ url: '/schema/', headers: { host: '127.0.0.1' } });
      assert.equal(response.statusCode, 200);
      for (const [name, schema] of Object.entries(response.json().components.schemas))
        assert.deepEqual(schema, schemas[name], name);
    } finally {
      await app.close();
      await db.close();
    }
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    writeFileSync(
      join(OUT, 'tsconfig.json'),
      `${JSON.stringify({ extends: '../../../../tsconfig.json', include: ['*.ts'] }, null, 2)}\n`,
    );
  });

  after(() => {
    if (!process.env.KEEP_OPENAPI_TYPES) rmSync(OUT, { recursive: true, force: true });
  });

  it('checks every serializer the document describes', () => {
    const described = Object.keys(schemas).filter(
      (name) => schemas[`${name}Request`] !== undefined && schemas[`Patched${name}Request`],
    );
    assert.deepEqual(described.sort(), SERIALIZERS.map((s) => s.component).sort());
  });

  it('agree in both directions, and disagree when the document is changed', async () => {
    writeFileSync(join(OUT, 'agree.ts'), await checkModule(schemas));
    for (const [name, change] of Object.entries(DIVERGENCES)) {
      const changed = structuredClone(schemas);
      change(changed);
      writeFileSync(join(OUT, `diverge-${name}.ts`), await checkModule(changed));
    }
    const errors = typecheck();
    assert.equal(
      errors.get('agree.ts'),
      undefined,
      `the types and the document disagree:\n${errors.get('agree.ts')?.join('\n')}`,
    );
    for (const name of Object.keys(DIVERGENCES)) {
      assert.ok(
        (errors.get(`diverge-${name}.ts`)?.length ?? 0) > 0,
        `the check did not notice the change '${name}'`,
      );
    }
    const unexpected = [...errors.keys()].filter((file) => !file.startsWith('diverge-'));
    assert.deepEqual(unexpected, [], [...errors.values()].flat().join('\n'));
  });
});
