/**
 * The OPTIONS answer of the book list, written by hand: a hand-written service knows its own
 * fields, so it serializes this once at start-up.
 * @module
 */

const integer = (label: string) => ({
  type: 'integer',
  required: false,
  read_only: false,
  label,
  min_value: 0,
  max_value: 2147483647,
});

export const BOOK_LIST_METADATA = {
  name: 'Book List',
  description: 'Book ViewSet.',
  renders: ['application/json', 'text/html'],
  parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
  actions: {
    POST: {
      url: { type: 'field', required: false, read_only: true, label: 'Url' },
      id: { type: 'integer', required: false, read_only: true, label: 'ID' },
      title: { type: 'string', required: true, read_only: false, label: 'Title', max_length: 100 },
      description: { type: 'string', required: false, read_only: false, label: 'Description' },
      summary: { type: 'string', required: false, read_only: false, label: 'Summary' },
      publishing_information: {
        type: 'nested object',
        required: false,
        read_only: false,
        label: 'Publishing information',
        children: {
          publication_date: {
            type: 'date',
            required: false,
            read_only: false,
            label: 'Publication date',
          },
          isbn: {
            type: 'string',
            required: false,
            read_only: false,
            label: 'Isbn',
            max_length: 100,
          },
          pages: integer('Pages'),
        },
      },
      stock_information: {
        type: 'nested object',
        required: false,
        read_only: false,
        label: 'Stock information',
        children: {
          stock_count: integer('Stock count'),
          price: {
            type: 'decimal',
            required: true,
            read_only: false,
            label: 'Price',
            max_digits: 10,
            decimal_places: 2,
          },
          state: {
            type: 'choice',
            required: false,
            read_only: false,
            label: 'State',
            choices: [
              { value: 'published', display_name: 'Published' },
              { value: 'not_published', display_name: 'Not published' },
              { value: 'in_progress', display_name: 'In progress' },
            ],
          },
        },
      },
    },
  },
};
