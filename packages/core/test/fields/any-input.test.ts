/**
 * Every field of issue 40 answers any client value with its value or a ValidationError (a
 * 400), never another error: generated values of every JSON shape, and near misses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CharField,
  DictField,
  HiddenField,
  IntegerField,
  IPAddressField,
  ListField,
  MultipleChoiceField,
  PrimaryKeyRelatedField,
  RegexField,
  Serializer,
  SlugRelatedField,
  ValidationError,
} from '@restframework/core';
import { assertImproperlyConfigured } from '@restframework/core/testing';
import fc from 'fast-check';

describe('the fields of lists, choices, patterns and addresses, given any input', () => {
  it('answer a value or a ValidationError, never another error', async () => {
    const Item = Serializer.with({ fields: { n: new IntegerField() } });
    const fields = [
      new ListField(),
      new ListField({ child: new IntegerField(), allowEmpty: false, maxLength: 3 }),
      new ListField({ child: new Item() }),
      new ListField({ child: new ListField({ child: new CharField() }) }),
      new DictField(),
      new DictField({ child: new IntegerField(), allowEmpty: false }),
      new MultipleChoiceField({ choices: ['a', 'b', 1] }),
      new RegexField({ regex: /^[a-z]{2,4}$/ }),
      new IPAddressField(),
      new IPAddressField({ protocol: 'ipv6' }),
      new IPAddressField({ unpackIpv4: true }),
      new HiddenField({ default: 1 }),
    ];
    for (const field of fields) field.bind('value', '', null);
    const ctx = { partial: false, context: {}, instance: undefined };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          fc.jsonValue(),
          fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null))),
          fc.dictionary(fc.string(), fc.jsonValue()),
          fc.stringMatching(/^[0-9a-fA-F:.%]{0,45}$/),
          fc.ipV6(),
          fc.ipV4Extended(),
        ),
        async (input) => {
          for (const field of fields) {
            try {
              await field.runValidation(input, ctx);
            } catch (error) {
              assert.ok(
                error instanceof ValidationError,
                `${field.constructor.name}: ${String(error)}`,
              );
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('IPAddressField accepts every address, and cleans it to one Node reads the same', async () => {
    const field = new IPAddressField();
    field.bind('ip', '', null);
    const ctx = { partial: false, context: {}, instance: undefined };
    const { isIP } = await import('node:net');
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.ipV4(), fc.ipV6()), async (address) => {
        const cleaned = (await field.runValidation(address, ctx)) as string;
        assert.notEqual(isIP(cleaned), 0, cleaned);
        assert.equal(cleaned, cleaned.toLowerCase());
      }),
      { numRuns: 300 },
    );
  });
});

describe('the fields of issue 40, given an option they do not know', () => {
  it('fail at start-up, naming it and the options they know', () => {
    const made: [string, () => unknown][] = [
      ['ListField', () => new ListField({ maxItems: 3 } as never)],
      ['DictField', () => new DictField({ keys: [] } as never)],
      [
        'MultipleChoiceField',
        () => new MultipleChoiceField({ choices: ['a'], many: true } as never),
      ],
      ['RegexField', () => new RegexField({ regex: /a/, pattern: 'a' } as never)],
      ['IPAddressField', () => new IPAddressField({ unpack: true } as never)],
      [
        'PrimaryKeyRelatedField.many',
        () =>
          PrimaryKeyRelatedField.many({
            queryset: undefined,
            readOnly: true,
            maxItems: 3,
          } as never),
      ],
      [
        'SlugRelatedField',
        () => new SlugRelatedField({ slugField: 'name', readOnly: true, slug_field: 'x' } as never),
      ],
    ];
    for (const [name, make] of made) {
      assertImproperlyConfigured(
        make,
        'REST_ERR_FIELD_OPTIONS',
        new RegExp(
          `^${name.replace('.', '\\.')}: the option '\\w+' is not one ${name.replace('.', '\\.')} knows`,
        ),
      );
    }
  });

  it('let a subclass take options of its own', () => {
    class TagListField extends ListField {
      constructor(options: { separator?: string } = {}) {
        super(options as never);
      }
    }
    assert.doesNotThrow(() => new TagListField({ separator: ',' }));
  });
});
