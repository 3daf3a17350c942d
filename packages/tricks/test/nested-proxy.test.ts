import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  type Database,
  defineModel,
  models,
  type PartialInput,
  type Representation,
} from '@restframework/core';
import {
  assertImproperlyConfigured,
  multipartBody,
  testDialects,
} from '@restframework/core/testing';
import { ModelSerializer, NestedProxyField } from '@restframework/tricks';
import type { FastifyInstance } from 'fastify';
import {
  type AuthorSerializer,
  AutoBookSerializer,
  BookSerializer,
  PublishingInformationSerializer,
  proxyApp,
} from './fixtures/proxy-app.ts';
import { ALL_MODELS, Author, Book, Note } from './fixtures/proxy-models.ts';

const BOOK = {
  title: 'Golden Book',
  description: 'A golden transcript book.',
  summary: 'Short summary.',
  publishing_information: { publication_date: '2021-03-04', isbn: 'GOLD-0001', pages: 321 },
  stock_information: { stock_count: 12, price: '19.99', state: 'not_published' },
};

const AUTHOR = {
  salutation: 'Dr.',
  name: 'Golden Author',
  birth_date: '1970-07-07',
  contact_information: {
    personal_contact_information: {
      email: 'golden@author.test',
      phone_number: '+1-555-0000',
      website: 'https://golden.example.com/',
    },
    business_contact_information: {
      company: 'Golden Co',
      company_email: 'office@golden.test',
      company_phone_number: '+1-555-1111',
      company_website: 'https://golden-co.example.com/',
    },
  },
};

describe('NestedProxyField declarations', () => {
  it('reads a group from a row, groups of groups nested', () => {
    const row = {
      id: 1,
      email: 'a@b.c',
      phone_number: null,
      website: 'https://x.org/',
      company: 'C',
      company_email: null,
      company_phone_number: null,
      company_website: null,
    };
    assert.deepEqual(Author.properties.contact_information.get(row), {
      personal_contact_information: {
        email: 'a@b.c',
        phone_number: null,
        website: 'https://x.org/',
      },
      business_contact_information: {
        company: 'C',
        company_email: null,
        company_phone_number: null,
        company_website: null,
      },
    });
    assert.deepEqual(Author.properties.contact_information.leaves(), [
      'email',
      'phone_number',
      'website',
      'company',
      'company_email',
      'company_phone_number',
      'company_website',
    ]);
  });

  it('accepts the dictionary form for groups declared in place', () => {
    assert.deepEqual(Note.properties.location.get({ lat: '1.000000', lng: null }), {
      where: { lat: '1.000000', lng: null },
    });
  });

  it('rejects a group listing an unknown field, naming model, group and fields', () => {
    assertImproperlyConfigured(
      () =>
        defineModel({
          name: 'Bad',
          fields: { a: models.TextField() },
          // @ts-expect-error: the compiler refuses the unknown member too.
          properties: { g: NestedProxyField('a', 'nope') },
        }),
      'REST_ERR_NESTED_PROXY',
      /Bad\.g: NestedProxyField lists "nope", which is not a field or group of Bad\. Fields: id, a\./,
    );
  });

  it('rejects a cycle of groups', () => {
    assertImproperlyConfigured(
      () =>
        defineModel({
          name: 'Bad',
          fields: { a: models.TextField() },
          properties: { g1: NestedProxyField('a', 'g2'), g2: NestedProxyField('g1') },
        }),
      'REST_ERR_NESTED_PROXY',
      /Bad: the groups form a cycle \(g1 → g2 → g1\)/,
    );
  });

  it('rejects a field in two sibling groups', () => {
    assertImproperlyConfigured(
      () =>
        defineModel({
          name: 'Bad',
          fields: { a: models.TextField(), b: models.TextField() },
          properties: { g1: NestedProxyField('a', 'b'), g2: NestedProxyField('b') },
        }),
      'REST_ERR_NESTED_PROXY',
      /Bad: the field "b" is in two groups \(g1 and g2\)/,
    );
    assertImproperlyConfigured(
      () =>
        defineModel({
          name: 'Bad',
          fields: { a: models.TextField(), b: models.TextField() },
          properties: { g: NestedProxyField({ x: ['a'], y: ['a', 'b'] }) },
        }),
      'REST_ERR_NESTED_PROXY',
      /Bad: the field "a" is in two groups \(g\.x and g\.y\)/,
    );
  });

  it('rejects the primary key and duplicates inside a group', () => {
    assertImproperlyConfigured(
      () =>
        defineModel({
          name: 'Bad',
          fields: { a: models.TextField() },
          // @ts-expect-error: the implicit primary key is no member the compiler knows either.
          properties: { g: NestedProxyField('id') },
        }),
      'REST_ERR_NESTED_PROXY',
      /Bad\.g: "id" is the primary key/,
    );
    assertImproperlyConfigured(
      () =>
        defineModel({
          name: 'Bad',
          fields: { a: models.TextField() },
          properties: { g: NestedProxyField('a', 'a') },
        }),
      'REST_ERR_NESTED_PROXY',
      /Bad\.g: NestedProxyField lists "a" twice/,
    );
  });
});

