/**
 * The browsable API's forms for the fields of issue 40: hidden fields are not shown (their
 * value is their default), lists and dictionaries send the raw data form (many relations and
 * multiple choices are a `<select multiple>`: `many-select.test.ts`), and
 * read-only computed values show without a name, so they are never sent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CharField,
  DictField,
  HiddenField,
  IntegerField,
  ListField,
  MultipleChoiceField,
  Serializer,
  SerializerMethodField,
} from '@restframework/core';
import { htmlForm, valueLookup } from '@restframework/core/internal';

class NoteSerializer extends Serializer.with({
  fields: {
    text: new CharField(),
    owner: new HiddenField({ default: 1 }),
    scores: new ListField({ child: new IntegerField() }),
    limits: new DictField(),
    formats: new MultipleChoiceField({ choices: ['a', 'b'] }),
    shout: new SerializerMethodField(),
  },
}) {
  getShout(): string {
    return 'HI';
  }
}

function form(): string {
  return htmlForm({
    id: 'f',
    action: '/notes/',
    methods: ['POST'],
    fields: NoteSerializer.prepare().fields,
    values: valueLookup({ shout: 'HI' }),
    errors: undefined,
    needsScript: false,
    multipart: false,
  }).toString();
}

describe('HTML forms with the fields of issue 40', () => {
  it('leave hidden fields out', () => {
    assert.doesNotMatch(form(), /f-owner|name="owner"/);
  });

  it('send lists and dictionaries to the raw data form', () => {
    const out = form();
    for (const id of ['f-scores', 'f-limits'])
      assert.match(out, new RegExp(`id="${id}">Lists are not supported`));
  });

  it('offer the choices of a multiple choice field, and show a method field without a name', () => {
    const out = form();
    assert.match(out, /<select[^>]* name="formats"/);
    assert.match(out, /<option value="b">b<\/option>/);
    assert.match(out, /id="f-shout"/);
    assert.doesNotMatch(out, /name="shout"/);
  });
});
