/**
 * Tricks' DjangoFilterBackend: the names a client sees on a model with nested proxy groups
 * (at any depth, groups declared in place included) filter as the flat names; declared
 * filters keep their own name; OpenAPI lists every name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CharFilter, defineModel, FilterSet, ModelViewSet, models } from '@restframework/core';
import { DjangoFilterBackend, NestedProxyField } from '@restframework/tricks';

const Shop = defineModel({
  name: 'Shop',
  table: 'tricks_filter_shop',
  fields: {
    name: models.CharField({ maxLength: 50 }),
    city: models.CharField({ maxLength: 50 }),
    street: models.CharField({ maxLength: 50 }),
    stock: models.IntegerField({ default: 0 }),
  },
  properties: {
    address: NestedProxyField('city', { details: ['street'] }),
    inventory: NestedProxyField('stock'),
  },
});

class ShopFilters extends FilterSet.with({
  model: Shop,
  fields: { city: ['exact', 'icontains'], street: ['exact'], stock: ['gte'], name: ['exact'] },
  filters: { town: new CharFilter({ fieldName: 'city' }) },
}) {}

class ShopViewSet extends ModelViewSet {
  override queryset = Shop.objects.all();
  filtersetClass = ShopFilters;
}

describe("tricks' DjangoFilterBackend", () => {
  const backend = new DjangoFilterBackend();
  const names = backend.parametersOf(new ShopViewSet())?.byName ?? new Map();

  it('publishes the nested names beside the flat ones, mapped to the same filter', () => {
    const expected: [string, string][] = [
      ['city', 'city'],
      ['address__city', 'city'],
      ['city__icontains', 'city__icontains'],
      ['address__city__icontains', 'city__icontains'],
      ['street', 'street'],
      ['address__details__street', 'street'],
      ['stock__gte', 'stock__gte'],
      ['inventory__stock__gte', 'stock__gte'],
      ['name', 'name'],
      ['town', 'town'],
    ];
    for (const [name, param] of expected) assert.equal(names.get(name)?.param, param, name);
    // A field in no group, and a declared filter, get no nested name.
    assert.equal([...names.keys()].filter((n) => n.endsWith('__name')).length, 0);
    assert.equal(names.has('address__town'), false);
    assert.equal(names.size, expected.length);
  });

  it('lists every name in OpenAPI', () => {
    const parameters = backend.getSchemaOperationParameters(new ShopViewSet());
    assert.deepEqual(parameters.map((p) => p.name).sort(), [...names.keys()].sort());
    assert.deepEqual(parameters.find((p) => p.name === 'inventory__stock__gte')?.schema, {
      type: 'integer',
    });
  });
});