describe('nested proxy serializers: start-up checks', () => {
  it('refuses a misspelt declaration option, listing nestedProxyField among the known ones', () => {
    const Misspelt = ModelSerializer.with({
      model: Book,
      fields: ['price'],
      // @ts-expect-error: the compiler refuses it too.
      nestedProxyFeild: true,
    });
    assertImproperlyConfigured(
      () => Misspelt.prepare(),
      'REST_ERR_SERIALIZER_OPTION',
      /the declaration option 'nestedProxyFeild' is not one .* knows\. Known options: model, fields, exclude, readOnlyFields, extraKwargs, declaredFields, depth, nestedProxyField\./,
    );
  });

  it('rejects a nested serializer named after no group (rule 3)', () => {
    class Wrong extends ModelSerializer.with({
      model: Book,
      fields: ['id', 'publishing'],
      declaredFields: { publishing: new PublishingInformationSerializer() },
    }) {}
    assertImproperlyConfigured(
      () => Wrong.prepare(),
      'REST_ERR_NESTED_PROXY',
      /Wrong\.publishing: PublishingInformationSerializer is marked nestedProxyField, but Book has no NestedProxyField named "publishing"\. Name the field after the model's group \(publishing_information, stock_information\)/,
    );
  });

  it('rejects a nested serializer of another model, or listing fields outside its group (rule 2)', () => {
    class AuthorGroup extends ModelSerializer.with({
      model: Author,
      fields: ['email'],
      nestedProxyField: true,
    }) {}
    class WrongModel extends ModelSerializer.with({
      model: Book,
      fields: ['id', 'publishing_information'],
      declaredFields: { publishing_information: new AuthorGroup() },
    }) {}
    assertImproperlyConfigured(
      () => WrongModel.prepare(),
      'REST_ERR_NESTED_PROXY',
      /WrongModel\.publishing_information: AuthorGroup serializes Author, but a nested proxy serializer must use the main model Book/,
    );
    class TooMany extends ModelSerializer.with({
      model: Book,
      fields: ['isbn', 'price'],
      nestedProxyField: true,
    }) {}
    class WrongFields extends ModelSerializer.with({
      model: Book,
      fields: ['id', 'publishing_information'],
      declaredFields: { publishing_information: new TooMany() },
    }) {}
    assertImproperlyConfigured(
      () => WrongFields.prepare(),
      'REST_ERR_NESTED_PROXY',
      /lists "price", which the group "publishing_information" of Book does not hold\. The group holds: publication_date, isbn, pages\./,
    );
  });

  it('rejects allowNull on a group whose columns cannot be NULL', () => {
    class NullGroup extends ModelSerializer.with({
      model: Book,
      fields: ['id', 'publishing_information'],
      declaredFields: {
        publishing_information: new PublishingInformationSerializer({
          required: false,
          allowNull: true,
        }),
      },
    }) {}
    assertImproperlyConfigured(
      () => NullGroup.prepare(),
      'REST_ERR_NESTED_PROXY',
      /allowNull on a nested proxy serializer sets every column of the group to NULL, but publication_date, isbn, pages of Book cannot be NULL/,
    );
  });

  it('builds a serializer for a group named in fields without one', () => {
    const fields = AutoBookSerializer.prepare().byName;
    const stock = fields.get('stock_information');
    assert.ok(stock);
    assert.equal(stock.constructor.name, 'StockInformationSerializer');
    assert.deepEqual(stock.describe(), {
      type: 'nested object',
      required: false,
      read_only: false,
      label: 'Stock information',
      children: {
        stock_count: {
          type: 'integer',
          required: false,
          read_only: false,
          label: 'Stock count',
          min_value: 0,
          max_value: 2147483647,
        },
        price: {
          type: 'decimal',
          required: true,
          read_only: false,
          label: 'Price',
          max_digits: 10,
          decimal_places: 2,
        },
        state: {
          type: 'choice',
          required: false,
          read_only: false,
          label: 'State',
          choices: [
            { value: 'published', display_name: 'Published' },
            { value: 'not_published', display_name: 'Not published' },
            { value: 'in_progress', display_name: 'In progress' },
          ],
        },
      },
    });
  });
});

