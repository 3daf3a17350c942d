/**
 * Overrides change behaviour only by what they do. Serializers and OPTIONS choose no path by
 * which methods a class defines: an override that only calls `super` takes the same steps as
 * no override (counted here through the plan a class prepares once, or the OPTIONS bodies
 * built), and an override that changes the result is honoured. Also: the caches of
 * serializers/ and metadata/ never answer for another class, another child, or other actions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PreparedSerializer } from '@restframework/core';
import {
  type APIView,
  BooleanField,
  CharField,
  type Database,
  defineModel,
  Field,
  IntegerField,
  ModelSerializer,
  ModelViewSet,
  models,
  type Request,
  type RunContext,
  Serializer,
  type SerializerOptions,
  SimpleMetadata,
  ValidationError,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';
import { Book, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, seedBooks } from '../fixtures/store-views.ts';

const sqlite = testDialects().find((d) => d.name === 'sqlite');
if (!sqlite) throw new Error('no sqlite test dialect');

/** Counts the runs of a class's compiled representation (the plan its `toRepresentation` runs). */
function countRepresentations(cls: { prepare(): PreparedSerializer }): { runs: number } {
  const counter = { runs: 0 };
  const plan = cls.prepare() as {
    -readonly [K in keyof PreparedSerializer]: PreparedSerializer[K];
  };
  const compiled = plan.represent;
  plan.represent = (instance, ctx, serializer) => {
    counter.runs++;
    return compiled(instance, ctx, serializer);
  };
  return counter;
}

// Nested serializers of the book's own row (source '*'): the stock one, one whose override
// only calls super, and one whose override changes the output.
class PlainPublishing extends Serializer.with({
  fields: { isbn: new CharField(), pages: new IntegerField() },
}) {}
class SuperPublishing extends Serializer.with({
  fields: { isbn: new CharField(), pages: new IntegerField() },
}) {
  override toRepresentation(instance: unknown, ctx: RunContext) {
    return super.toRepresentation(instance, ctx);
  }
}
class ShoutingPublishing extends Serializer.with({
  fields: { isbn: new CharField(), pages: new IntegerField() },
}) {
  override toRepresentation(instance: unknown, ctx: RunContext) {
    const out = super.toRepresentation(instance, ctx) as Record<string, unknown>;
    return { ...out, isbn: String(out.isbn).toUpperCase() };
  }
}

function bookWith(nested: new (options?: SerializerOptions) => Serializer) {
  return ModelSerializer.with({
    model: Book,
    fields: ['id', 'title', 'publishing'],
    declaredFields: { publishing: new nested({ source: '*', readOnly: true }) },
  });
}

function viewSetOf(
  serializer: ModelViewSet['serializerClass'],
  model: { objects: { all(): any } } = Book,
) {
  return class extends ModelViewSet {
    override queryset = model.objects.all();
    override serializerClass = serializer;
  };
}

/** A text field whose `runValidation` only calls super. */
class SuperCharField extends CharField {
  override runValidation(data: unknown, ctx: RunContext) {
    return super.runValidation(data, ctx);
  }
}

/** Runs `fn` counting the calls of Field's own `getDefault` (the step that skips a field). */
async function countingDefaults(fn: () => Promise<void>): Promise<number> {
  const original = Field.prototype.getDefault;
  let asked = 0;
  Field.prototype.getDefault = function (this: Field, ctx: RunContext) {
    asked++;
    return original.call(this, ctx);
  };
  try {
    await fn();
  } finally {
    Field.prototype.getDefault = original;
  }
  return asked;
}
/** An absent value becomes 'anonymous': an override that changes the result. */
class AnonymousCharField extends CharField {
  override getDefault(_ctx: RunContext): unknown {
    return 'anonymous';
  }
}

function writerWith(summary: Field<any, any, any>) {
  return ModelSerializer.with({
    model: Book,
    fields: ['id', 'title', 'summary', 'publication_date', 'isbn', 'price'],
    declaredFields: { summary },
  });
}

const NEW_BOOK = { title: 'T', publication_date: '2024-01-02', isbn: 'x', price: '1.00' };

