/**
 * The browsable API: safe HTML templates, JSON with links, forms for every field kind (nested
 * fieldsets at any depth, errors beside their fields), and the renderer through HTTP (text/html
 * and ?format=api, the Content-Security-Policy, the forms a view allows, the static files).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  attrs,
  BasePermission,
  BooleanField,
  BrowsableAPIRenderer,
  CharField,
  ChoiceField,
  createFormInput,
  type Database,
  DateField,
  DateTimeField,
  DecimalField,
  EmailField,
  escapeHtml,
  FileField,
  html,
  IntegerField,
  JSONRenderer,
  PageNumberPagination,
  ReadOnlyField,
  type Request,
  SafeHtml,
  Serializer,
  URLField,
} from '@restframework/core';
import {
  hasFileField,
  htmlForm,
  jsonToHtml,
  staticUrl,
  valueLookup,
} from '@restframework/core/internal';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../fixtures/http-app.ts';
import { Book, BookSerializer, STORE_MODELS } from '../../fixtures/store-models.ts';
import { BookViewSet, GOLDEN_BOOK, seedBooks } from '../../fixtures/store-views.ts';

/** The start tag of the element with `id` (attributes in a map), or undefined. */
function tagById(
  markup: string,
  id: string,
): { name: string; attrs: Map<string, string> } | undefined {
  const match = new RegExp(`<(\\w+)((?:\\s[^>]*)?\\sid="${id}"(?:\\s[^>]*)?)>`).exec(markup);
  if (!match) return undefined;
  const found = new Map<string, string>();
  for (const attr of (match[2] as string).matchAll(/\s([a-z-]+)(?:="([^"]*)")?/g))
    found.set(attr[1] as string, attr[2] ?? '');
  return { name: match[1] as string, attrs: found };
}

/** The text of the element with `id` (tags removed). */
function textById(markup: string, id: string): string {
  const start = markup.search(new RegExp(`\\sid="${id}"`));
  assert.ok(start >= 0, `no element #${id}`);
  const open = markup.lastIndexOf('<', start);
  const name = /^<(\w+)/.exec(markup.slice(open))?.[1] as string;
  const end = markup.indexOf(`</${name}>`, start);
  return markup
    .slice(markup.indexOf('>', start) + 1, end)
    .replace(/<[^>]+>/g, '')
    .trim();
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('html templates', () => {
  it('escapes every interpolated value', () => {
    const out = html`<p title="${'"><script>'}">${'<script>alert(1)</script>'} ${'&'} ${"'"}</p>`;
    assert.equal(
      out.toString(),
      '<p title="&quot;&gt;&lt;script&gt;">&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;</p>',
    );
  });

  it('keeps markup made by html, joins lists, drops null, undefined and false', () => {
    const items = ['a', '<b>'].map((item) => html`<li>${item}</li>`);
    assert.equal(
      html`<ul>${items}${null}${undefined}${false}${0}</ul>`.toString(),
      '<ul><li>a</li><li>&lt;b&gt;</li>0</ul>',
    );
    assert.equal(html`${new SafeHtml('<em>ok</em>')}`.toString(), '<em>ok</em>');
  });

  it('writes attributes: escaped values, bare booleans, none for false', () => {
    assert.equal(
      attrs({
        name: 'title',
        value: 'a "b" <c>',
        disabled: true,
        hidden: false,
        step: undefined,
      }).toString(),
      ' name="title" value="a &quot;b&quot; &lt;c&gt;" disabled',
    );
    assert.throws(() => attrs({ 'onclick x': '1' }), /Not an attribute name/);
    assert.equal(escapeHtml(`&<>"'`), '&amp;&lt;&gt;&quot;&#39;');
  });
});

describe('JSON as HTML', () => {
  it('is the indented JSON once the tags are removed', () => {
    const data = { a: [1, 'two', null, true, { b: {} }], '<k>': '</pre><script>x</script>', e: [] };
    const out = jsonToHtml(data).toString();
    assert.equal(decodeEntities(out.replace(/<[^>]+>/g, '')), JSON.stringify(data, null, 2));
    assert.ok(!out.includes('<script>'));
  });

  it('links absolute http(s) URLs only', () => {
    const out = jsonToHtml({
      url: 'http://127.0.0.1:8000/books/api/books/1/',
      bad: 'javascript:alert(1)',
      quoted: 'http://x.org/"onmouseover="alert(1)',
    }).toString();
    assert.match(
      out,
      /<a href="http:\/\/127\.0\.0\.1:8000\/books\/api\/books\/1\/" rel="nofollow">/,
    );
    assert.equal(out.match(/<a /g)?.length, 1);
  });
});

class InnerSerializer extends Serializer.with({
  fields: { leaf: new CharField({ maxLength: 5 }), flag: new BooleanField({ required: false }) },
}) {}

class OuterSerializer extends Serializer.with({
  fields: {
    inner: new InnerSerializer({ required: false }),
    note: new IntegerField({ required: false, minValue: 0, maxValue: 10 }),
  },
}) {}

class EveryKindSerializer extends Serializer.with({
  fields: {
    id: new ReadOnlyField(),
    title: new CharField({ maxLength: 100, helpText: 'The <b>title</b>.' }),
    body: new CharField({ required: false, style: { baseTemplate: 'textarea', rows: 6 } }),
    secret: new CharField({ required: false, style: { inputType: 'password' } }),
    email: new EmailField({ required: false }),
    website: new URLField({ required: false }),
    pages: new IntegerField({ minValue: 0, maxValue: 500 }),
    price: new DecimalField({ maxDigits: 6, decimalPlaces: 2 }),
    day: new DateField({ required: false }),
    seen: new DateTimeField({ required: false }),
    active: new BooleanField({ required: false }),
    state: new ChoiceField({
      choices: [
        ['draft', 'Draft'],
        ['live', 'Live <now>'],
      ],
      allowNull: true,
    }),
    resume: new FileField({ required: false }),
    outer: new OuterSerializer({ required: false }),
    tags: InnerSerializer.many({ required: false }),
  },
}) {}

function form(values: unknown = {}, errors?: unknown) {
  const fields = EveryKindSerializer.prepare().fields;
  return htmlForm({
    id: 'f',
    action: '/things/?format=api',
    methods: ['PUT', 'PATCH'],
    fields,
    values: valueLookup(values),
    errors: errors as never,
    needsScript: true,
    multipart: hasFileField(fields),
  }).toString();
}

describe('HTML forms from serializers', () => {
  it('gives each field kind its control', () => {
    const out = form();
    const kinds: [string, string, string | undefined][] = [
      ['f-title', 'input', 'text'],
      ['f-body', 'textarea', undefined],
      ['f-secret', 'input', 'password'],
      ['f-email', 'input', 'email'],
      ['f-website', 'input', 'url'],
      ['f-pages', 'input', 'number'],
      ['f-price', 'input', 'text'],
      ['f-day', 'input', 'date'],
      ['f-seen', 'input', 'datetime-local'],
      ['f-active', 'input', 'checkbox'],
      ['f-state', 'select', undefined],
      ['f-resume', 'input', 'file'],
    ];
    for (const [id, name, type] of kinds) {
      const tag = tagById(out, id);
      assert.ok(tag, `no control #${id}`);
      assert.equal(tag.name, name, id);
      assert.equal(tag.attrs.get('type'), type, id);
      assert.equal(tag.attrs.get('name'), id.slice(2), id);
    }
    assert.equal(tagById(out, 'f-pages')?.attrs.get('min'), '0');
    assert.equal(tagById(out, 'f-pages')?.attrs.get('max'), '500');
    assert.equal(tagById(out, 'f-price')?.attrs.get('inputmode'), 'decimal');
    assert.equal(tagById(out, 'f-body')?.attrs.get('rows'), '6');
    assert.match(out, /<option value="live">Live &lt;now&gt;<\/option>/);
    assert.match(
      out,
      /<option value="" selected>———<\/option>/,
      'a nullable choice can be left empty',
    );
    assert.match(
      textById(out, 'f-title-help'),
      /The &lt;b&gt;title&lt;\/b&gt;\. At most 100 characters\./,
    );
    assert.match(textById(out, 'f-tags'), /Lists are not supported/);
  });

  it('uses multipart encoding when a field takes a file, url-encoding otherwise', () => {
    assert.match(form(), /<form [^>]*enctype="multipart\/form-data"/);
    const fields = InnerSerializer.prepare().fields;
    assert.equal(hasFileField(fields), false);
    const plain = htmlForm({
      id: 'g',
      action: '/',
      methods: ['POST'],
      fields,
      values: () => undefined,
      errors: undefined,
      needsScript: false,
      multipart: false,
    }).toString();
    assert.match(plain, /enctype="application\/x-www-form-urlencoded"/);
    assert.match(
      plain,
      /<button type="submit" class="btn btn-primary" data-method="POST">POST<\/button>/,
    );
  });

  it('shows read-only fields without a name, so they are never sent', () => {
    const tag = tagById(form({ id: 7 }), 'f-id');
    assert.equal(tag?.attrs.get('value'), '7');
    assert.ok(tag?.attrs.has('readonly'));
    assert.equal(tag?.attrs.has('name'), false);
  });

  it('nests serializers as fieldsets at any depth, with dotted names', () => {
    const out = form({ outer: { inner: { leaf: 'abc', flag: true }, note: 3 } });
    assert.equal(tagById(out, 'f-outer')?.name, 'fieldset');
    assert.equal(tagById(out, 'f-outer--inner')?.name, 'fieldset');
    const leaf = tagById(out, 'f-outer--inner--leaf');
    assert.equal(leaf?.attrs.get('name'), 'outer.inner.leaf');
    assert.equal(leaf?.attrs.get('value'), 'abc');
    assert.ok(tagById(out, 'f-outer--inner--flag')?.attrs.has('checked'));
    assert.equal(tagById(out, 'f-outer--note')?.attrs.get('value'), '3');
    assert.ok(out.indexOf('id="f-outer--inner"') > out.indexOf('id="f-outer"'));
    assert.match(out, /<legend>Inner<\/legend>/);
  });

  it('reads values from form input with dotted keys', () => {
    const out = form(
      createFormInput([
        ['outer.inner.leaf', 'sent'],
        ['title', '<i>'],
      ]),
    );
    assert.equal(tagById(out, 'f-outer--inner--leaf')?.attrs.get('value'), 'sent');
    assert.equal(tagById(out, 'f-title')?.attrs.get('value'), '&lt;i&gt;');
  });

  it('shows errors beside the fields they belong to, nested ones included', () => {
    const out = form(
      {},
      {
        title: ['Too <long>.'],
        outer: { non_field_errors: ['Group is wrong.'], inner: { leaf: ['Bad leaf.'] } },
        detail: 'JSON parse error',
      },
    );
    assert.equal(textById(out, 'f-title-errors'), 'Too &lt;long&gt;.');
    assert.equal(tagById(out, 'f-title')?.attrs.get('aria-invalid'), 'true');
    assert.equal(
      tagById(out, 'f-title')?.attrs.get('aria-describedby'),
      'f-title-help f-title-errors',
    );
    assert.equal(textById(out, 'f-outer--inner--leaf-errors'), 'Bad leaf.');
    assert.equal(textById(out, 'f-outer-errors'), 'Group is wrong.');
    assert.equal(tagById(out, 'f-outer')?.attrs.get('aria-describedby'), 'f-outer-errors');
    // The summary names the form-level error and links to each field's message.
    assert.match(out, /<li>JSON parse error<\/li>/);
    assert.match(out, /<a href="#f-outer--inner--leaf">Outer › Inner › Leaf<\/a>: Bad leaf\./);
    assert.equal(tagById(out, 'f-pages')?.attrs.has('aria-invalid'), false);
  });

  it('marks required fields for people and assistive technology, not for the browser', () => {
    const tag = tagById(form(), 'f-title');
    assert.equal(tag?.attrs.get('aria-required'), 'true');
    assert.equal(tag?.attrs.has('required'), false, 'the server judges, and says why');
    assert.match(form(), /<form [^>]*novalidate/);
  });
});

class NoCreate extends BasePermission {
  override hasPermission(request: Request): boolean {
    return request.method !== 'POST';
  }
}

class GuardedBookViewSet extends BookViewSet {
  override permissionClasses = [NoCreate];
}

for (const dialect of testDialects()) {
  describe(`the browsable API renderer on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    const HTML = { host: '127.0.0.1:8001', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 3);
      await Book.objects.using(db).create({
        title: '<script>alert(1)</script>',
        description: '<img src=x onerror=alert(2)>',
        publication_date: '2020-01-01',
        isbn: 'xss',
        price: '1.00',
      });
      app = await buildApp({
        database: db,
        settings: {
          DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer],
          DEFAULT_PAGINATION_CLASS: PageNumberPagination,
          PAGE_SIZE: 2,
        },
        viewsets: [
          ['books', BookViewSet, { basename: 'book' }],
          ['guarded', GuardedBookViewSet, { basename: 'guarded' }],
        ],
      });
    });

    after(async () => {
      await app.close();
      await dialect.drop(db);
    });

    it('answers browsers with HTML under a strict Content-Security-Policy', async () => {
      const response = await app.inject({ url: '/api/books/', headers: HTML });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
      const csp = String(response.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /style-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(response.headers.vary, 'Accept');
      assert.equal(response.headers['x-frame-options'], 'DENY');
      // Only the toolkit's own script and stylesheet; no inline script or style.
      assert.deepEqual(
        [...response.body.matchAll(/<script[^>]*>/g)].map((m) => m[0]),
        [`<script type="module" src="${staticUrl('browsable-api.js')}">`],
      );
      const tags = response.body.match(/<[a-z][^>]*>/gi) ?? [];
      assert.deepEqual(
        tags.filter((tag) => /^<style|\sstyle=|\son[a-z]+=/i.test(tag)),
        [],
        'no inline style or event handler',
      );
      assert.match(response.body, /<h1>Book List<\/h1>/);
      assert.match(response.body, /<b>Content-Type:<\/b> application\/json/);
      assert.match(
        response.body,
        /<a class="btn btn-secondary" rel="next" href="http:\/\/127\.0\.0\.1:8001\/api\/books\/\?page=2" aria-label="Next page">/,
      );
      // DRF's numbered page links: the current page marked, the next one a link.
      assert.match(
        response.body,
        /<a class="btn btn-primary" href="http:\/\/127\.0\.0\.1:8001\/api\/books\/" aria-current="page">1<\/a>/,
      );
      assert.match(
        response.body,
        /<a class="btn btn-secondary" href="http:\/\/127\.0\.0\.1:8001\/api\/books\/\?page=2">2<\/a>/,
      );
    });

    it('keeps JSON for API clients, and serves the page for ?format=api', async () => {
      const json = await app.inject({
        url: '/api/books/',
        headers: { host: '127.0.0.1', accept: '*/*' },
      });
      assert.equal(json.headers['content-type'], 'application/json');
      assert.equal(json.headers['content-security-policy'], undefined);
      const api = await app.inject({
        url: '/api/books/?format=api',
        headers: { host: '127.0.0.1', accept: 'application/json' },
      });
      assert.equal(api.headers['content-type'], 'text/html; charset=utf-8');
      const options = await app.inject({
        method: 'OPTIONS',
        url: '/api/books/',
        headers: { host: '127.0.0.1' },
      });
      assert.deepEqual(options.json().renders, ['application/json', 'text/html']);
    });

    it('escapes what the database holds: a <script> title is text', async () => {
      const book = await Book.objects.using(db).get({ isbn: 'xss' });
      const response = await app.inject({ url: `/api/books/${book.id}/`, headers: HTML });
      assert.equal(response.statusCode, 200);
      assert.doesNotMatch(response.body, /<script>alert|<img /);
      assert.match(response.body, /&quot;&lt;script&gt;alert\(1\)&lt;\/script&gt;&quot;/);
      assert.match(response.body, /value="&lt;script&gt;alert\(1\)&lt;\/script&gt;"/);
      assert.match(response.body, /&lt;img src=x onerror=alert\(2\)&gt;<\/textarea>/);
    });

    it('offers create on lists, and replace, update and delete on details', async () => {
      const list = (await app.inject({ url: '/api/books/', headers: HTML })).body;
      assert.match(list, /<form [^>]*id="post-form"[^>]*method="post"[^>]*data-method="POST"/);
      assert.match(list, /id="raw-post-form"/);
      assert.doesNotMatch(list, /data-method="PUT"|data-method="DELETE"/);
      const detail = (await app.inject({ url: '/api/books/1/', headers: HTML })).body;
      assert.match(detail, /id="edit-form"/);
      assert.match(detail, /data-method="PUT"[^>]*>PUT<\/button><button[^>]*data-method="PATCH"/);
      assert.match(
        detail,
        /<form action="\/api\/books\/1\/" method="post" data-api-form data-method="DELETE">/,
      );
      assert.match(detail, /name="stock_information\.price" [^>]*value="1\.50"/);
      const missing = (await app.inject({ url: '/api/books/999/', headers: HTML })).body;
      assert.match(missing, /HTTP 404 Not Found/);
      assert.doesNotMatch(missing, /id="edit-form"|data-method="DELETE"/);
    });

    it('leaves out the forms the permissions refuse', async () => {
      const body = (await app.inject({ url: '/api/guarded/', headers: HTML })).body;
      assert.match(body, /<h1>Guarded Book List<\/h1>/);
      assert.doesNotMatch(body, /id="post-form"/);
      const detail = (await app.inject({ url: '/api/guarded/1/', headers: HTML })).body;
      assert.match(detail, /id="edit-form"/);
    });

    it('shows a form post’s errors beside its fields, keeping what was sent', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/books/',
        headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          title: 'No price',
          'publishing_information.publication_date': '2024-01-02',
          'publishing_information.isbn': 'form-1',
          'publishing_information.pages': '',
          'stock_information.price': '',
        }).toString(),
      });
      assert.equal(response.statusCode, 400);
      assert.equal(
        textById(response.body, 'post-stock_information--price-errors'),
        'A valid number is required.',
      );
      assert.equal(tagById(response.body, 'post-title')?.attrs.get('value'), 'No price');
      assert.equal(
        tagById(response.body, 'post-publishing_information--pages')?.attrs.has('aria-invalid'),
        false,
      );
      assert.match(response.body, /HTTP 400 Bad Request/);
    });

    it('creates from a form post and shows the 201', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/books/',
        headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          title: GOLDEN_BOOK.title,
          description: '',
          'publishing_information.publication_date': '2024-01-02',
          'publishing_information.isbn': 'form-2',
          'stock_information.price': '9.99',
          'stock_information.stock_count': '',
        }).toString(),
      });
      assert.equal(response.statusCode, 201, response.body);
      assert.match(response.body, /HTTP 201 Created/);
      assert.match(
        response.body,
        /<b>Location:<\/b> http:\/\/127\.0\.0\.1:8001\/api\/books\/\d+\/\n/,
      );
    });

    it('serves its stylesheet and script from the toolkit, cached for good', async () => {
      for (const [name, type] of [
        ['browsable-api.css', 'text/css; charset=utf-8'],
        ['browsable-api.js', 'text/javascript; charset=utf-8'],
      ] as const) {
        const response = await app.inject({ url: staticUrl(name), headers: { host: '127.0.0.1' } });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['content-type'], type);
        assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
        assert.equal(response.headers['x-content-type-options'], 'nosniff');
      }
      assert.match(
        staticUrl('browsable-api.css'),
        /^\/__restframework\/static\/browsable-api\.[0-9a-f]{12}\.css$/,
      );
      const missing = await app.inject({
        url: '/__restframework/static/nope.js',
        headers: { host: '127.0.0.1' },
      });
      assert.equal(missing.statusCode, 404);
    });
  });
}

describe('form input of optional fields', () => {
  it('treats an empty value of an optional field as not sent (DRF)', async () => {
    const serializer = new OuterSerializer({ data: createFormInput([['note', '']]) });
    assert.equal(await serializer.isValid(), true, JSON.stringify(serializer.errors));
    assert.deepEqual(serializer.validatedData, {});
    const blank = new BookSerializer({ data: createFormInput([['title', '']]), context: {} });
    await blank.isValid();
    assert.deepEqual((blank.errors as Record<string, unknown>).title, [
      'This field may not be blank.',
    ]);
  });
});
