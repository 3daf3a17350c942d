/**
 * Serializers as DRF has them: plain ones declared field by field, model serializers built
 * from a model, and lists of either. Model serializers run on SQLite, and on PostgreSQL when
 * `TEST_POSTGRES_URL` is set.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  BooleanField,
  CharField,
  ChoiceField,
  Database,
  DateField,
  DateTimeField,
  DecimalField,
  EMPTY,
  EmailField,
  type ErrorTree,
  HyperlinkedIdentityField,
  HyperlinkedModelSerializer,
  IntegerField,
  ListSerializer,
  ModelSerializer,
  PrimaryKeyRelatedField,
  ReadOnlyField,
  type RequestLike,
  type Row,
  type RunContext,
  Serializer,
  SKIPPED,
  SkipField,
  ValidationError,
} from '@restframework/core';
import { assertImproperlyConfigured, testDialects } from '@restframework/core/testing';
import { ALL_MODELS, Book, Profile, User } from '../fixtures/library-models.ts';

/** The errors of validating `data` with `serializer`, which must be invalid. */
async function errorsOf(serializer: Serializer<any, any>): Promise<ErrorTree> {
  assert.equal(await serializer.isValid(), false, 'expected the data to be invalid');
  return serializer.errors;
}

/** The validated data of `serializer`, which must be valid. */
async function validOf(serializer: Serializer<any, any>): Promise<Record<string, unknown>> {
  const valid = await serializer.isValid();
  assert.ok(valid, `expected valid data, got ${JSON.stringify(valid ? {} : serializer.errors)}`);
  return serializer.validatedData;
}

/** A request that reverses `<name>` with `{pk}` to `http://testserver/<name>/<pk>/`. */
const request: RequestLike = {
  reverse: (name, params = {}) => `http://testserver/${name}/${String(params.pk)}/`,
  buildAbsoluteUri: (path) => `http://testserver${path}`,
};

