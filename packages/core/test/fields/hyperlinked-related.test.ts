/**
 * HyperlinkedRelatedField (one and many) and StringRelatedField over a router's routes, on the
 * three databases: links rendered from the request with no statement per row, links read back
 * to rows with DRF's messages, any text a 400 or a write (never a 500), and declaration
 * mistakes failing at start-up.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  defineModel,
  HyperlinkedRelatedField,
  ImproperlyConfigured,
  ModelSerializer,
  ModelViewSet,
  models,
  PageNumberPagination,
  StringRelatedField,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';

const Writer = defineModel({
  name: 'Writer',
  table: 'hrf_writer',
  fields: { name: models.CharField({ maxLength: 30 }) },
  str: (writer) => `${writer.name} (writer)`,
});

const Label = defineModel({
  name: 'Label',
  table: 'hrf_label',
  fields: { name: models.CharField({ maxLength: 20, unique: true }) },
  ordering: ['id'],
});

const Note = defineModel({
  name: 'Note',
  table: 'hrf_note',
  fields: {
    title: models.CharField({ maxLength: 50 }),
    writer: models.ForeignKey(Writer, { onDelete: 'CASCADE', relatedName: 'notes' }),
    labels: models.ManyToManyField(Label, { relatedName: 'notes', blank: true }),
  },
  ordering: ['id'],
});

class NoteSerializer extends ModelSerializer.with({
  model: Note,
  fields: ['id', 'title', 'writer', 'labels', 'writerName', 'labelNames'],
  declaredFields: {
    writer: new HyperlinkedRelatedField({
      viewName: 'writer-detail',
      queryset: Writer.objects.all(),
    }),
    labels: HyperlinkedRelatedField.many({
      viewName: 'label-detail',
      lookupField: 'name',
      queryset: Label.objects.all(),
      required: false,
    }),
    writerName: new StringRelatedField({ source: 'writer' }),
    labelNames: StringRelatedField.many({ source: 'labels' }),
  },
}) {}

class WriterSerializer extends ModelSerializer.with({
  model: Writer,
  fields: ['id', 'name', 'notes'],
  declaredFields: {
    notes: HyperlinkedRelatedField.many({ viewName: 'note-detail', readOnly: true }),
  },
}) {}

class LabelSerializer extends ModelSerializer.with({ model: Label, fields: ['id', 'name'] }) {}

class Pages extends PageNumberPagination {
  override pageSize = 2;
  override pageSizeQueryParam = 'size';
}

class NoteViewSet extends ModelViewSet {
  override queryset = Note.objects.all();
  override serializerClass = NoteSerializer;
  override paginationClass = Pages;
}
class WriterViewSet extends ModelViewSet {
  override queryset = Writer.objects.all();
  override serializerClass = WriterSerializer;
  override paginationClass = Pages;
}
class LabelViewSet extends ModelViewSet {
  override queryset = Label.objects.all();
  override serializerClass = LabelSerializer;
  override lookupField = 'name';
}

const HOST = 'http://127.0.0.1:8001';

for (const dialect of testDialects()) {
  describe(`HyperlinkedRelatedField and StringRelatedField, on ${dialect.name}`, {
    skip: dialect.skip,
  }, () => {
    let db: Database;
    let app: FastifyInstance;
    let writerId: number;

    before(async () => {
      db = await dialect.create();
      await db.migrate([Writer, Label, Note]);
      const labels = [];
      for (const name of ['red', 'green', 'blue'])
        labels.push(await Label.objects.using(db).create({ name }));
      for (let i = 0; i < 22; i++) {
        const writer = await Writer.objects.using(db).create({ name: `w${i}` });
        writerId ??= writer.id;
        const note = await Note.objects
          .using(db)
          .create({ title: `note ${i}`, writer_id: writer.id });
        await Note.related(note, 'labels')
          .using(db)
          .add(...labels.slice(0, i % 4));
      }
      app = await buildApp({
        database: db,
        viewsets: [
          ['notes', NoteViewSet],
          ['writers', WriterViewSet],
          ['labels', LabelViewSet],
        ],
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    async function send(
      method: string,
      url: string,
      body?: unknown,
    ): Promise<{ statements: number; status: number; body: any }> {
      let statements = 0;
      const stop = db.onQuery(() => statements++);
      try {
        const response = await request(app, {
          method: method as 'GET',
          url,
          ...(body === undefined ? {} : json(body)),
        });
        return { statements, status: response.statusCode, body: response.json() };
      } finally {
        stop();
      }
    }

    it('renders links and string forms, the same statements for a page of 2 as of 20', async () => {
      const small = await send('GET', '/api/notes/?size=2');
      const large = await send('GET', '/api/notes/?size=20');
      assert.equal(large.body.results.length, 20);
      assert.equal(large.statements, small.statements);
      for (const note of large.body.results) {
        const i = Number(note.title.split(' ')[1]);
        assert.match(note.writer, new RegExp(`^${HOST}/api/writers/\\d+/$`));
        assert.equal(note.writerName, `w${i} (writer)`);
        const names = ['red', 'green', 'blue'].slice(0, i % 4);
        assert.deepEqual(
          note.labels,
          names.map((name) => `${HOST}/api/labels/${name}/`),
        );
        // Label declares no string form: Django's default.
        assert.equal(note.labelNames.length, names.length);
        for (const text of note.labelNames) assert.match(text, /^Label object \(\d+\)$/);
      }
      const writers = await send('GET', '/api/writers/?size=20');
      const fewWriters = await send('GET', '/api/writers/?size=2');
      assert.equal(writers.statements, fewWriters.statements);
      const first = writers.body.results[0];
      assert.equal(first.notes.length, 1);
      const note = await send('GET', first.notes[0].slice(HOST.length));
      assert.equal(note.status, 200);
      assert.equal(note.body.writer, `${HOST}/api/writers/${first.id}/`);
    });

    it('writes links, absolute or paths, and answers them back', async () => {
      const created = await send('POST', '/api/notes/', {
        title: 'linked',
        writer: `${HOST}/api/writers/${writerId}/`,
        labels: ['/api/labels/blue/', `${HOST}/api/labels/red/`],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.writer, `${HOST}/api/writers/${writerId}/`);
      assert.deepEqual(created.body.labels, [
        `${HOST}/api/labels/blue/`,
        `${HOST}/api/labels/red/`,
      ]);
      assert.equal(created.body.writerName, 'w0 (writer)');
      const patched = await send('PATCH', `/api/notes/${created.body.id}/`, {
        labels: [`http://another.host/api/labels/green/`],
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.deepEqual(patched.body.labels, [`${HOST}/api/labels/green/`]);
    });

    it("refuses bad links with DRF's messages, changing nothing", async () => {
      const cases: [unknown, string][] = [
        [7, 'Incorrect type. Expected URL string, received int.'],
        [null, 'This field may not be null.'],
        [{ id: 1 }, 'Incorrect type. Expected URL string, received dict.'],
        ['/nowhere/', 'Invalid hyperlink - No URL match.'],
        ['http://[bad', 'Invalid hyperlink - No URL match.'],
        [`${HOST}/api/labels/red/`, 'Invalid hyperlink - Incorrect URL match.'],
        ['/api/writers/999999/', 'Invalid hyperlink - Object does not exist.'],
        ['/api/writers/abc/', 'Invalid hyperlink - Object does not exist.'],
      ];
      const before = await Note.objects.using(db).count();
      for (const [writer, message] of cases) {
        const answer = await send('POST', '/api/notes/', { title: 'x', writer });
        assert.equal(
          answer.status,
          400,
          `${JSON.stringify(writer)}: ${JSON.stringify(answer.body)}`,
        );
        assert.deepEqual(answer.body, { writer: [message] }, JSON.stringify(writer));
      }
      const many = await send('POST', '/api/notes/', {
        title: 'x',
        writer: `/api/writers/${writerId}/`,
        labels: ['/api/labels/red/', '/api/labels/purple/'],
      });
      assert.equal(many.status, 400);
      assert.deepEqual(many.body, { labels: ['Invalid hyperlink - Object does not exist.'] });
      const notList = await send('POST', '/api/notes/', {
        title: 'x',
        writer: `/api/writers/${writerId}/`,
        labels: '/api/labels/red/',
      });
      assert.deepEqual(notList.body, { labels: ['Expected a list of items but got type "str".'] });
      assert.equal(await Note.objects.using(db).count(), before);
    });

    it('answers any text sent as a link with a 400 or a write, never a 500', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string(),
            fc.webUrl(),
            fc.string().map((s) => `/api/writers/${s}/`),
            fc.string().map((s) => `/api/labels/${encodeURIComponent(s)}/`),
          ),
          async (link) => {
            const answer = await send('POST', '/api/notes/', {
              title: 'fuzz',
              writer: `/api/writers/${writerId}/`,
              labels: [link],
            });
            assert.ok(
              answer.status === 201 || answer.status === 400,
              `${JSON.stringify(link)}: ${answer.status} ${JSON.stringify(answer.body)}`,
            );
            if (answer.status === 400) {
              assert.equal(answer.body.labels.length, 1);
              assert.match(answer.body.labels[0], /^Invalid hyperlink - /);
            }
          },
        ),
        { numRuns: 60 },
      );
    });
  });
}

describe('hyperlinked and string relations: declaration mistakes', () => {
  it('fail when declared: unknown options, no viewName, no queryset, a lookup field the model lacks', () => {
    const cases: [() => unknown, RegExp][] = [
      [
        () =>
          new HyperlinkedRelatedField({
            viewName: 'writer-detail',
            readOnly: true,
            // @ts-expect-error: not an option of HyperlinkedRelatedField
            lookup: 'name',
          }),
        /the option 'lookup' is not one HyperlinkedRelatedField knows/,
      ],
      [
        // @ts-expect-error: viewName is required
        () => new HyperlinkedRelatedField({ readOnly: true }),
        /needs viewName/,
      ],
      [() => new HyperlinkedRelatedField({ viewName: 'writer-detail' }), /needs a queryset/],
      [
        () =>
          new HyperlinkedRelatedField({
            viewName: 'writer-detail',
            lookupField: 'slug',
            queryset: Writer.objects.all(),
          }),
        /Writer has no field "slug"/,
      ],
      [
        () =>
          HyperlinkedRelatedField.many({
            viewName: 'label-detail',
            readOnly: true,
            // @ts-expect-error: not an option of HyperlinkedRelatedField.many
            slugField: 'name',
          }),
        /the option 'slugField' is not one HyperlinkedRelatedField.many knows/,
      ],
      [
        // @ts-expect-error: not an option of StringRelatedField
        () => new StringRelatedField({ queryset: Writer.objects.all() }),
        /the option 'queryset' is not one StringRelatedField knows/,
      ],
    ];
    for (const [make, message] of cases) {
      assert.throws(make, (error: unknown) => {
        assert.ok(error instanceof ImproperlyConfigured);
        assert.equal(error.code, 'REST_ERR_FIELD_OPTIONS');
        assert.match(error.message, message);
        return true;
      });
    }
  });

  for (const dialect of testDialects().slice(0, 1)) {
    it('fail at start-up: a route no router registers, a parameter the route lacks', async () => {
      const db = await dialect.create();
      try {
        const cases: [ModelSerializerClass, RegExp][] = [
          [
            serializerWith(
              new HyperlinkedRelatedField({ viewName: 'author-detail', readOnly: true }),
            ),
            /links to the route "author-detail", which no router registers/,
          ],
          [
            serializerWith(
              new HyperlinkedRelatedField({
                viewName: 'writer-detail',
                lookupField: 'name',
                readOnly: true,
                source: 'writer',
              }),
            ),
            /fills the parameter "name" of the route "writer-detail"/,
          ],
        ];
        for (const [serializerClass, message] of cases) {
          class Broken extends ModelViewSet {
            override queryset = Note.objects.all();
            override serializerClass = serializerClass;
          }
          await assert.rejects(
            buildApp({
              database: db,
              viewsets: [
                ['notes', Broken],
                ['writers', WriterViewSet],
              ],
            }),
            (error: unknown) => {
              assert.ok(error instanceof ImproperlyConfigured, String(error));
              assert.equal(error.code, 'REST_ERR_ROUTE_NAME');
              assert.match(error.message, message);
              return true;
            },
          );
        }
      } finally {
        await dialect.drop(db);
      }
    });
  }
});

type ModelSerializerClass = typeof NoteSerializer;

/** A note serializer whose `link` field is `field`. */
function serializerWith(field: unknown): ModelSerializerClass {
  return class extends ModelSerializer.with({
    model: Note,
    fields: ['id', 'link'],
    declaredFields: { link: field as never },
  }) {} as unknown as ModelSerializerClass;
}
