/**
 * Book serializers (spec 2.3): the main serializer is hyperlinked; each group of the model is
 * a nested proxy serializer named after it.
 * @module
 */
import { HyperlinkedModelSerializer, ModelSerializer } from '@restframework/tricks';
import { Book } from '../models/index.ts';

/** `publishing_information`: every field optional (a create still needs the NOT NULL ones). */
export class PublishingInformationSerializer extends ModelSerializer.with({
  model: Book,
  fields: ['publication_date', 'isbn', 'pages'],
  nestedProxyField: true,
  extraKwargs: { publication_date: { required: false }, isbn: { required: false } },
}) {}

/** `stock_information`: `price` required, the rest have defaults. */
export class StockInformationSerializer extends ModelSerializer.with({
  model: Book,
  fields: ['stock_count', 'price', 'state'],
  nestedProxyField: true,
}) {}

/** The Book representation of spec 2.3. */
export class BookSerializer extends HyperlinkedModelSerializer.with({
  model: Book,
  fields: [
    'url',
    'id',
    'title',
    'description',
    'summary',
    'publishing_information',
    'stock_information',
  ],
  declaredFields: {
    publishing_information: new PublishingInformationSerializer({ required: false }),
    stock_information: new StockInformationSerializer({ required: false }),
  },
}) {}

/** Spec 2.3 rule 4: the leaves accept null (a NOT NULL column still answers 400 at the leaf). */
export class NullablePublishingInformationSerializer extends ModelSerializer.with({
  model: Book,
  fields: ['publication_date', 'isbn', 'pages'],
  nestedProxyField: true,
  extraKwargs: {
    publication_date: { required: false, allowNull: true },
    isbn: { required: false, allowNull: true },
    pages: { required: false, allowNull: true },
  },
}) {}

/** Spec 2.3 rule 4, for the stock group. */
export class NullableStockInformationSerializer extends ModelSerializer.with({
  model: Book,
  fields: ['stock_count', 'price', 'state'],
  nestedProxyField: true,
  extraKwargs: {
    stock_count: { required: false, allowNull: true },
    price: { allowNull: true },
    state: { required: false, allowNull: true },
  },
}) {}

/** The Book representation with null-accepting leaves (route `books-nullable`). */
export class NullableBookSerializer extends HyperlinkedModelSerializer.with({
  model: Book,
  fields: [
    'url',
    'id',
    'title',
    'description',
    'summary',
    'publishing_information',
    'stock_information',
  ],
  declaredFields: {
    publishing_information: new NullablePublishingInformationSerializer({ required: false }),
    stock_information: new NullableStockInformationSerializer({ required: false }),
  },
}) {}