describe('Serializer', () => {
  const CommentSerializer = Serializer.with({
    fields: {
      email: new EmailField(),
      content: new CharField({ maxLength: 20 }),
      rating: new IntegerField({ minValue: 1, maxValue: 5, required: false }),
      created: new DateTimeField({ readOnly: true }),
      password: new CharField({ writeOnly: true, required: false }),
    },
  });

  it('validates data into validated data', async () => {
    const serializer = new CommentSerializer({
      data: { email: ' ann@example.com ', content: 'Hi', rating: '4', created: 'ignored' },
    });
    assert.deepEqual(await validOf(serializer), {
      email: 'ann@example.com',
      content: 'Hi',
      rating: 4,
    });
    assert.deepEqual(serializer.errors, {});
  });

  it('reports every field error, keyed like the data', async () => {
    const serializer = new CommentSerializer({
      data: { email: 'nope', content: 'x'.repeat(21), rating: 9 },
    });
    assert.deepEqual(await errorsOf(serializer), {
      email: ['Enter a valid email address.'],
      content: ['Ensure this field has no more than 20 characters.'],
      rating: ['Ensure this value is less than or equal to 5.'],
    });
    assert.deepEqual(await errorsOf(new CommentSerializer({ data: {} })), {
      email: ['This field is required.'],
      content: ['This field is required.'],
    });
  });

  it('refuses data that is not a dictionary, naming its Python type', async () => {
    const cases: [unknown, string][] = [
      ['text', 'str'],
      [[{ email: 'a@b.org' }], 'list'],
      [1, 'int'],
      [1.5, 'float'],
      [true, 'bool'],
    ];
    for (const [data, type] of cases) {
      assert.deepEqual(await errorsOf(new CommentSerializer({ data })), {
        non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`],
      });
    }
  });

  it('says "No data provided" for null data', async () => {
    assert.deepEqual(await errorsOf(new CommentSerializer({ data: null })), {
      non_field_errors: ['No data provided'],
    });
  });

  it('ignores read-only fields in input and shows them in output', async () => {
    const serializer = new CommentSerializer({
      instance: {
        email: 'ann@example.com',
        content: 'Hi',
        rating: 3,
        created: '2024-01-02T03:04:05.000Z',
        password: 'secret',
      },
    });
    assert.deepEqual(serializer.data, {
      email: 'ann@example.com',
      content: 'Hi',
      rating: 3,
      created: '2024-01-02T03:04:05Z',
    });
  });

  it('accepts write-only fields in input and never shows them', async () => {
    const serializer = new CommentSerializer({
      data: { email: 'ann@example.com', content: 'Hi', password: 's3cret' },
    });
    assert.equal((await validOf(serializer)).password, 's3cret');
    assert.equal('password' in (serializer.data as object), false);
  });

  it('renders null for a missing or null attribute', () => {
    const serializer = new CommentSerializer({
      instance: { email: 'ann@example.com', content: null },
    });
    assert.deepEqual(serializer.data, {
      email: 'ann@example.com',
      content: null,
      rating: null,
      created: null,
    });
  });

  it('gives back the initial data before validation, and the validated data after', async () => {
    const data = { email: 'ann@example.com', content: ' Hi ' };
    const serializer = new CommentSerializer({ data });
    assert.deepEqual(serializer.data, data);
    await validOf(serializer);
    assert.deepEqual(serializer.data, {
      email: 'ann@example.com',
      content: 'Hi',
      rating: null,
      created: null,
    });
  });

  it('raises the errors with raiseException', async () => {
    const serializer = new CommentSerializer({ data: { email: 'ann@example.com' } });
    await assert.rejects(serializer.isValid({ raiseException: true }), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.statusCode, 400);
      assert.deepEqual(error.detail, { content: ['This field is required.'] });
      return true;
    });
  });

  it('refuses misuse: errors before isValid, isValid without data, save when invalid', async () => {
    assertImproperlyConfigured(
      () => new CommentSerializer({ data: {} }).errors,
      'REST_ERR_SERIALIZER_USAGE',
      /Call isValid\(\)/,
    );
    assertImproperlyConfigured(
      () => new CommentSerializer({ data: {} }).validatedData,
      'REST_ERR_SERIALIZER_USAGE',
      /Call isValid\(\)/,
    );
    await assert.rejects(new CommentSerializer().isValid(), /no data was passed/);
    const invalid = new CommentSerializer({ data: {} });
    await invalid.isValid();
    await assert.rejects(invalid.save(), /cannot call save\(\) on a serializer with invalid data/);
    await assert.rejects(
      new CommentSerializer({ data: {} }).save(),
      /must call isValid\(\) before calling save\(\)/,
    );
  });

  it('saves through create() and update(), which plain serializers must write', async () => {
    const valid = new CommentSerializer({ data: { email: 'ann@example.com', content: 'Hi' } });
    await validOf(valid);
    await assert.rejects(valid.save(), /create\(\) is not implemented/);

    class StoredComment extends CommentSerializer {
      override async create(validated: any) {
        return { ...validated, created: '2024-01-02T03:04:05.000Z' };
      }
      override async update(instance: any, validated: any) {
        return { ...instance, ...validated };
      }
    }
    const creating = new StoredComment({ data: { email: 'ann@example.com', content: 'Hi' } });
    await validOf(creating);
    const created = await creating.save({ rating: 5 });
    assert.deepEqual(created, {
      email: 'ann@example.com',
      content: 'Hi',
      rating: 5,
      created: '2024-01-02T03:04:05.000Z',
    });
    assert.deepEqual(creating.data, {
      email: 'ann@example.com',
      content: 'Hi',
      rating: 5,
      created: '2024-01-02T03:04:05Z',
    });

    const updating = new StoredComment({
      instance: created,
      data: { content: 'Bye' },
      partial: true,
    });
    await validOf(updating);
    assert.deepEqual(await updating.save(), { ...created, content: 'Bye' });
  });

  describe('partial validation', () => {
    it('skips fields that were not sent, and still validates those that were', async () => {
      assert.deepEqual(
        await validOf(new CommentSerializer({ data: { content: 'Hi' }, partial: true })),
        { content: 'Hi' },
      );
      assert.deepEqual(await validOf(new CommentSerializer({ data: {}, partial: true })), {});
      assert.deepEqual(
        await errorsOf(new CommentSerializer({ data: { content: '' }, partial: true })),
        { content: ['This field may not be blank.'] },
      );
    });

    it('applies no default', async () => {
      const WithDefault = Serializer.with({
        fields: { title: new CharField(), pages: new IntegerField({ default: 200 }) },
      });
      assert.deepEqual(await validOf(new WithDefault({ data: { title: 'a' } })), {
        title: 'a',
        pages: 200,
      });
      assert.deepEqual(await validOf(new WithDefault({ data: { title: 'a' }, partial: true })), {
        title: 'a',
      });
    });
  });

  describe('optional fields left out', () => {
    /** A field whose default comes from the context, as DRF's CurrentUserDefault. */
    class AuthorField extends CharField {
      override getDefault(ctx: Parameters<CharField['getDefault']>[0]): unknown {
        return String(ctx.context.author ?? 'anonymous');
      }
    }
    /** A field that decides about empty values itself. */
    class StampField extends CharField {
      override validateEmptyValues(
        data: unknown,
        ctx: Parameters<CharField['validateEmptyValues']>[1],
      ): [boolean, unknown] {
        return typeof data === 'symbol' ? [true, 'stamped'] : super.validateEmptyValues(data, ctx);
      }
    }
    const Optional = Serializer.with({
      fields: {
        title: new CharField(),
        note: new CharField({ required: false }),
        flag: new BooleanField({ required: false }),
        author: new AuthorField({ required: false }),
        stamp: new StampField({ required: false }),
      },
    });

    it('are left out of the data, unless the field has a say', async () => {
      assert.deepEqual(
        await validOf(new Optional({ data: { title: 'a' }, context: { author: 'ann' } })),
        { title: 'a', author: 'ann', stamp: 'stamped' },
      );
    });

    it('are validated when sent', async () => {
      assert.deepEqual(
        await validOf(new Optional({ data: { title: 'a', note: 'n', flag: 'true', author: 'x' } })),
        { title: 'a', note: 'n', flag: true, author: 'x', stamp: 'stamped' },
      );
      assert.deepEqual(await errorsOf(new Optional({ data: { title: 'a', note: null } })), {
        note: ['This field may not be null.'],
      });
    });

    it('are skipped by the SKIPPED the field answers, and a thrown SkipField still skips', async () => {
      /** Leaves an empty note out by throwing, as DRF fields do. */
      class ThrowingNoteField extends CharField {
        override runValidation(data: unknown, ctx: RunContext) {
          if (data === '') throw new SkipField();
          return super.runValidation(data, ctx);
        }
      }
      /** Leaves an empty note out by answering the marker. */
      class ReturningNoteField extends CharField {
        override runValidation(data: unknown, ctx: RunContext) {
          return data === '' ? (SKIPPED as never) : super.runValidation(data, ctx);
        }
      }
      /** Answers the marker from an asynchronous validation. */
      class LaterNoteField extends CharField {
        override async runValidation(data: unknown, ctx: RunContext) {
          return data === '' ? (SKIPPED as never) : super.runValidation(data, ctx);
        }
      }
      const Notes = Serializer.with({
        fields: {
          thrown: new ThrowingNoteField(),
          returned: new ReturningNoteField(),
          later: new LaterNoteField(),
          kept: new CharField({ allowBlank: true }),
        },
      });
      assert.deepEqual(
        await validOf(new Notes({ data: { thrown: '', returned: '', later: '', kept: '' } })),
        { kept: '' },
      );
      assert.deepEqual(
        await validOf(new Notes({ data: { thrown: 'a', returned: 'b', later: 'c', kept: 'd' } })),
        { thrown: 'a', returned: 'b', later: 'c', kept: 'd' },
      );
      // Field's own rules answer the marker (no throw) for what they leave out.
      const note = new CharField({ required: false });
      note.bind('note', 'Test', null);
      const run = { partial: false, context: {}, instance: undefined };
      assert.equal(note.runValidation(EMPTY, run), SKIPPED);
      assert.equal(note.getDefault(run), SKIPPED);
      assert.deepEqual(note.validateEmptyValues(EMPTY, { ...run, partial: true }), [true, SKIPPED]);
    });

    it('a root serializer left out still throws SkipField from isValid, as before', async () => {
      const Optional = Serializer.with({ fields: { title: new CharField() } });
      await assert.rejects(new Optional({ data: undefined, required: false }).isValid(), SkipField);
    });
  });

  describe('nested serializers', () => {
    const AddressSerializer = Serializer.with({
      fields: { city: new CharField(), zip: new IntegerField() },
    });
    const PersonSerializer = Serializer.with({
      fields: {
        name: new CharField(),
        address: new AddressSerializer(),
        previous: new AddressSerializer({ required: false, allowNull: true }),
      },
    });

    it('validate into nested validated data', async () => {
      assert.deepEqual(
        await validOf(
          new PersonSerializer({
            data: { name: 'Ann', address: { city: 'Oslo', zip: '150' }, previous: null },
          }),
        ),
        { name: 'Ann', address: { city: 'Oslo', zip: 150 }, previous: null },
      );
    });

    it('nest their errors like the data', async () => {
      assert.deepEqual(
        await errorsOf(
          new PersonSerializer({ data: { name: '', address: { city: 'Oslo', zip: 'x' } } }),
        ),
        {
          name: ['This field may not be blank.'],
          address: { zip: ['A valid integer is required.'] },
        },
      );
      assert.deepEqual(
        await errorsOf(new PersonSerializer({ data: { name: 'Ann', address: {} } })),
        { address: { city: ['This field is required.'], zip: ['This field is required.'] } },
      );
    });

    it('refuse a nested value that is missing, null or not a dictionary', async () => {
      assert.deepEqual(await errorsOf(new PersonSerializer({ data: { name: 'Ann' } })), {
        address: ['This field is required.'],
      });
      assert.deepEqual(
        await errorsOf(new PersonSerializer({ data: { name: 'Ann', address: null } })),
        { address: ['This field may not be null.'] },
      );
      assert.deepEqual(
        await errorsOf(new PersonSerializer({ data: { name: 'Ann', address: 'Oslo' } })),
        { address: { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] } },
      );
    });

    it('render nested objects', () => {
      const serializer = new PersonSerializer({
        instance: { name: 'Ann', address: { city: 'Oslo', zip: 150 }, previous: null },
      });
      assert.deepEqual(serializer.data, {
        name: 'Ann',
        address: { city: 'Oslo', zip: 150 },
        previous: null,
      });
    });

    it("flatten a source: '*' group into the parent's data, and read it from the parent", async () => {
      const Flat = Serializer.with({
        fields: { name: new CharField(), address: new AddressSerializer({ source: '*' }) },
      });
      assert.deepEqual(
        await validOf(new Flat({ data: { name: 'Ann', address: { city: 'Oslo', zip: 1 } } })),
        { name: 'Ann', city: 'Oslo', zip: 1 },
      );
      assert.deepEqual(new Flat({ instance: { name: 'Ann', city: 'Oslo', zip: 1 } }).data, {
        name: 'Ann',
        address: { city: 'Oslo', zip: 1 },
      });
    });
  });

  describe('sources', () => {
    it('read a dotted path and write the validated value at that path', async () => {
      const S = Serializer.with({
        fields: {
          username: new CharField({ source: 'user.username' }),
          nickname: new CharField({ source: 'profile_name', required: false }),
        },
      });
      assert.deepEqual(new S({ instance: { user: { username: 'ann' }, profile_name: 'A' } }).data, {
        username: 'ann',
        nickname: 'A',
      });
      assert.deepEqual(new S({ instance: { user: null } }).data, {
        username: null,
        nickname: null,
      });
      assert.deepEqual(await validOf(new S({ data: { username: 'ann', nickname: 'A' } })), {
        user: { username: 'ann' },
        profile_name: 'A',
      });
    });

    it("refuse a source equal to the field's name", () => {
      const S = Serializer.with({ fields: { title: new CharField({ source: 'title' }) } });
      assertImproperlyConfigured(
        () => S.prepare(),
        'REST_ERR_FIELD_OPTIONS',
        /It is redundant to specify source: 'title'/,
      );
    });
  });

  describe('validation hooks', () => {
    class SignupSerializer extends Serializer.with({
      fields: {
        username: new CharField(),
        first_name: new CharField({ required: false }),
        password: new CharField({ writeOnly: true }),
        password_again: new CharField({ writeOnly: true }),
      },
    }) {
      calls: string[] = [];

      validateUsername(value: string) {
        this.calls.push('validateUsername');
        if (value === 'admin') throw new ValidationError('This name is reserved.');
        return value.toLowerCase();
      }

      // DRF's spelling works too.
      async validate_first_name(value: string) {
        this.calls.push('validate_first_name');
        return value.toUpperCase();
      }

      override validate(attrs: any) {
        this.calls.push('validate');
        if (attrs.password !== attrs.password_again) {
          throw new ValidationError("The passwords don't match.");
        }
        if (attrs.password === attrs.username) {
          throw new ValidationError({ password: ['Too similar to the username.'] });
        }
        const { password_again: _, ...rest } = attrs;
        return rest;
      }
    }

    it('transform the values of their fields, then validate() sees them all', async () => {
      const serializer = new SignupSerializer({
        data: { username: 'Ann', first_name: 'ann', password: 'x', password_again: 'x' },
      });
      assert.deepEqual(await validOf(serializer), {
        username: 'ann',
        first_name: 'ANN',
        password: 'x',
      });
      assert.deepEqual(serializer.calls, ['validateUsername', 'validate_first_name', 'validate']);
    });

    it('report field hook errors under the field', async () => {
      const serializer = new SignupSerializer({
        data: { username: 'admin', password: 'x', password_again: 'x' },
      });
      assert.deepEqual(await errorsOf(serializer), { username: ['This name is reserved.'] });
      // validate() runs only when every field is valid.
      assert.deepEqual(serializer.calls, ['validateUsername']);
    });

    it('skip hooks of fields that were not sent or failed', async () => {
      const serializer = new SignupSerializer({
        data: { username: '', password: 'x', password_again: 'x' },
      });
      assert.deepEqual(await errorsOf(serializer), { username: ['This field may not be blank.'] });
      assert.deepEqual(serializer.calls, []);
    });

    it('report validate() errors as non_field_errors, or under the fields it names', async () => {
      assert.deepEqual(
        await errorsOf(
          new SignupSerializer({ data: { username: 'ann', password: 'x', password_again: 'y' } }),
        ),
        { non_field_errors: ["The passwords don't match."] },
      );
      assert.deepEqual(
        await errorsOf(
          new SignupSerializer({
            data: { username: 'ann', password: 'ann', password_again: 'ann' },
          }),
        ),
        { password: ['Too similar to the username.'] },
      );
    });

    it('nest the object-level errors of a nested serializer', async () => {
      class Range extends Serializer.with({
        fields: { low: new IntegerField(), high: new IntegerField() },
      }) {
        override validate(attrs: any) {
          if (attrs.low > attrs.high) throw new ValidationError('low must not exceed high.');
          return attrs;
        }
      }
      const S = Serializer.with({ fields: { range: new Range() } });
      assert.deepEqual(await errorsOf(new S({ data: { range: { low: 2, high: 1 } } })), {
        range: { non_field_errors: ['low must not exceed high.'] },
      });
    });
  });

  describe('lists (many)', () => {
    const ItemSerializer = Serializer.with({
      fields: { name: new CharField(), qty: new IntegerField({ minValue: 1 }) },
    });

    it('validate every item', async () => {
      const list = ItemSerializer.many({
        data: [
          { name: 'a', qty: '1' },
          { name: 'b', qty: 2 },
        ],
      });
      assert.ok(list instanceof ListSerializer);
      assert.deepEqual(await validOf(list), [
        { name: 'a', qty: 1 },
        { name: 'b', qty: 2 },
      ]);
    });

    it('report errors item by item, an empty object for a valid item', async () => {
      const list = ItemSerializer.many({
        data: [
          { name: 'a', qty: 1 },
          { name: '', qty: 0 },
        ],
      });
      assert.deepEqual(await errorsOf(list), [
        {},
        {
          name: ['This field may not be blank.'],
          qty: ['Ensure this value is greater than or equal to 1.'],
        },
      ]);
    });

    it('split the options between the list and its child, and bind the child as before', async () => {
      const context = { note: 'n' };
      const rows = [{ name: 'a', qty: 1 }];
      const list = ItemSerializer.many({
        instance: rows,
        context,
        allowEmpty: false,
        required: false,
        label: 'Items',
      });
      // The list keeps its own options; every other goes to the child, with the context. The
      // options that make the list a field of its parent (DRF's LIST_SERIALIZER_KWARGS:
      // required, label, source, readOnly, ...) go to the list too: an optional list is optional.
      assert.equal(list.instance, rows);
      assert.equal(list.context, context);
      assert.equal(list.allowEmpty, false);
      assert.deepEqual(list.options, { required: false, label: 'Items' });
      assert.equal(list.required, false);
      assert.equal(list.child.context, context);
      assert.equal(list.child.instance, undefined);
      assert.deepEqual(list.child.options, { required: false, label: 'Items' });
      assert.equal(list.child.required, false);
      // No data given: none passed on (isValid() would say so).
      await assert.rejects(list.isValid(), /no data was passed/);
      // The child of every list is bound the same way, from the same made-once binding, and
      // its own label wins.
      const other = ItemSerializer.many({ data: [] });
      assert.deepEqual(other.child.context, {});
      for (const child of [list.child, other.child]) {
        assert.equal(child.fieldName, '');
        assert.deepEqual(child.sourceAttrs, ['']);
        assert.equal(child.attributeKey, '');
        assert.equal(child.getAttribute({ '': 7 }), 7);
      }
      assert.equal(list.child.label, 'Items');
      assert.equal(other.child.label, '');
      assert.deepEqual(list.data, [{ name: 'a', qty: 1 }]);
    });

    it('refuse data that is not a list, and an empty list without allowEmpty', async () => {
      assert.deepEqual(await errorsOf(ItemSerializer.many({ data: { name: 'a' } })), {
        non_field_errors: ['Expected a list of items but got type "dict".'],
      });
      assert.deepEqual(await errorsOf(ItemSerializer.many({ data: [], allowEmpty: false })), {
        non_field_errors: ['This list may not be empty.'],
      });
      assert.deepEqual(await validOf(ItemSerializer.many({ data: [] })), []);
    });

    it('nest list errors under the field of a parent', async () => {
      const Order = Serializer.with({
        fields: { items: new ListSerializer({ child: new ItemSerializer() }) },
      });
      assert.deepEqual(await errorsOf(new Order({ data: { items: [{ name: 'a', qty: 0 }] } })), {
        items: [{ qty: ['Ensure this value is greater than or equal to 1.'] }],
      });
      assert.deepEqual(await errorsOf(new Order({ data: { items: 'a' } })), {
        items: { non_field_errors: ['Expected a list of items but got type "str".'] },
      });
    });

    it('render every instance', () => {
      assert.deepEqual(
        ItemSerializer.many({
          instance: [
            { name: 'a', qty: 1 },
            { name: 'b', qty: 2 },
          ],
        }).data,
        [
          { name: 'a', qty: 1 },
          { name: 'b', qty: 2 },
        ],
      );
    });

    it('save by creating every item, with the extra values on each', async () => {
      const created: unknown[] = [];
      class StoredItem extends ItemSerializer {
        override async create(validated: any) {
          created.push(validated);
          return validated;
        }
      }
      const list = StoredItem.many({
        data: [
          { name: 'a', qty: 1 },
          { name: 'b', qty: 2 },
        ],
      });
      await validOf(list);
      assert.deepEqual(await list.save({ owner: 7 }), [
        { name: 'a', qty: 1, owner: 7 },
        { name: 'b', qty: 2, owner: 7 },
      ]);
      assert.equal(created.length, 2);
    });
  });
});

describe('ModelSerializer declarations', () => {
  it('checks the columns a create must supply by each model’s own plan', () => {
    /** The check a create runs before it writes, as the errors it throws (or undefined). */
    function checkOf(run: () => void): ErrorTree | undefined {
      try {
        run();
        return undefined;
      } catch (error) {
        assert.ok(error instanceof ValidationError);
        return error.detail;
      }
    }
    class BookWriter extends ModelSerializer.with({ model: Book, fields: ['id', 'title'] }) {
      check(data: Record<string, unknown>): ErrorTree | undefined {
        return checkOf(() => this.assertRequiredColumns(data));
      }
    }
    class UserWriter extends ModelSerializer.with({ model: User, fields: ['id', 'username'] }) {
      check(data: Record<string, unknown>): ErrorTree | undefined {
        return checkOf(() => this.assertRequiredColumns(data));
      }
    }
    // Each model's NOT NULL columns without a default; asked twice, the same answer (the plan
    // is kept per model, and one model's never answers for another).
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(new BookWriter().check({ title: 't' }), {
        isbn: ['This field is required.'],
        price: ['This field is required.'],
      });
      assert.deepEqual(new UserWriter().check({}), { username: ['This field is required.'] });
      assert.equal(new UserWriter().check({ username: 'ann' }), undefined);
    }
  });

  it('builds fields from the model as DRF does', () => {
    const BookSerializer = ModelSerializer.with({ model: Book, fields: '__all__' });
    const fields = BookSerializer.prepare().byName;
    assert.deepEqual(
      [...fields.keys()],
      [
        'id',
        'title',
        'isbn',
        'price',
        'pages',
        'in_print',
        'published',
        'added',
        'summary',
        'state',
        'owner',
      ],
    );
    const kinds = Object.fromEntries([...fields].map(([name, f]) => [name, f.constructor]));
    assert.deepEqual(kinds, {
      id: IntegerField,
      title: CharField,
      isbn: CharField,
      price: DecimalField,
      pages: IntegerField,
      in_print: BooleanField,
      published: DateField,
      added: DateTimeField,
      summary: CharField,
      state: ChoiceField,
      owner: PrimaryKeyRelatedField,
    });
    assert.deepEqual(new BookSerializer().describeFields(), {
      id: { type: 'integer', required: false, read_only: true, label: 'ID' },
      title: { type: 'string', required: true, read_only: false, label: 'Title', max_length: 100 },
      isbn: { type: 'string', required: true, read_only: false, label: 'Isbn', max_length: 20 },
      price: {
        type: 'decimal',
        required: true,
        read_only: false,
        label: 'Price',
        max_digits: 10,
        decimal_places: 2,
      },
      pages: {
        type: 'integer',
        required: false,
        read_only: false,
        label: 'Pages',
        min_value: 0,
        max_value: 2147483647,
      },
      in_print: { type: 'boolean', required: false, read_only: false, label: 'In print' },
      published: { type: 'date', required: false, read_only: false, label: 'Published' },
      added: { type: 'datetime', required: false, read_only: true, label: 'Added' },
      summary: { type: 'string', required: false, read_only: false, label: 'Summary' },
      state: {
        type: 'choice',
        required: false,
        read_only: false,
        label: 'State',
        choices: [
          { value: 'published', display_name: 'Published' },
          { value: 'draft', display_name: 'Draft' },
        ],
      },
      owner: { type: 'field', required: false, read_only: false, label: 'Owner' },
    });
    const published = fields.get('published') as DateField;
    const summary = fields.get('summary') as CharField;
    assert.equal(published.allowNull, true);
    assert.equal(summary.allowNull, true);
    assert.equal(summary.allowBlank, true);
    assert.equal((fields.get('title') as CharField).allowBlank, false);
    assert.equal((fields.get('owner') as PrimaryKeyRelatedField).allowNull, true);
  });

  it("puts the primary key, then declared fields, then the model's fields, relations last", () => {
    const ProfileSerializer = ModelSerializer.with({
      model: Profile,
      fields: '__all__',
      declaredFields: { display: new ReadOnlyField({ source: 'nickname' }) },
    });
    assert.deepEqual(
      [...ProfileSerializer.prepare().byName.keys()],
      ['id', 'display', 'biography', 'nickname', 'user'],
    );
  });

  it('takes extraKwargs, readOnlyFields and declared fields', () => {
    const S = ModelSerializer.with({
      model: Book,
      fields: ['id', 'title', 'isbn', 'price'],
      extraKwargs: { price: { required: false }, title: { label: 'Book title' } },
      readOnlyFields: ['isbn'],
      declaredFields: { title: new CharField({ maxLength: 5 }) },
    });
    const fields = S.prepare().byName;
    assert.equal(fields.get('price')?.required, false);
    assert.equal(fields.get('isbn')?.readOnly, true);
    // A declared field wins over the built one, extraKwargs included.
    assert.equal((fields.get('title') as CharField).maxLength, 5);
    assert.equal(fields.get('title')?.label, 'Title');
  });

  it('honours exclude', () => {
    const S = ModelSerializer.with({
      model: Book,
      fields: '__all__',
      exclude: ['added', 'summary', 'owner'],
    });
    assert.deepEqual(
      [...S.prepare().byName.keys()],
      ['id', 'title', 'isbn', 'price', 'pages', 'in_print', 'published', 'state'],
    );
  });

  it('reads computed properties as read-only fields', () => {
    const S = ModelSerializer.with({ model: User, fields: ['id', 'username', 'full_name'] });
    const serializer = new S({
      instance: { id: 1, username: 'ada', first_name: 'Ada', last_name: 'Lovelace', email: '' },
    });
    assert.equal(serializer.fields.get('full_name')?.readOnly, true);
    assert.deepEqual(serializer.data, { id: 1, username: 'ada', full_name: 'Ada Lovelace' });
  });

  it('fails at start-up on an unknown field name', () => {
    // @ts-expect-error: the compiler refuses the unknown name too.
    class BadSerializer extends ModelSerializer.with({ model: Book, fields: ['id', 'nope'] }) {}
    assertImproperlyConfigured(
      () => BadSerializer.prepare(),
      'REST_ERR_SERIALIZER_FIELD',
      /Field name 'nope' is not valid for model 'Book' in 'BadSerializer'\./,
    );
  });

  it('fails at start-up on a declaration option the class does not know, naming it', () => {
    // Each declaration is made in its own function: one table of three inferred classes asks
    // the compiler for their common type, which it gives up on.
    const misspelt = (): { prepare(): unknown } =>
      ModelSerializer.with({
        model: Book,
        fields: ['id', 'title'],
        // @ts-expect-error: the compiler refuses the unknown option too.
        readOnlyField: ['title'],
      });
    // The compiler accepts tricks' option anywhere once tricks is in the program (declaration
    // merging is global); start-up refuses it on core's class.
    const addOnOption = (): { prepare(): unknown } =>
      ModelSerializer.with({ model: Book, fields: ['id'], nestedProxyField: true });
    const plain = (): { prepare(): unknown } =>
      // @ts-expect-error: a plain serializer takes fields only.
      Serializer.with({ fields: { title: new CharField() }, model: Book });
    const cases: [() => { prepare(): unknown }, RegExp][] = [
      [
        misspelt,
        /: the declaration option 'readOnlyField' is not one .* knows\. Known options: model, fields, exclude, readOnlyFields, extraKwargs, declaredFields, depth\./,
      ],
      [addOnOption, /the declaration option 'nestedProxyField' is not one/],
      [plain, /the declaration option 'model' is not one .* knows\. Known options: fields\./],
    ];
    for (const [make, message] of cases) {
      const Bad = make();
      assertImproperlyConfigured(() => Bad.prepare(), 'REST_ERR_SERIALIZER_OPTION', message);
      assert.throws(() => Bad.prepare(), { code: 'REST_ERR_SERIALIZER_OPTION' });
    }
  });

  it('fails at start-up on a declared field missing from fields', () => {
    class BadSerializer extends ModelSerializer.with({
      model: Book,
      fields: ['id', 'title'],
      // @ts-expect-error: the compiler refuses a declared field missing from fields too.
      declaredFields: { extra: new CharField() },
    }) {}
    assertImproperlyConfigured(
      () => BadSerializer.prepare(),
      'REST_ERR_SERIALIZER_META',
      /The field 'extra' was declared on serializer BadSerializer, but has not been included in the 'fields' option\./,
    );
  });

  it('fails at start-up on a writable nested serializer with a source', () => {
    const UserSerializer = ModelSerializer.with({ model: User, fields: ['username'] });
    class BadSerializer extends ModelSerializer.with({
      model: Profile,
      fields: ['id', 'owner_user'],
      declaredFields: { owner_user: new UserSerializer({ source: 'user' }) },
    }) {}
    assertImproperlyConfigured(
      () => BadSerializer.prepare(),
      'REST_ERR_NESTED_WRITES',
      /BadSerializer: the field 'owner_user' writes a nested object/,
      /@restframework\/tricks/,
    );
    // Read-only, or with create() and update() of its own, it is fine.
    class ReadOnlyNested extends ModelSerializer.with({
      model: Profile,
      fields: ['id', 'owner_user'],
      declaredFields: { owner_user: new UserSerializer({ source: 'user', readOnly: true }) },
    }) {}
    assert.doesNotThrow(() => ReadOnlyNested.prepare());
    assert.deepEqual(ReadOnlyNested.prepare().relatedPaths, ['user']);
  });

  it('fails at start-up on a writable dotted source', () => {
    class BadSerializer extends ModelSerializer.with({
      model: Profile,
      fields: ['id', 'username'],
      declaredFields: { username: new CharField({ source: 'user.username' }) },
    }) {}
    assertImproperlyConfigured(
      () => BadSerializer.prepare(),
      'REST_ERR_NESTED_WRITES',
      /writes through 'user\.username'/,
    );
  });

  it('fails at start-up on a source the model does not have', () => {
    class BadSerializer extends ModelSerializer.with({
      model: Profile,
      fields: ['id', 'name'],
      declaredFields: { name: new ReadOnlyField({ source: 'user.nam' }) },
    }) {}
    assertImproperlyConfigured(
      () => BadSerializer.prepare(),
      'REST_ERR_FIELD_SOURCE',
      /User has no field or property "nam"/,
    );
  });
});

for (const dialect of testDialects()) {
  describe(`ModelSerializer on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;

    before(async () => {
      db = await dialect.create();
      await db.migrate(ALL_MODELS);
      Database.setDefault(db);
    });
    after(async () => {
      Database.setDefault(undefined);
      await dialect.drop(db);
    });
    beforeEach(async () => {
      await Book.objects.delete();
      await Profile.objects.delete();
      await User.objects.delete();
    });

    class BookSerializer extends ModelSerializer.with({
      model: Book,
      fields: [
        'id',
        'title',
        'isbn',
        'price',
        'pages',
        'in_print',
        'published',
        'added',
        'state',
        'owner',
      ],
    }) {}

    const dune = { title: 'Dune', isbn: '978-0441', price: '9.99' };

    /** Records every UPDATE statement while `fn` runs. */
    async function updatesDuring(fn: () => Promise<unknown>): Promise<string[]> {
      const statements: string[] = [];
      const stop = db.onQuery((q) => {
        if (/^update/i.test(q.sql)) statements.push(q.sql);
      });
      try {
        await fn();
      } finally {
        stop();
      }
      return statements;
    }

    it('creates a row and renders it', async () => {
      const serializer = new BookSerializer({ data: { ...dune, price: 12.5 } });
      assert.deepEqual(await validOf(serializer), {
        title: 'Dune',
        isbn: '978-0441',
        price: '12.50',
      });
      const row = (await serializer.save()) as Row<typeof Book>;
      assert.equal(typeof row.id, 'number');
      const data = serializer.data as Record<string, unknown>;
      assert.match(data.added as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
      assert.deepEqual(
        { ...data, added: undefined },
        {
          id: row.id,
          title: 'Dune',
          isbn: '978-0441',
          price: '12.50',
          pages: 200,
          in_print: true,
          published: null,
          added: undefined,
          state: 'published',
          owner: null,
        },
      );
      assert.deepEqual(await Book.objects.get({ pk: row.id }), row);
    });

    it('validates with the messages DRF gives for model constraints', async () => {
      await Book.objects.create(dune);
      assert.deepEqual(
        await errorsOf(
          new BookSerializer({
            data: {
              title: 'x'.repeat(101),
              isbn: '978-0441',
              price: '1.234',
              pages: -1,
              state: 'bogus',
              owner: 99,
              published: '2023-02-30',
            },
          }),
        ),
        {
          title: ['Ensure this field has no more than 100 characters.'],
          isbn: ['book with this isbn already exists.'],
          price: ['Ensure that there are no more than 2 decimal places.'],
          pages: ['Ensure this value is greater than or equal to 0.'],
          published: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
          state: ['"bogus" is not a valid choice.'],
          owner: ['Invalid pk "99" - object does not exist.'],
        },
      );
      assert.deepEqual(await errorsOf(new BookSerializer({ data: {} })), {
        title: ['This field is required.'],
        isbn: ['This field is required.'],
        price: ['This field is required.'],
      });
    });

    it('writes a relation given by primary key and renders its key', async () => {
      const user = await User.objects.create({ username: 'ann' });
      const profile = await Profile.objects.create({ user_id: user.id });
      const serializer = new BookSerializer({ data: { ...dune, owner: String(profile.id) } });
      await validOf(serializer);
      const row = (await serializer.save()) as Row<typeof Book>;
      assert.equal(row.owner_id, profile.id);
      assert.equal((serializer.data as Record<string, unknown>).owner, profile.id);
    });

    it('updates only the columns that changed on PUT, every column sent on PATCH', async () => {
      const book = await Book.objects.create(dune);
      const serializer = new BookSerializer({
        instance: book,
        data: { ...dune, title: 'Dune Messiah', price: '9.990', in_print: 'true' },
      });
      // '9.990' has three places: refused, nothing written.
      assert.deepEqual(await errorsOf(serializer), {
        price: ['Ensure that there are no more than 2 decimal places.'],
      });

      const put = new BookSerializer({
        instance: book,
        data: { ...dune, title: 'Dune Messiah', in_print: 'true' },
      });
      await validOf(put);
      const updates = await updatesDuring(() => put.save());
      assert.equal(updates.length, 1);
      assert.match(ansiQuoted(updates[0]), /set "title" = (\?|\$1) where/);
      assert.equal((put.data as Record<string, unknown>).title, 'Dune Messiah');

      const unchanged = new BookSerializer({
        instance: put.instance,
        data: { title: 'Dune Messiah' },
        partial: true,
      });
      await validOf(unchanged);
      // A PATCH writes what it sends, even a value the row read at its start already had:
      // that row may be stale, and skipping would lose this write.
      const patched = await updatesDuring(() => unchanged.save());
      assert.equal(patched.length, 1);
      assert.match(ansiQuoted(patched[0]), /set "title" = (\?|\$1) where/);
    });

    it('never queries for uniqueness with a value another check refused', async () => {
      // Table-driven: each value fails a check that runs before the unique one (a NUL, which
      // PostgreSQL cannot even compare; a lone surrogate; a value too long for the column).
      const cases: [string, string][] = [
        ['978\u0000', 'Null characters are not allowed.'],
        ['978\uD800', 'Surrogate characters are not allowed: U+D800.'],
        ['9'.repeat(1000), 'Ensure this field has no more than 20 characters.'],
      ];
      for (const [isbn, message] of cases) {
        let queries = 0;
        const stop = db.onQuery(() => queries++);
        const serializer = new BookSerializer({ data: { ...dune, isbn } });
        try {
          assert.equal(await serializer.isValid(), false);
        } finally {
          stop();
        }
        assert.deepEqual((serializer.errors as Record<string, unknown>).isbn, [message]);
        assert.equal(
          queries,
          0,
          `the unique check queried with ${JSON.stringify(isbn.slice(0, 10))}`,
        );
      }
      // A value the other checks accept is still checked against the table.
      const first = new BookSerializer({ data: dune });
      assert.equal(await first.isValid(), true);
      await first.save();
      const again = new BookSerializer({ data: dune });
      assert.equal(await again.isValid(), false);
      assert.deepEqual((again.errors as Record<string, unknown>).isbn, [
        'book with this isbn already exists.',
      ]);
    });

    it('accepts its own unique value on update', async () => {
      const book = await Book.objects.create(dune);
      const serializer = new BookSerializer({
        instance: book,
        data: { isbn: '978-0441' },
        partial: true,
      });
      assert.deepEqual(await validOf(serializer), { isbn: '978-0441' });
    });

    it('turns a unique race lost at the database into the same field error', async () => {
      const first = new BookSerializer({ data: dune });
      const second = new BookSerializer({ data: { ...dune, title: 'Also Dune' } });
      // Both pass validation before either is saved.
      await validOf(first);
      await validOf(second);
      await first.save();
      await assert.rejects(second.save(), (error: unknown) => {
        assert.ok(error instanceof ValidationError, `expected a ValidationError, got ${error}`);
        assert.deepEqual(error.detail, { isbn: ['book with this isbn already exists.'] });
        return true;
      });
      assert.equal(await Book.objects.count(), 1);
    });

    it('reports a required column a serializer left optional', async () => {
      const S = ModelSerializer.with({
        model: Book,
        fields: ['id', 'title', 'isbn', 'price'],
        extraKwargs: { price: { required: false } },
      });
      const serializer = new S({ data: { title: 'x', isbn: 'y' } });
      await validOf(serializer);
      await assert.rejects(serializer.save(), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.deepEqual(error.detail, { price: ['This field is required.'] });
        return true;
      });
    });

    it("writes a nested serializer with source: '*' to the model's own columns", async () => {
      const Pricing = Serializer.with({
        fields: {
          price: new DecimalField({ maxDigits: 10, decimalPlaces: 2 }),
          pages: new IntegerField({ minValue: 0, required: false }),
        },
      });
      const Publishing = Serializer.with({
        fields: {
          isbn: new CharField({ maxLength: 20 }),
          state: new CharField({ required: false }),
        },
      });
      class GroupedBookSerializer extends ModelSerializer.with({
        model: Book,
        fields: ['id', 'title', 'pricing', 'publishing'],
        declaredFields: {
          pricing: new Pricing({ source: '*' }),
          publishing: new Publishing({ source: '*' }),
        },
      }) {}

      const serializer = new GroupedBookSerializer({
        data: {
          title: 'Dune',
          pricing: { price: '9.5', pages: 412 },
          publishing: { isbn: '978-0441' },
        },
      });
      assert.deepEqual(await validOf(serializer), {
        title: 'Dune',
        price: '9.50',
        pages: 412,
        isbn: '978-0441',
      });
      const row = (await serializer.save()) as Row<typeof Book>;
      assert.equal(row.price, '9.50');
      assert.equal(row.pages, 412);
      assert.equal(row.isbn, '978-0441');
      assert.deepEqual(serializer.data, {
        id: row.id,
        title: 'Dune',
        pricing: { price: '9.50', pages: 412 },
        publishing: { isbn: '978-0441', state: 'published' },
      });

      assert.deepEqual(
        await errorsOf(
          new GroupedBookSerializer({
            data: { title: 'x', pricing: { price: 'abc' }, publishing: {} },
          }),
        ),
        {
          pricing: { price: ['A valid number is required.'] },
          publishing: { isbn: ['This field is required.'] },
        },
      );

      // A unique race is reported where the client sent the value.
      const a = new GroupedBookSerializer({
        data: { title: 'a', pricing: { price: '1' }, publishing: { isbn: 'race' } },
      });
      const b = new GroupedBookSerializer({
        data: { title: 'b', pricing: { price: '1' }, publishing: { isbn: 'race' } },
      });
      await validOf(a);
      await validOf(b);
      await a.save();
      await assert.rejects(b.save(), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.deepEqual(error.detail, {
          publishing: { isbn: ['book with this isbn already exists.'] },
        });
        return true;
      });
    });

    it('renders many rows, and creates many', async () => {
      const rows = [
        await Book.objects.create({ ...dune, isbn: '1' }),
        await Book.objects.create({ ...dune, isbn: '2', price: '1' }),
      ];
      const S = ModelSerializer.with({ model: Book, fields: ['id', 'isbn', 'price'] });
      assert.deepEqual(S.many({ instance: rows }).data, [
        { id: rows[0]?.id, isbn: '1', price: '9.99' },
        { id: rows[1]?.id, isbn: '2', price: '1.00' },
      ]);

      const list = BookSerializer.many({
        data: [
          { ...dune, isbn: '3' },
          { ...dune, isbn: '4' },
        ],
      });
      await validOf(list);
      const created = (await list.save()) as Row<typeof Book>[];
      assert.deepEqual(
        created.map((r) => r.isbn),
        ['3', '4'],
      );
      assert.equal(await Book.objects.count(), 4);
    });

    describe('HyperlinkedModelSerializer', () => {
      it("adds a 'url' field reversing '<model>-detail'", async () => {
        const book = await Book.objects.create(dune);
        class LinkedBookSerializer extends HyperlinkedModelSerializer.with({
          model: Book,
          fields: ['url', 'id', 'title'],
        }) {}
        const url = LinkedBookSerializer.prepare().byName.get('url');
        assert.ok(url instanceof HyperlinkedIdentityField);
        assert.equal(url.viewName, 'book-detail');
        assert.deepEqual(new LinkedBookSerializer({ instance: book, context: { request } }).data, {
          url: `http://testserver/book-detail/${book.id}/`,
          id: book.id,
          title: 'Dune',
        });
        assert.deepEqual(
          LinkedBookSerializer.many({ instance: [book], context: { request } }).data,
          [{ url: `http://testserver/book-detail/${book.id}/`, id: book.id, title: 'Dune' }],
        );
      });

      it("puts 'url' first for '__all__', instead of the primary key", () => {
        const S = HyperlinkedModelSerializer.with({ model: User, fields: '__all__' });
        assert.deepEqual(
          [...S.prepare().byName.keys()],
          ['url', 'username', 'first_name', 'last_name', 'email'],
        );
        assert.equal(
          (S.prepare().byName.get('url') as HyperlinkedIdentityField).viewName,
          'user-detail',
        );
      });

      it("ignores 'url' in input", async () => {
        const S = HyperlinkedModelSerializer.with({
          model: Book,
          fields: ['url', 'title', 'isbn', 'price'],
        });
        const serializer = new S({ data: { ...dune, url: 'http://evil/' }, context: { request } });
        assert.deepEqual(await validOf(serializer), dune);
      });
    });
  });
}

/** SQL with MySQL's backquoted identifiers written in double quotes, as the other dialects do. */
function ansiQuoted(sql: string | undefined): string {
  return (sql ?? '').replaceAll('`', '"');
}
