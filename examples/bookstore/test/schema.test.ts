/**
 * The bookstore's OpenAPI document (/schema/): valid OpenAPI 3.1, and saying what the spec
 * says — the nested groups of Book, the ordering names of Profile, the upload's file.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { ALL_MODELS } from '../src/models/index.ts';

describe('the bookstore OpenAPI document', () => {
  let db: Database;
  let app: FastifyInstance;
  let document: any;

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(ALL_MODELS);
    app = await buildApp({ database: db });
    const response = await app.inject({ url: '/schema/', headers: { host: '127.0.0.1' } });
    assert.equal(response.statusCode, 200);
    document = response.json();
  });

  after(async () => {
    await app.close();
    await db.close();
  });

  it('validates against the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(validator.version, '3.1');
    assert.equal(document.info.title, 'Bookstore');
  });

  it("lists every route of the spec's routers and the management router, the API roots excepted", () => {
    assert.deepEqual(Object.keys(document.paths), [
      '/books/api/books/',
      '/books/api/books/{pk}/',
      '/books/api/proxy-books/',
      '/books/api/proxy-books/{pk}/',
      '/books/api/authors/',
      '/books/api/authors/{pk}/',
      '/books/api/books-nullable/',
      '/books/api/books-nullable/{pk}/',
      '/api/profile/',
      '/api/profile/{pk}/',
      '/api/upload/',
      '/api/upload/{pk}/',
      '/manage/api/token/',
      '/manage/api/login/',
      '/manage/api/logout/',
      '/manage/api/books/',
      '/manage/api/books/{pk}/',
    ]);
    assert.deepEqual(Object.keys(document.paths['/books/api/books/']), ['get', 'post']);
    assert.deepEqual(Object.keys(document.paths['/books/api/books/{pk}/']), [
      'get',
      'put',
      'patch',
      'delete',
      'parameters',
    ]);
  });

  it('asks a create for what it must send: the NOT NULL columns, in their groups', () => {
    const post = document.paths['/books/api/books/'].post.requestBody.content;
    const put = document.paths['/books/api/books/{pk}/'].put.requestBody.content;
    assert.equal(post['application/json'].schema.$ref, '#/components/schemas/BookCreateRequest');
    assert.equal(put['application/json'].schema.$ref, '#/components/schemas/BookRequest');
    assert.equal(
      post['multipart/form-data'].schema.$ref,
      '#/components/schemas/BookCreateFormRequest',
    );
    const create = document.components.schemas.BookCreateRequest;
    assert.deepEqual(create.required, ['title', 'publishing_information', 'stock_information']);
    assert.deepEqual(create.properties.publishing_information.required, [
      'publication_date',
      'isbn',
    ]);
    assert.deepEqual(create.properties.stock_information.required, ['price']);
    assert.deepEqual(document.components.schemas.BookCreateFormRequest.required, [
      'title',
      'publishing_information.publication_date',
      'publishing_information.isbn',
      'stock_information.price',
    ]);
    // A serializer whose create asks nothing more has no create bodies of its own.
    assert.equal(document.components.schemas.ProfileCreateRequest, undefined);
    assert.equal(
      document.paths['/api/profile/'].post.requestBody.content['application/json'].schema.$ref,
      '#/components/schemas/ProfileRequest',
    );
  });

  it('describes Book with its nested groups (spec 2.3)', () => {
    const request = document.components.schemas.BookRequest;
    assert.deepEqual(request.required, ['title']);
    assert.equal(request.properties.title.maxLength, 100);
    const stock = request.properties.stock_information;
    assert.equal(stock.type, 'object');
    assert.deepEqual(stock.required, ['price']);
    assert.deepEqual(stock.properties.price, {
      type: 'string',
      format: 'decimal',
      pattern: '^-?\\d{0,8}(?:\\.\\d{0,2})?$',
    });
    assert.deepEqual(stock.properties.state.enum, ['published', 'not_published', 'in_progress']);
    const publishing = request.properties.publishing_information;
    assert.equal(publishing.properties.publication_date.format, 'date');
    assert.equal(publishing.required, undefined);
    const author = document.components.schemas.AuthorRequest;
    assert.deepEqual(
      author.properties.contact_information.properties.personal_contact_information.required,
      ['email'],
    );
  });

  it('gives the ordering names of /api/profile/ as an enum (spec 4.2)', () => {
    const ordering = document.paths['/api/profile/'].get.parameters.find(
      (p: { name: string }) => p.name === 'ordering',
    );
    assert.deepEqual(ordering.schema.items.enum, [
      'id',
      '-id',
      'username',
      '-username',
      'email',
      '-email',
      'full_name',
      '-full_name',
    ]);
    assert.equal(ordering.in, 'query');
  });

  it('sends the resume of an upload as a file in a multipart body (spec 2.6)', () => {
    const body = document.paths['/api/upload/'].post.requestBody;
    assert.deepEqual(Object.keys(body.content), ['multipart/form-data']);
    const form = document.components.schemas.UploadFormRequest;
    assert.deepEqual(form.properties.resume, { type: 'string', format: 'binary' });
    assert.deepEqual(form.required, ['username', 'resume']);
    assert.deepEqual(document.components.schemas.Upload.properties.resume, {
      type: 'string',
      format: 'uri',
    });
  });
});