for (const dialect of testDialects()) {
  describe(`nested proxy fields over HTTP on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(ALL_MODELS);
      app = await proxyApp(db);
    });
    after(async () => {
      await app.close();
      await dialect.drop(db);
    });
    beforeEach(async () => {
      for (const model of ALL_MODELS) await model.objects.using(db).delete();
    });

    const send = async (
      method: string,
      url: string,
      payload?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const response = await app.inject({
        method: method as 'GET',
        url,
        ...(payload === undefined ? {} : { payload: payload as string }),
        headers: { host: '127.0.0.1:8000', ...headers },
      });
      return {
        status: response.statusCode,
        body: response.body ? response.json() : null,
        headers: response.headers,
      };
    };
    const create = async (data: unknown = BOOK) => {
      const response = await send('POST', '/api/books/', data);
      assert.equal(response.status, 201, JSON.stringify(response.body));
      return response.body as { id: number; url: string };
    };
    const count = () => Book.objects.using(db).count();

    it('creates with JSON: one INSERT, groups flattened onto the row', async () => {
      const inserts: string[] = [];
      const stop = db.onQuery((q) => {
        if (/^insert/i.test(q.sql)) inserts.push(q.sql);
      });
      const book = await create();
      stop();
      assert.equal(inserts.length, 1);
      const row = await Book.objects.using(db).get({ pk: book.id });
      assert.equal(row.isbn, 'GOLD-0001');
      assert.equal(row.price, '19.99');
      assert.equal(row.stock_count, 12);
      const read = await send('GET', `/api/books/${book.id}/`);
      assert.deepEqual(read.body, {
        url: `http://127.0.0.1:8000/api/books/${book.id}/`,
        id: book.id,
        ...BOOK,
      });
    });

    it('creates with form and multipart bodies addressing leaves with dotted keys', async () => {
      const form = new URLSearchParams({
        title: 'Form Book',
        'publishing_information.publication_date': '2020-01-02',
        'publishing_information.isbn': 'GOLD-FORM-1',
        'stock_information.price': '7.50',
        'stock_information.state': 'in_progress',
      }).toString();
      const viaForm = await send('POST', '/api/books/', form, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal(viaForm.status, 201, JSON.stringify(viaForm.body));
      assert.deepEqual(viaForm.body.publishing_information, {
        publication_date: '2020-01-02',
        isbn: 'GOLD-FORM-1',
        pages: 200,
      });
      assert.deepEqual(viaForm.body.stock_information, {
        stock_count: 30,
        price: '7.50',
        state: 'in_progress',
      });
      assert.equal(viaForm.body.summary, null);

      const body = multipartBody({
        title: 'Multipart Book',
        summary: 'multipart',
        'publishing_information.publication_date': '2019-05-06',
        'publishing_information.isbn': 'GOLD-MP-1',
        'publishing_information.pages': '222',
        'stock_information.price': '5.25',
      });
      const viaMultipart = await send('POST', '/api/books/', body.payload, body.headers);
      assert.equal(viaMultipart.status, 201, JSON.stringify(viaMultipart.body));
      assert.deepEqual(viaMultipart.body.publishing_information, {
        publication_date: '2019-05-06',
        isbn: 'GOLD-MP-1',
        pages: 222,
      });

      const deep = new URLSearchParams({
        salutation: 'Mr.',
        name: 'Form Author',
        'contact_information.personal_contact_information.email': 'form@author.test',
        'contact_information.business_contact_information.company': 'Form Co',
      }).toString();
      const author = await send('POST', '/api/authors/', deep, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal(author.status, 201, JSON.stringify(author.body));
      assert.equal(
        author.body.contact_information.personal_contact_information.email,
        'form@author.test',
      );
      assert.equal(author.body.contact_information.business_contact_information.company, 'Form Co');
    });

    it('answers a column no group supplies with 400 at its leaf, never a database error', async () => {
      const missing = await send('POST', '/api/books/', {
        title: 'X',
        stock_information: { price: '1' },
      });
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, {
        publishing_information: {
          publication_date: ['This field is required.'],
          isbn: ['This field is required.'],
        },
      });
      const noStock = await send('POST', '/api/books/', {
        title: 'X',
        publishing_information: BOOK.publishing_information,
      });
      assert.deepEqual(noStock.body, { stock_information: { price: ['This field is required.'] } });
      const empty = await send('POST', '/api/books/', {
        title: 'X',
        publishing_information: BOOK.publishing_information,
        stock_information: {},
      });
      assert.deepEqual(empty.body, { stock_information: { price: ['This field is required.'] } });
      assert.equal(await count(), 0);
    });

    it('applies every null rule', async () => {
      const group = await send('POST', '/api/books/', { ...BOOK, publishing_information: null });
      assert.deepEqual(group.body, { publishing_information: ['This field may not be null.'] });
      const stock = await send('POST', '/api/books/', { ...BOOK, stock_information: null });
      assert.deepEqual(stock.body, { stock_information: ['This field may not be null.'] });
      const leaf = await send('POST', '/api/books/', {
        ...BOOK,
        publishing_information: { ...BOOK.publishing_information, pages: null },
      });
      assert.deepEqual(leaf.body, {
        publishing_information: { pages: ['This field may not be null.'] },
      });
      const text = await send('POST', '/api/books/', { ...BOOK, publishing_information: 'x' });
      assert.deepEqual(text.body, {
        publishing_information: {
          non_field_errors: ['Invalid data. Expected a dictionary, but got str.'],
        },
      });
      const list = await send('POST', '/api/books/', { ...BOOK, stock_information: [1] });
      assert.deepEqual(list.body, {
        stock_information: {
          non_field_errors: ['Invalid data. Expected a dictionary, but got list.'],
        },
      });
      const contact = await send('POST', '/api/authors/', {
        salutation: 'Mr.',
        name: 'X',
        contact_information: null,
      });
      assert.deepEqual(contact.body, { contact_information: ['This field may not be null.'] });
      assert.equal(await count(), 0);

      // allowNull on a group whose columns accept NULL: every column becomes NULL.
      const note = await send('POST', '/api/notes/', {
        text: 'n',
        location: { where: { lat: '1.5', lng: '2' } },
      });
      assert.equal(note.status, 201, JSON.stringify(note.body));
      assert.deepEqual(note.body.location, { where: { lat: '1.500000', lng: '2.000000' } });
      const cleared = await send('PATCH', `/api/notes/${note.body.id}/`, { location: null });
      assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
      assert.deepEqual(cleared.body.location, { where: { lat: null, lng: null } });
      const row = await Note.objects.using(db).get({ pk: note.body.id });
      assert.equal(row.lat, null);
      assert.equal(row.lng, null);
    });

    it('PUT keeps groups and leaves it does not send; a sent group needs its required leaves', async () => {
      const book = await create();
      const put = await send('PUT', `/api/books/${book.id}/`, {
        title: 'Golden Book (PUT)',
        publishing_information: { pages: 999 },
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.deepEqual(put.body, {
        ...BOOK,
        url: book.url,
        id: book.id,
        title: 'Golden Book (PUT)',
        publishing_information: { ...BOOK.publishing_information, pages: 999 },
      });
      const noPrice = await send('PUT', `/api/books/${book.id}/`, {
        title: 'T',
        stock_information: { stock_count: 1 },
      });
      assert.deepEqual(noPrice.body, { stock_information: { price: ['This field is required.'] } });
      const noTitle = await send('PUT', `/api/books/${book.id}/`, {
        publishing_information: { pages: 1 },
      });
      assert.deepEqual(noTitle.body, { title: ['This field is required.'] });
    });

    it('PATCH merges at every depth and writes only the columns sent', async () => {
      const book = await create();
      const updates: string[] = [];
      const stop = db.onQuery((q) => {
        if (/^update/i.test(q.sql)) updates.push(q.sql.slice(0, q.sql.search(/ where /i)));
      });
      const patched = await send('PATCH', `/api/books/${book.id}/`, {
        stock_information: { price: '5.55' },
      });
      stop();
      assert.equal(patched.status, 200);
      assert.deepEqual(patched.body.stock_information, {
        ...BOOK.stock_information,
        price: '5.55',
      });
      assert.deepEqual(patched.body.publishing_information, BOOK.publishing_information);
      assert.equal(updates.length, 1);
      // MySQL quotes identifiers with backquotes.
      assert.match((updates[0] as string).replaceAll('`', '"'), /set "price" = \S+$/);
      const empty = await send('PATCH', `/api/books/${book.id}/`, {});
      assert.equal(empty.status, 200);
      assert.deepEqual(empty.body.stock_information, { ...BOOK.stock_information, price: '5.55' });
      const bad = await send('PATCH', `/api/books/${book.id}/`, {
        stock_information: { price: 'abc' },
      });
      assert.deepEqual(bad.body, { stock_information: { price: ['A valid number is required.'] } });

      const author = await send('POST', '/api/authors/', AUTHOR);
      assert.equal(author.status, 201, JSON.stringify(author.body));
      const inner = await send('PATCH', `/api/authors/${author.body.id}/`, {
        contact_information: { business_contact_information: { company: 'Renamed Co' } },
      });
      assert.deepEqual(inner.body.contact_information, {
        personal_contact_information: AUTHOR.contact_information.personal_contact_information,
        business_contact_information: {
          ...AUTHOR.contact_information.business_contact_information,
          company: 'Renamed Co',
        },
      });
      const put = await send('PUT', `/api/authors/${author.body.id}/`, {
        salutation: 'Ms.',
        name: 'Golden Author 2',
        contact_information: { personal_contact_information: { email: 'new@author.test' } },
      });
      assert.equal(put.status, 200);
      assert.deepEqual(put.body.contact_information.personal_contact_information, {
        ...AUTHOR.contact_information.personal_contact_information,
        email: 'new@author.test',
      });
      const missingEmail = await send('PUT', `/api/authors/${author.body.id}/`, {
        salutation: 'Ms.',
        name: 'G',
        contact_information: { personal_contact_information: { phone_number: '1' } },
      });
      assert.deepEqual(missingEmail.body, {
        contact_information: {
          personal_contact_information: { email: ['This field is required.'] },
        },
      });
    });

    it('nests errors like the data, to any depth', async () => {
      const response = await send('POST', '/api/authors/', {
        salutation: 'Professor of',
        name: '',
        contact_information: {
          personal_contact_information: { email: 'not-an-email', website: 'nope' },
          business_contact_information: { company_email: 'also bad' },
        },
      });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, {
        salutation: ['Ensure this field has no more than 10 characters.'],
        name: ['This field may not be blank.'],
        contact_information: {
          personal_contact_information: {
            email: ['Enter a valid email address.'],
            website: ['Enter a valid URL.'],
          },
          business_contact_information: { company_email: ['Enter a valid email address.'] },
        },
      });
      const noContact = await send('POST', '/api/authors/', {
        salutation: 'Mr.',
        name: 'No Contact',
      });
      assert.equal(noContact.status, 201);
      assert.deepEqual(noContact.body.contact_information, {
        personal_contact_information: { email: '', phone_number: null, website: null },
        business_contact_information: {
          company: null,
          company_email: null,
          company_phone_number: null,
          company_website: null,
        },
      });
    });

    it('reports a unique column inside a group at its leaf, also when two requests race', async () => {
      await create();
      const duplicate = await send('POST', '/api/books/', { ...BOOK, title: 'Other' });
      assert.equal(duplicate.status, 400);
      assert.deepEqual(duplicate.body, {
        publishing_information: { isbn: ['book with this isbn already exists.'] },
      });

      const racing = {
        ...BOOK,
        publishing_information: { ...BOOK.publishing_information, isbn: 'RACE-1' },
      };
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => send('POST', '/api/books/', racing)),
      );
      assert.deepEqual(
        answers.map((a) => a.status).sort(),
        [201, 400, 400, 400, 400, 400, 400, 400],
      );
      for (const answer of answers.filter((a) => a.status === 400)) {
        assert.deepEqual(answer.body, {
          publishing_information: { isbn: ['book with this isbn already exists.'] },
        });
      }
      assert.equal(await Book.objects.using(db).filter({ isbn: 'RACE-1' }).count(), 1);
    });

    it('turns a unique violation found only by the database into the leaf error', async () => {
      const book = await create();
      // Validation runs before another writer takes the isbn: only the database sees the clash.
      const serializer = new BookSerializer({
        data: {
          ...BOOK,
          publishing_information: { ...BOOK.publishing_information, isbn: 'LATE-1' },
        },
        context: { request: { reverse: () => '', buildAbsoluteUri: (p: string) => p } },
      });
      await db.run(async () => {
        assert.equal(await serializer.isValid(), true);
        await Book.objects.updateRow(await Book.objects.get({ pk: book.id }), { isbn: 'LATE-1' });
        await assert.rejects(
          db.transaction(() => serializer.save()),
          (error: { detail?: unknown }) => {
            assert.deepEqual(error.detail, {
              publishing_information: { isbn: ['book with this isbn already exists.'] },
            });
            return true;
          },
        );
      });
    });

    it('loses nothing when concurrent PATCHes change different groups of one record', async () => {
      const book = await create();
      const patches = Array.from({ length: 25 }, (_, i) => [
        send('PATCH', `/api/books/${book.id}/`, { stock_information: { stock_count: i } }),
        send('PATCH', `/api/books/${book.id}/`, { publishing_information: { pages: 1000 + i } }),
      ]).flat();
      const answers = await Promise.all(patches);
      assert.ok(answers.every((a) => a.status === 200));
      await send('PATCH', `/api/books/${book.id}/`, {
        stock_information: { stock_count: 77 },
        publishing_information: { pages: 777 },
      });
      const concurrent = await Promise.all([
        send('PATCH', `/api/books/${book.id}/`, { stock_information: { price: '1.23' } }),
        send('PATCH', `/api/books/${book.id}/`, { publishing_information: { isbn: 'NEW-ISBN' } }),
        send('PATCH', `/api/books/${book.id}/`, { title: 'New title' }),
      ]);
      assert.ok(concurrent.every((a) => a.status === 200));
      const row = await Book.objects.using(db).get({ pk: book.id });
      assert.equal(row.price, '1.23');
      assert.equal(row.isbn, 'NEW-ISBN');
      assert.equal(row.title, 'New title');
      assert.equal(row.stock_count, 77);
      assert.equal(row.pages, 777);
    });

    it('describes groups as nested objects with children in OPTIONS, recursively', async () => {
      const books = await send('OPTIONS', '/api/books/');
      const post = books.body.actions.POST;
      assert.deepEqual(Object.keys(post), [
        'url',
        'id',
        'title',
        'description',
        'summary',
        'publishing_information',
        'stock_information',
      ]);
      assert.equal(post.publishing_information.type, 'nested object');
      assert.deepEqual(Object.keys(post.publishing_information.children), [
        'publication_date',
        'isbn',
        'pages',
      ]);
      assert.equal(post.stock_information.children.price.required, true);
      const authors = await send('OPTIONS', '/api/authors/');
      const contact = authors.body.actions.POST.contact_information;
      assert.equal(contact.type, 'nested object');
      assert.equal(contact.children.personal_contact_information.type, 'nested object');
      assert.deepEqual(contact.children.personal_contact_information.children.email, {
        type: 'email',
        required: true,
        read_only: false,
        label: 'Email',
        max_length: 254,
      });
      assert.deepEqual(Object.keys(contact.children.business_contact_information.children), [
        'company',
        'company_email',
        'company_phone_number',
        'company_website',
      ]);
    });

    it('auto-built groups read and write like declared ones', async () => {
      const created = await send('POST', '/api/auto-books/', {
        title: 'Auto',
        publishing_information: { publication_date: '2001-01-01', isbn: 'AUTO-1' },
        stock_information: { price: '3' },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body, {
        id: created.body.id,
        title: 'Auto',
        publishing_information: { publication_date: '2001-01-01', isbn: 'AUTO-1', pages: 200 },
        stock_information: { stock_count: 30, price: '3.00', state: 'published' },
      });
    });
  });
}

// Type-level: the nested representation and input are inferred from the declarations.
type BookOut = Representation<BookSerializer>;
type BookIn = PartialInput<BookSerializer>;
type AuthorOut = Representation<AuthorSerializer>;
const typed: BookOut = {
  url: 'u',
  id: 1,
  title: 't',
  description: null,
  summary: null,
  publishing_information: { publication_date: '2021-01-01', isbn: 'i', pages: 1 },
  stock_information: { stock_count: 1, price: '1.00', state: 'published' },
};
const patch: BookIn = { stock_information: { price: '2' } };
// @ts-expect-error pages is a number
const wrong: BookIn = { publishing_information: { pages: 'many' } };
const email: AuthorOut['contact_information']['personal_contact_information']['email'] = 'a@b.c';
void [typed, patch, wrong, email];