describe('overrides on sqlite', () => {
  let db: Database;
  let app: FastifyInstance;
  const Plain = bookWith(PlainPublishing);
  const Super = bookWith(SuperPublishing);
  const Shouting = bookWith(ShoutingPublishing);
  const plainRuns = countRepresentations(PlainPublishing);
  const superRuns = countRepresentations(SuperPublishing);
  const StockWriter = writerWith(new CharField({ required: false }));
  const SuperWriter = writerWith(new SuperCharField({ required: false }));
  const AnonymousWriter = writerWith(new AnonymousCharField({ required: false }));

  before(async () => {
    db = await sqlite.create();
    await db.migrate(STORE_MODELS);
    await seedBooks(db, 3);
    app = await buildApp({
      database: db,
      viewsets: [
        ['plain', viewSetOf(Plain), { basename: 'plain' }],
        ['super', viewSetOf(Super), { basename: 'super' }],
        ['shouting', viewSetOf(Shouting), { basename: 'shouting' }],
        ['stock-writer', viewSetOf(StockWriter), { basename: 'stock-writer' }],
        ['super-writer', viewSetOf(SuperWriter), { basename: 'super-writer' }],
        ['anonymous-writer', viewSetOf(AnonymousWriter), { basename: 'anonymous-writer' }],
      ],
    });
  });
  after(async () => {
    await app?.close();
    await sqlite.drop(db);
  });

  it('renders a nested serializer whose toRepresentation only calls super as the stock one, through its compiled plan', async () => {
    const plain = await request(app, { method: 'GET', url: '/api/plain/' });
    const same = await request(app, { method: 'GET', url: '/api/super/' });
    assert.equal(plain.statusCode, 200);
    assert.equal(same.body, plain.body);
    assert.deepEqual(plain.json()[0], {
      id: 1,
      title: 'Book 1',
      publishing: { isbn: 'isbn-001', pages: 101 },
    });
    // One run of the nested class's compiled plan per book, for both: the same steps.
    assert.equal(plainRuns.runs, 3);
    assert.equal(superRuns.runs, 3);
  });

  it('honours a nested toRepresentation that changes the output', async () => {
    const response = await request(app, { method: 'GET', url: '/api/shouting/1/' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json().publishing, { isbn: 'ISBN-001', pages: 101 });
  });

  it('validates an absent optional field through the same steps whether runValidation is overridden or not', async () => {
    const responses: Record<string, { statusCode: number; body: string; json(): any }> = {};
    const asked: Record<string, number> = {};
    for (const prefix of ['stock-writer', 'super-writer']) {
      asked[prefix] = await countingDefaults(async () => {
        responses[prefix] = await request(app, {
          method: 'POST',
          url: `/api/${prefix}/`,
          ...json({ ...NEW_BOOK, isbn: prefix }),
        });
      });
    }
    const stock = responses['stock-writer'];
    const overridden = responses['super-writer'];
    assert.equal(stock?.statusCode, 201, stock?.body);
    assert.equal(overridden?.statusCode, 201, overridden?.body);
    assert.equal(stock.json().summary, null);
    assert.deepEqual(
      { ...(overridden.json() as object), id: 0, isbn: '' },
      { ...(stock.json() as object), id: 0, isbn: '' },
    );
    // The absent field asks Field's getDefault once (it skips the field), overridden or not.
    assert.equal(asked['stock-writer'], 1);
    assert.equal(asked['super-writer'], asked['stock-writer']);
  });

  it('honours a getDefault that gives an absent optional field a value', async () => {
    const response = await request(app, {
      method: 'POST',
      url: '/api/anonymous-writer/',
      ...json({ ...NEW_BOOK, isbn: 'anonymous' }),
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.json().summary, 'anonymous');
  });

  it('skips an absent optional boolean (its validateEmptyValues override keeps Field rules)', async () => {
    class Flags extends Serializer.with({
      fields: { flag: new BooleanField({ required: false }), n: new IntegerField() },
    }) {}
    const serializer = new Flags({ data: { n: 1 } });
    assert.equal(await serializer.isValid(), true);
    assert.deepEqual(serializer.validatedData, { n: 1 });
  });
});

// create/update: the nested-writes check reads a declaration, not which methods a class has.
const Owner = defineModel({
  name: 'OverrideOwner',
  table: 'override_owner',
  fields: { name: models.CharField({ maxLength: 50 }) },
});
const Pet = defineModel({
  name: 'OverridePet',
  table: 'override_pet',
  fields: {
    name: models.CharField({ maxLength: 50 }),
    owner: models.ForeignKey(Owner, { onDelete: 'CASCADE' }),
  },
});
const OwnerSerializer = ModelSerializer.with({ model: Owner, fields: ['name'] });

describe('create() and update() overrides', () => {
  let db: Database;
  let app: FastifyInstance;

  /** Writes the owner first, then the pet: create() and update() of its own, declared. */
  class PetWithOwner extends ModelSerializer.with({
    model: Pet,
    fields: ['id', 'name', 'owner'],
    declaredFields: { owner: new OwnerSerializer() },
  }) {
    static override handlesNestedWrites = true;
    override async create(validated: any) {
      const owner = await Owner.objects.create(validated.owner);
      return Pet.objects
        .selectRelated('owner')
        .get({ pk: (await Pet.objects.create({ name: validated.name, owner: owner.id })).id });
    }
    override async update(instance: any, validated: any) {
      return super.update(instance, { name: validated.name });
    }
  }

  /** Flat fields; create() and update() only call super. */
  class PetSuper extends ModelSerializer.with({ model: Pet, fields: ['id', 'name', 'owner'] }) {
    override async create(validated: any) {
      return super.create(validated);
    }
    override async update(instance: any, validated: any) {
      return super.update(instance, validated);
    }
  }
  const PetStock = ModelSerializer.with({ model: Pet, fields: ['id', 'name', 'owner'] });

  before(async () => {
    db = await sqlite.create();
    await db.migrate([Owner, Pet]);
    await Owner.objects.using(db).create({ name: 'Ann' });
    app = await buildApp({
      database: db,
      viewsets: [
        [
          'nested',
          class extends ModelViewSet {
            override queryset = Pet.objects.all().selectRelated('owner');
            override serializerClass = PetWithOwner;
          },
          { basename: 'nested' },
        ],
        ['stock', viewSetOf(PetStock, Pet), { basename: 'stock' }],
        ['super', viewSetOf(PetSuper, Pet), { basename: 'super' }],
      ],
    });
  });
  after(async () => {
    await app?.close();
    await sqlite.drop(db);
  });

  it('saves the same row through create()/update() that only call super', async () => {
    for (const prefix of ['stock', 'super']) {
      const created = await request(app, {
        method: 'POST',
        url: `/api/${prefix}/`,
        ...json({ name: 'Rex', owner: 1 }),
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual({ ...(created.json() as object), id: 0 }, { id: 0, name: 'Rex', owner: 1 });
      const updated = await request(app, {
        method: 'PATCH',
        url: `/api/${prefix}/${created.json().id}/`,
        ...json({ name: 'Max' }),
      });
      assert.equal(updated.statusCode, 200, `${prefix}: ${updated.body}`);
      assert.equal(updated.json().name, 'Max');
    }
  });

  it('fails at start-up on nested writes unless the class declares it writes them', () => {
    class OnlySuper extends ModelSerializer.with({
      model: Pet,
      fields: ['id', 'name', 'owner'],
      declaredFields: { owner: new OwnerSerializer() },
    }) {
      override async create(validated: any) {
        return super.create(validated);
      }
      override async update(instance: any, validated: any) {
        return super.update(instance, validated);
      }
    }
    // Calling super writes no more than ModelSerializer does: the same start-up error.
    assert.throws(() => OnlySuper.prepare(), {
      code: 'REST_ERR_NESTED_WRITES',
      message: /handlesNestedWrites/,
    });
    assert.doesNotThrow(() => PetWithOwner.prepare());
  });

  it('honours create() and update() that write the nested object', async () => {
    const created = await request(app, {
      method: 'POST',
      url: '/api/nested/',
      ...json({ name: 'Tom', owner: { name: 'Bob' } }),
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual(
      { ...(created.json() as object), id: 0 },
      { id: 0, name: 'Tom', owner: { name: 'Bob' } },
    );
    assert.equal(await Owner.objects.using(db).filter({ name: 'Bob' }).count(), 1);
  });
});

const ShortBookSerializer = ModelSerializer.with({ model: Book, fields: ['id', 'title'] });

describe('OPTIONS with determineActions overridden', () => {
  let db: Database;
  let app: FastifyInstance;

  /** The plan of the route SuperMetadata last answered for. */
  let superPlan: APIView['routePlan'];
  class SuperMetadata extends SimpleMetadata {
    override async determineActions(request: Request, view: APIView) {
      superPlan = view.routePlan;
      return super.determineActions(request, view);
    }
  }
  /** Describes the title with the caller's `x-label` header: actions that vary per request. */
  class LabelMetadata extends SimpleMetadata {
    override async determineActions(request: Request, view: unknown) {
      const actions = await super.determineActions(request, view);
      const label = String(request.raw.headers['x-label']);
      return Object.fromEntries(
        Object.entries(actions).map(([method, fields]) => [
          method,
          { title: { ...fields.title, label } },
        ]),
      ) as Awaited<ReturnType<SimpleMetadata['determineActions']>>;
    }
  }

  before(async () => {
    db = await sqlite.create();
    await db.migrate(STORE_MODELS);
    app = await buildApp({
      database: db,
      viewsets: [
        ['books', BookViewSet],
        [
          'super',
          class SuperViewSet extends BookViewSet {
            static override viewName = 'Book';
            override metadataClass = SuperMetadata;
          },
          { basename: 'super' },
        ],
        [
          'chooser',
          class ChooserViewSet extends BookViewSet {
            static override viewName = 'Chooser';
            override getSerializer(options: SerializerOptions = {}) {
              if (this.request?.raw.headers['x-short'] !== 'yes')
                return super.getSerializer(options);
              return new ShortBookSerializer({ ...options, context: this.getSerializerContext() });
            }
          },
          { basename: 'chooser' },
        ],
        [
          'labels',
          class LabelViewSet extends BookViewSet {
            static override viewName = 'Book';
            override metadataClass = LabelMetadata;
          },
          { basename: 'labels' },
        ],
      ],
    });
  });
  after(async () => {
    await app?.close();
    await sqlite.drop(db);
  });

  it('serves the default body, from the cache, when determineActions only calls super', async () => {
    const books = await request(app, { method: 'OPTIONS', url: '/api/books/' });
    assert.equal(books.statusCode, 200);
    assert.ok(books.json().actions.POST.title);
    // The route's first OPTIONS builds its body; the next ones find it (each miss is a build).
    const first = await request(app, { method: 'OPTIONS', url: '/api/super/' });
    assert.equal(first.body, books.body);
    const bodies = () => superPlan?.caches.stats().find((c) => c.name === 'OPTIONS bodies');
    const before = bodies();
    assert.ok(before);
    for (let i = 0; i < 2; i++) {
      const same = await request(app, { method: 'OPTIONS', url: '/api/super/' });
      assert.equal(same.body, books.body);
    }
    // The same interned actions object each time, so the body built before answered.
    assert.deepEqual(
      { hits: bodies()?.hits, misses: bodies()?.misses, size: bodies()?.size },
      { hits: before.hits + 2, misses: before.misses, size: before.size },
    );
  });

  it('honours actions that change per request, never serving another request’s body', async () => {
    const first = await request(app, {
      method: 'OPTIONS',
      url: '/api/labels/',
      headers: { 'x-label': 'First' },
    });
    const second = await request(app, {
      method: 'OPTIONS',
      url: '/api/labels/',
      headers: { 'x-label': 'Second' },
    });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().actions.POST.title.label, 'First');
    assert.equal(second.json().actions.POST.title.label, 'Second');
    assert.deepEqual(Object.keys(second.json().actions.POST), ['title']);
  });

  it('describes the serializer the view gives for this request, not the first one described', async () => {
    const full = await request(app, { method: 'OPTIONS', url: '/api/chooser/' });
    const short = await request(app, {
      method: 'OPTIONS',
      url: '/api/chooser/',
      headers: { 'x-short': 'yes' },
    });
    assert.equal(full.statusCode, 200, full.body);
    assert.equal(short.statusCode, 200, short.body);
    assert.ok(Object.keys(full.json().actions.POST).includes('publishing_information'));
    assert.deepEqual(Object.keys(short.json().actions.POST), ['id', 'title']);
  });
});

describe('serializer caches', () => {
  it('describes each list serializer’s own child, whichever was described first', () => {
    class Left extends Serializer.with({ fields: { left: new CharField() } }) {}
    class Right extends Serializer.with({ fields: { right: new IntegerField() } }) {}
    assert.deepEqual(Object.keys(Left.many().describeFields()), ['left']);
    assert.deepEqual(Object.keys(Right.many().describeFields()), ['right']);
  });

  it('keeps the declaration a class was made with: a field added to the object later is not half-seen', async () => {
    const fields: Record<string, Field<any, any, any>> = { title: new CharField() };
    const Declared = Serializer.with({ fields });
    assert.deepEqual([...Declared.prepare().byName.keys()], ['title']);
    fields.isbn = new CharField();
    // Neither the plan nor the declaration it was made from takes the late field.
    assert.deepEqual(Object.keys(Declared.declaredFields), ['title']);
    class Later extends Declared {}
    assert.deepEqual([...Later.prepare().byName.keys()], ['title']);
    assert.throws(() => {
      (Declared.declaredFields as Record<string, unknown>).isbn = new CharField();
    }, TypeError);
    const serializer = new Declared({ data: { title: 'Dune', isbn: 'x' } });
    assert.equal(await serializer.isValid(), true);
    assert.deepEqual(serializer.validatedData, { title: 'Dune' });
  });

  it('prepares a subclass made after its parent was prepared with its own hooks', async () => {
    class Parent extends Serializer.with({ fields: { title: new CharField() } }) {}
    assert.equal(Parent.prepare().hooks.size, 0);
    class Child extends Parent {
      validateTitle(value: string) {
        return value.toUpperCase();
      }
    }
    const child = new Child({ data: { title: 'dune' } });
    assert.equal(await child.isValid(), true);
    assert.deepEqual(child.validatedData, { title: 'DUNE' });
    const parent = new Parent({ data: { title: 'dune' } });
    assert.equal(await parent.isValid(), true);
    assert.deepEqual(parent.validatedData, { title: 'dune' });
    assert.notEqual(Child.prepare(), Parent.prepare());
  });
});

describe('validation answers at once when nothing waits', () => {
  const run: RunContext = { partial: false, context: {}, instance: undefined };
  class Inner extends Serializer.with({ fields: { pages: new IntegerField() } }) {}
  const outer = (inner: new (options?: SerializerOptions) => Serializer) =>
    Serializer.with({ fields: { title: new CharField(), inner: new inner() } });

  it('gives the value itself, nested serializers included, when every step answered at once', () => {
    const Outer = outer(Inner);
    const value = new Outer().runValidation({ title: 'Dune', inner: { pages: '3' } }, run);
    assert.deepEqual(value, { title: 'Dune', inner: { pages: 3 } });
    // Errors are thrown at once too, nested by field as before.
    assert.throws(
      () => new Outer().runValidation({ title: '', inner: { pages: 'x' } }, run),
      (error: unknown) =>
        error instanceof ValidationError &&
        JSON.stringify(error.detail) ===
          JSON.stringify({
            title: ['This field may not be blank.'],
            inner: { pages: ['A valid integer is required.'] },
          }),
    );
  });

  it('honours a nested toInternalValue override that waits, and the fields after it', async () => {
    class Waiting extends Inner {
      override async toInternalValue(data: unknown, ctx: RunContext) {
        await new Promise((resolve) => setImmediate(resolve));
        const value = (await super.toInternalValue(data, ctx)) as Record<string, unknown>;
        return { ...value, pages: (value.pages as number) * 2 };
      }
    }
    const Outer = Serializer.with({
      fields: { inner: new Waiting(), title: new CharField(), after: new Inner() },
    });
    const serializer = new Outer({
      data: { inner: { pages: '3' }, title: '', after: { pages: 'x' } },
    });
    assert.equal(await serializer.isValid(), false);
    assert.deepEqual(serializer.errors, {
      title: ['This field may not be blank.'],
      after: { pages: ['A valid integer is required.'] },
    });
    const valid = new Outer({
      data: { inner: { pages: '3' }, title: 'Dune', after: { pages: 1 } },
    });
    assert.equal(await valid.isValid(), true);
    assert.deepEqual(valid.validatedData, {
      inner: { pages: 6 },
      title: 'Dune',
      after: { pages: 1 },
    });
  });

  it('honours hooks and validate overrides that wait, with their errors where they were', async () => {
    class Hooked extends Serializer.with({
      fields: { title: new CharField(), inner: new Inner() },
    }) {
      async validateTitle(value: string) {
        await Promise.resolve();
        if (value === 'spam') throw new ValidationError(['No spam.']);
        return value.toUpperCase();
      }
    }
    class Checked extends Inner {
      override async validate(attrs: unknown) {
        await Promise.resolve();
        if ((attrs as { pages: number }).pages > 10) throw new ValidationError(['Too long.']);
        return attrs;
      }
    }
    const Outer = Serializer.with({ fields: { hooked: new Hooked(), checked: new Checked() } });
    const bad = new Outer({
      data: { hooked: { title: 'spam', inner: { pages: 1 } }, checked: { pages: 11 } },
    });
    assert.equal(await bad.isValid(), false);
    assert.deepEqual(bad.errors, {
      hooked: { title: ['No spam.'] },
      checked: { non_field_errors: ['Too long.'] },
    });
    const good = new Outer({
      data: { hooked: { title: 'dune', inner: { pages: 1 } }, checked: { pages: 2 } },
    });
    assert.equal(await good.isValid(), true);
    assert.deepEqual(good.validatedData, {
      hooked: { title: 'DUNE', inner: { pages: 1 } },
      checked: { pages: 2 },
    });
  });

  it('honours a nested runValidation override and a validator that queries later', async () => {
    let calls = 0;
    class Counting extends Inner {
      override runValidation(data: unknown, ctx: RunContext) {
        calls++;
        return super.runValidation(data, ctx);
      }
    }
    const slow = async (value: unknown) => {
      await Promise.resolve();
      if ((value as { pages: number }).pages === 0) throw new ValidationError(['Zero.']);
    };
    const Outer = Serializer.with({
      fields: { counted: new Counting(), slow: new Inner({ validators: [slow] }) },
    });
    const serializer = new Outer({ data: { counted: { pages: 1 }, slow: { pages: 0 } } });
    assert.equal(await serializer.isValid(), false);
    assert.deepEqual(serializer.errors, { slow: { non_field_errors: ['Zero.'] } });
    assert.equal(calls, 1);
  });
});

describe('per-request serializers keep their defaults on the prototype', () => {
  class Note extends Serializer.with({ fields: { text: new CharField() } }) {}

  it('reads the same options and state as one made with every default given', async () => {
    const context = { view: 'a view' };
    const lean = new Note({ context });
    const given = new Note({ context, partial: false, instance: undefined, required: true });
    for (const key of [
      'readOnly',
      'writeOnly',
      'required',
      'allowNull',
      'helpText',
      'style',
      'errorMessages',
      'instance',
      'partial',
      'context',
    ] as const) {
      assert.deepEqual(lean[key], given[key], key);
    }
    assert.deepEqual(lean.validators, []);
    assert.deepEqual(lean.data, {});
    await assert.rejects(lean.isValid(), /no data was passed/);
  });

  it('keeps what one instance is given or given later to itself', async () => {
    const first = new Note({ data: { text: 'a' }, partial: true });
    const second = new Note();
    first.validators.push(() => {});
    first.instance = { id: 1 };
    assert.deepEqual(second.validators, []);
    assert.equal(second.instance, undefined);
    assert.equal(second.partial, false);
    assert.equal(first.partial, true);
    assert.equal(await first.isValid(), true);
    await assert.rejects(second.isValid(), /no data was passed/);
    // Options a field takes still count for a serializer that has them.
    const optional = new Note({ required: false, allowNull: true, helpText: 'A note.' });
    assert.equal(optional.required, false);
    assert.equal(optional.allowNull, true);
    assert.equal(optional.helpText, 'A note.');
    assert.throws(() => new Note({ readOnly: true, required: true }), /readOnly and required/);
  });
});
