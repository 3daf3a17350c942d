/**
 * Book (spec 2.1) with its two nested proxy groups (spec 2.2).
 * @module
 */
import { defineModel, models } from '@restframework/core';
import { NestedProxyField } from '@restframework/tricks';

/** The states of a book (spec 3), with their display names. */
export const BOOK_STATES = [
  ['published', 'Published'],
  ['not_published', 'Not published'],
  ['in_progress', 'In progress'],
] as const;

export const Book = defineModel({
  name: 'Book',
  table: 'books_book',
  fields: {
    title: models.CharField({ maxLength: 100 }),
    description: models.TextField({ null: true, blank: true }),
    summary: models.TextField({ null: true, blank: true }),
    publication_date: models.DateField(),
    state: models.CharField({ maxLength: 100, choices: BOOK_STATES, default: 'published' }),
    isbn: models.CharField({ maxLength: 100, unique: true }),
    price: models.DecimalField({ maxDigits: 10, decimalPlaces: 2 }),
    pages: models.PositiveIntegerField({ default: 200 }),
    stock_count: models.PositiveIntegerField({ default: 30 }),
  },
  properties: {
    publishing_information: NestedProxyField('publication_date', 'isbn', 'pages'),
    stock_information: NestedProxyField('stock_count', 'price', 'state'),
  },
  ordering: ['isbn'],
});
