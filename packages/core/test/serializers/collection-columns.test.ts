/**
 * The fields of issue 40 over real columns, the same on every test dialect: lists,
 * dictionaries and multiple choices stored in JSON columns, addresses and patterns in text
 * columns, written by ModelSerializer and read back from the database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CharField,
  Database,
  DictField,
  defineModel,
  IntegerField,
  IPAddressField,
  ListField,
  ModelSerializer,
  MultipleChoiceField,
  models,
  RegexField,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';

const Host = defineModel({
  name: 'Host',
  table: 'i40_host',
  fields: {
    name: models.CharField({ maxLength: 20 }),
    address: models.CharField({ maxLength: 39 }),
    aliases: models.JSONField({ default: () => [] }),
    limits: models.JSONField({ default: () => ({}) }),
    roles: models.JSONField({ default: () => [] }),
  },
});

class HostSerializer extends ModelSerializer.with({
  model: Host,
  fields: ['id', 'name', 'address', 'aliases', 'limits', 'roles'],
  declaredFields: {
    name: new RegexField({ regex: /^[a-z][a-z0-9-]*$/, maxLength: 20 }),
    address: new IPAddressField({ unpackIpv4: true }),
    aliases: new ListField({ child: new CharField({ maxLength: 20 }), maxLength: 5 }),
    limits: new DictField({ child: new IntegerField({ minValue: 0 }) }),
    roles: new MultipleChoiceField({ choices: ['web', 'db', 'cache'] }),
  },
}) {}

for (const dialect of testDialects()) {
  describe(`issue 40's fields over columns on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    before(async () => {
      db = await dialect.create();
      await db.migrate([Host]);
      Database.setDefault(db);
    });
    after(async () => {
      Database.setDefault(undefined);
      await dialect.drop(db);
    });

    it('write, store and read back the cleaned values', async () => {
      const serializer = new HostSerializer({
        data: {
          name: 'web-1',
          address: '::FFFF:10.0.0.1',
          aliases: ['www', ' api '],
          limits: { cpu: '2', memory: 512 },
          roles: ['web', 'cache', 'web'],
        },
      });
      assert.equal(await serializer.isValid(), true, JSON.stringify(serializer.errors));
      const row = (await serializer.save()) as { id: number };
      const stored = await Host.objects.get({ pk: row.id });
      assert.deepEqual(new HostSerializer({ instance: stored }).data, {
        id: row.id,
        name: 'web-1',
        address: '10.0.0.1',
        aliases: ['www', 'api'],
        limits: { cpu: 2, memory: 512 },
        roles: ['web', 'cache'],
      });
    });

    it('refuse bad values with 400 messages and store nothing', async () => {
      const before = await Host.objects.count();
      const serializer = new HostSerializer({
        data: {
          name: 'Web 1',
          address: '10.0.0.256',
          aliases: ['a', 'b', 'c', 'd', 'e', 'f'],
          limits: { cpu: -1 },
          roles: ['mail'],
        },
      });
      assert.equal(await serializer.isValid(), false);
      assert.deepEqual(serializer.errors, {
        name: ['This value does not match the required pattern.'],
        address: ['Enter a valid IPv4 or IPv6 address.'],
        aliases: ['Ensure this field has no more than 5 elements.'],
        limits: { cpu: ['Ensure this value is greater than or equal to 0.'] },
        roles: ['"mail" is not a valid choice.'],
      });
      assert.equal(await Host.objects.count(), before);
    });
  });
}
