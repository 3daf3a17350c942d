import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChoiceField, EMPTY } from '@restframework/core';
import { bindField, fieldValues } from '@restframework/core/testing';

fieldValues('ChoiceField', {
  field: () =>
    new ChoiceField({
      choices: [
        ['poor', 'Poor quality'],
        ['medium', 'Medium quality'],
        ['good', 'Good quality'],
      ],
    }),
  validInputs: [
    ['poor', 'poor'],
    ['good', 'good'],
  ],
  invalidInputs: [
    ['bogus', ['"bogus" is not a valid choice.']],
    ['Poor quality', ['"Poor quality" is not a valid choice.']],
    ['POOR', ['"POOR" is not a valid choice.']],
    [' poor', ['" poor" is not a valid choice.']],
    ['', ['"" is not a valid choice.']],
    [1, ['"1" is not a valid choice.']],
    // Python's str() of the input: True, not true.
    [true, ['"True" is not a valid choice.']],
    [false, ['"False" is not a valid choice.']],
    [null, ['This field may not be null.']],
    [EMPTY, ['This field is required.']],
  ],
  outputs: [
    ['good', 'good'],
    ['unknown', 'unknown'],
  ],
});

fieldValues('ChoiceField with integer choices', {
  field: () =>
    new ChoiceField({
      choices: [
        [1, 'Diesel'],
        [2, 'Petrol'],
      ],
    }),
  validInputs: [
    // '1' and 1 both select the choice 1, as in DRF (choices are looked up by their text).
    [1, 1],
    ['1', 1],
    [2, 2],
    ['2', 2],
  ],
  invalidInputs: [
    [3, ['"3" is not a valid choice.']],
    ['3', ['"3" is not a valid choice.']],
    ['01', ['"01" is not a valid choice.']],
    [1.5, ['"1.5" is not a valid choice.']],
    [true, ['"True" is not a valid choice.']],
  ],
  outputs: [
    [1, 1],
    ['1', 1],
    ['2', 2],
  ],
});

fieldValues('ChoiceField with bare values', {
  field: () => new ChoiceField({ choices: ['red', 'green'] }),
  validInputs: [['red', 'red']],
  invalidInputs: [['blue', ['"blue" is not a valid choice.']]],
});

fieldValues('ChoiceField with allowBlank', {
  field: () => new ChoiceField({ choices: [['a', 'A']], allowBlank: true }),
  validInputs: [
    ['', ''],
    ['a', 'a'],
  ],
  outputs: [['', '']],
});

fieldValues('ChoiceField with allowNull', {
  field: () => new ChoiceField({ choices: [['a', 'A']], allowNull: true }),
  validInputs: [[null, null]],
  invalidInputs: [['', ['"" is not a valid choice.']]],
});

describe('ChoiceField.describe()', () => {
  it('lists the choices with their display names', () => {
    const field = bindField(
      new ChoiceField({
        choices: [
          ['published', 'Published'],
          ['draft', 'Draft'],
        ],
      }),
      'state',
    );
    assert.deepEqual(field.describe(), {
      type: 'choice',
      required: true,
      read_only: false,
      label: 'State',
      choices: [
        { value: 'published', display_name: 'Published' },
        { value: 'draft', display_name: 'Draft' },
      ],
    });
  });

  it('leaves the choices out for a read-only field', () => {
    const field = bindField(new ChoiceField({ choices: [['a', 'A']], readOnly: true }), 'state');
    assert.equal('choices' in field.describe(), false);
  });
});
