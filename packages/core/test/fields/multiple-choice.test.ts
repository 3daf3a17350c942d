import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFormInput, EMPTY, MultipleChoiceField, Serializer } from '@restframework/core';
import { bindField, fieldValues } from '@restframework/core/testing';

const choices = [
  ['paperback', 'Paperback'],
  ['ebook', 'E-book'],
] as const;

fieldValues('MultipleChoiceField', {
  field: () => new MultipleChoiceField({ choices }),
  validInputs: [
    [['paperback'], ['paperback']],
    [
      ['ebook', 'paperback', 'ebook'],
      ['ebook', 'paperback'],
    ],
    [[], []],
  ],
  invalidInputs: [
    ['paperback', ['Expected a list of items but got type "str".']],
    [{ a: 1 }, ['Expected a list of items but got type "dict".']],
    [['audio'], ['"audio" is not a valid choice.']],
    [[true], ['"True" is not a valid choice.']],
    [null, ['This field may not be null.']],
    [EMPTY, ['This field is required.']],
  ],
  outputs: [
    [['ebook'], ['ebook']],
    [new Set(['ebook', 'paperback']), ['ebook', 'paperback']],
  ],
});

fieldValues('MultipleChoiceField with integer choices and allowEmpty: false', {
  field: () => new MultipleChoiceField({ choices: [1, 2, 3], allowEmpty: false }),
  validInputs: [
    [
      ['1', 2],
      [1, 2],
    ],
  ],
  invalidInputs: [
    [[], ['This selection may not be empty.']],
    [[4], ['"4" is not a valid choice.']],
  ],
});

describe('MultipleChoiceField', () => {
  it('takes invalid_choice from errorMessages', async () => {
    const field = bindField(
      new MultipleChoiceField({ choices, errorMessages: { invalid_choice: 'No {input}.' } }),
    );
    await assert.rejects(
      async () => field.runValidation(['x'], { partial: false, context: {}, instance: undefined }),
      (error: { detail: unknown }) => {
        assert.deepEqual(error.detail, ['No x.']);
        return true;
      },
    );
  });

  it('is an array of the enum in OpenAPI and lists its choices in OPTIONS', () => {
    const field = bindField(new MultipleChoiceField({ choices }));
    assert.deepEqual(field.jsonSchema(), {
      type: 'array',
      items: { type: 'string', enum: ['paperback', 'ebook'] },
      uniqueItems: true,
      description: '* `paperback` - Paperback\n* `ebook` - E-book',
    });
    assert.deepEqual(field.describe().choices, [
      { value: 'paperback', display_name: 'Paperback' },
      { value: 'ebook', display_name: 'E-book' },
    ]);
    assert.equal(field.describe().type, 'multiple choice');
  });

  it('reads a form: indexed keys, one key, or nothing (an empty selection)', async () => {
    const Formats = Serializer.with({ fields: { formats: new MultipleChoiceField({ choices }) } });
    for (const [entries, expected] of [
      [[['formats', 'ebook']], ['ebook']],
      [
        [
          ['formats[0]', 'ebook'],
          ['formats[1]', 'paperback'],
        ],
        ['ebook', 'paperback'],
      ],
      [[], []],
    ] as const) {
      const serializer = new Formats({ data: createFormInput(entries as never) });
      assert.equal(await serializer.isValid(), true);
      assert.deepEqual(serializer.validatedData, { formats: expected });
    }
  });
});
