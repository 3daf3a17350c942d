import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CharField,
  CreateOnlyDefault,
  CurrentUserDefault,
  HiddenField,
  type RequestLike,
  Serializer,
} from '@restframework/core';
import { assertImproperlyConfigured } from '@restframework/core/testing';

const request = { user: { id: 7, username: 'ann' } } as unknown as RequestLike;

class NoteSerializer extends Serializer.with({
  fields: {
    text: new CharField(),
    owner: new HiddenField({ default: CurrentUserDefault() }),
    createdBy: new HiddenField({ default: CreateOnlyDefault(CurrentUserDefault()) }),
    kind: new HiddenField({ default: 'note' }),
  },
}) {}

describe('HiddenField', () => {
  it("takes its default, never the client's value, and is never rendered", async () => {
    const serializer = new NoteSerializer({
      data: { text: 'Hi', owner: 99, kind: 'other', createdBy: 1 },
      context: { request },
    });
    assert.equal(await serializer.isValid(), true);
    assert.deepEqual(serializer.validatedData, {
      text: 'Hi',
      owner: { id: 7, username: 'ann' },
      createdBy: { id: 7, username: 'ann' },
      kind: 'note',
    });
    assert.deepEqual(new NoteSerializer({ instance: { text: 'Hi', kind: 'x' } }).data, {
      text: 'Hi',
    });
  });

  it('CreateOnlyDefault leaves the field out of an update; PATCH leaves every hidden field out', async () => {
    const update = new NoteSerializer({
      instance: { text: 'old' },
      data: { text: 'Hi' },
      context: { request },
    });
    assert.equal(await update.isValid(), true);
    assert.deepEqual(update.validatedData, {
      text: 'Hi',
      owner: { id: 7, username: 'ann' },
      kind: 'note',
    });
    const patch = new NoteSerializer({
      instance: { text: 'old' },
      data: { text: 'Hi' },
      partial: true,
      context: { request },
    });
    assert.equal(await patch.isValid(), true);
    assert.deepEqual(patch.validatedData, { text: 'Hi' });
  });

  it('is left out of OPTIONS, OpenAPI bodies and responses', () => {
    const serializer = new NoteSerializer();
    assert.deepEqual(Object.keys(serializer.describeFields()), ['text']);
    const request = serializer.jsonSchema({ mode: 'request' });
    assert.deepEqual(Object.keys(request.properties as object), ['text']);
    assert.deepEqual(request.required, ['text']);
    const response = serializer.jsonSchema({ mode: 'response' });
    assert.deepEqual(Object.keys(response.properties as object), ['text']);
  });

  it('CurrentUserDefault without a request in the context is a programming mistake', async () => {
    const serializer = new NoteSerializer({ data: { text: 'Hi' } });
    await assert.rejects(
      () => serializer.isValid(),
      (error: Error & { code?: string }) =>
        error.code === 'REST_ERR_FIELD_CONTEXT' && /owner: CurrentUserDefault/.test(error.message),
    );
  });

  it('needs a default, and takes no readOnly, writeOnly or required', () => {
    assertImproperlyConfigured(
      () => new HiddenField({} as never),
      'REST_ERR_FIELD_OPTIONS',
      /a default is required/,
    );
    for (const option of ['readOnly', 'writeOnly', 'required']) {
      assertImproperlyConfigured(
        () => new HiddenField({ default: 1, [option]: true } as never),
        'REST_ERR_FIELD_OPTIONS',
        new RegExp(`'${option}' does not apply`),
      );
    }
  });
});
