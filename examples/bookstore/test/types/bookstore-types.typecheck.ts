/**
 * The bookstore's wire types, inferred from its declarations with no hand-written interface
 * (issue 27's "done when"). Type-checked by `npm run typecheck`, never run.
 */
import type {
  CreateInput,
  PartialInput,
  Representation,
  Row,
  UpdateInput,
} from '@restframework/core';
import type { Book } from '../../src/models/index.ts';
import type { AuthorSerializer } from '../../src/serializers/author-serializers.ts';
import type {
  BookSerializer,
  NullableBookSerializer,
} from '../../src/serializers/book-serializers.ts';
import type { ProfileSerializer } from '../../src/serializers/profile-serializer.ts';
import type { UploadSerializer } from '../../src/serializers/upload-serializer.ts';

type Equal<X, Y> =
  (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

type NewBook = CreateInput<BookSerializer>;

export const book: NewBook = {
  title: 'Golden Book',
  publishing_information: { publication_date: '2021-03-04', isbn: 'GOLD-0001' },
  stock_information: { price: '19.99', state: 'in_progress' },
};

// @ts-expect-error: a book without a title.
export const noTitle: NewBook = {
  publishing_information: { publication_date: '2021-03-04', isbn: 'GOLD-0002' },
  stock_information: { price: '19.99' },
};

export const noPrice: NewBook = {
  title: 'No price',
  publishing_information: { publication_date: '2021-03-04', isbn: 'GOLD-0003' },
  // @ts-expect-error: a book without stock_information.price.
  stock_information: { state: 'published' },
};

// @ts-expect-error: nor without stock_information at all (price is a NOT NULL column).
export const noStock: NewBook = {
  title: 'No stock',
  publishing_information: { publication_date: '2021-03-04', isbn: 'GOLD-0004' },
};

export const sold: NewBook = {
  title: 'Sold',
  publishing_information: { publication_date: '2021-03-04', isbn: 'GOLD-0005' },
  // @ts-expect-error: 'sold' is not one of the states.
  stock_information: { price: '1.00', state: 'sold' },
};

// A PATCH sends what changes, at any depth.
export const patch: PartialInput<BookSerializer> = { stock_information: { state: 'published' } };
// A PUT keeps the groups it does not send.
export const put: UpdateInput<BookSerializer> = { title: 'Renamed' };

export type DoneWhen = [
  Expect<Equal<Representation<ProfileSerializer>['full_name'], string>>,
  Expect<Equal<NewBook['stock_information']['state'], Row<typeof Book>['state'] | undefined>>,
];

export type ProfileTests = [
  // `user` is write-only: sent as a user's key, never rendered.
  Expect<
    Equal<
      Representation<ProfileSerializer>,
      {
        id: number;
        username: string;
        full_name: string;
        email: string;
        biography: string;
        hobbies: string;
      }
    >
  >,
  Expect<
    Equal<CreateInput<ProfileSerializer>, { biography: string; hobbies: string; user: number }>
  >,
];

export type NullableTests = [
  // The leaves accept null (spec 2.3 rule 4); the server answers 400 for a NOT NULL column.
  Expect<
    Equal<
      NonNullable<PartialInput<NullableBookSerializer>['stock_information']>,
      {
        stock_count?: number | null;
        price?: string | null;
        state?: Row<typeof Book>['state'] | null;
      }
    >
  >,
];

export type AuthorTests = [
  Expect<
    Equal<
      Representation<AuthorSerializer>['contact_information']['personal_contact_information'],
      { email: string; phone_number: string | null; website: string | null }
    >
  >,
];

type NewAuthor = CreateInput<AuthorSerializer>;

// The contact groups may be left out: email has a default, and is required only when the
// personal group is sent (as the server checks; openapi-required-by-posts.test.ts).
export const author: NewAuthor = { salutation: 'Dr', name: 'Ada' };
export const emptyContact: NewAuthor = { salutation: 'Dr', name: 'Ada', contact_information: {} };
export const businessOnly: NewAuthor = {
  salutation: 'Dr',
  name: 'Ada',
  contact_information: { business_contact_information: { company: 'Analytical' } },
};
export const noEmail: NewAuthor = {
  salutation: 'Dr',
  name: 'Ada',
  // @ts-expect-error: the personal group sent without its email.
  contact_information: { personal_contact_information: { phone_number: '1' } },
};
// @ts-expect-error: an author without a name.
export const noName: NewAuthor = { salutation: 'Dr' };

export type UploadTests = [
  Expect<Equal<CreateInput<UploadSerializer>, { username: string; resume: Blob }>>,
];
