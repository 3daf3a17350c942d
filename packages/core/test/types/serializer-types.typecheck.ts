/**
 * Type tests of the inferred serializer types. Type-checked by `npm run typecheck`, never run:
 * an `Expect<Equal<...>>` that no longer holds, or a `@ts-expect-error` line that compiles,
 * fails the check.
 */
import {
  BooleanField,
  CharField,
  ChoiceField,
  DateTimeField,
  DecimalField,
  EmailField,
  type Input,
  IntegerField,
  ModelSerializer,
  type Representation,
  Serializer,
} from '@restframework/core';
import { Book, User } from '../fixtures/library-models.ts';

/** True when X and Y are the same type (not merely assignable either way). */
export type Equal<X, Y> =
  (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
/** Compiles only for `true`. */
export type Expect<T extends true> = T;

// A plain serializer.

export class CommentSerializer extends Serializer.with({
  fields: {
    email: new EmailField(),
    content: new CharField({ maxLength: 200 }),
    nickname: new CharField({ allowNull: true, required: false }),
    rating: new IntegerField({ minValue: 1, maxValue: 5 }),
    price: new DecimalField({ maxDigits: 10, decimalPlaces: 2 }),
    visible: new BooleanField({ default: true }),
    state: new ChoiceField({
      choices: [
        ['draft', 'Draft'],
        ['published', 'Published'],
      ],
    }),
    created: new DateTimeField({ readOnly: true }),
    password: new CharField({ writeOnly: true }),
  },
}) {}

export type CommentRepresentation = Representation<CommentSerializer>;
export type CommentInput = Input<CommentSerializer>;

export type PlainTests = [
  Expect<
    Equal<
      CommentRepresentation,
      {
        email: string;
        content: string;
        nickname: string | null;
        rating: number;
        price: string;
        visible: boolean;
        state: 'draft' | 'published';
        created: string;
      }
    >
  >,
  Expect<
    Equal<
      CommentInput,
      {
        email?: string;
        content?: string;
        nickname?: string | null;
        rating?: number;
        price?: string;
        visible?: boolean;
        state?: 'draft' | 'published';
        password?: string;
      }
    >
  >,
  // The instance types reach `data` and `validatedData`-typed hooks.
  Expect<Equal<CommentSerializer['representationType'], CommentRepresentation>>,
  Expect<Equal<CommentSerializer['valueType'], CommentInput>>,
];

// @ts-expect-error: a write-only field is never rendered.
export const renderedPassword: CommentRepresentation['password'] = 'secret';
// @ts-expect-error: a read-only field is never accepted.
export const sentCreated: CommentInput['created'] = '2024-01-02T03:04:05Z';
// @ts-expect-error: the rating renders as a number.
export const ratingText: CommentRepresentation['rating'] = '5';
// @ts-expect-error: content is not nullable.
export const nullContent: CommentRepresentation['content'] = null;
// @ts-expect-error: state is one of the choices.
export const otherState: CommentRepresentation['state'] = 'archived';
// @ts-expect-error: a wrong shape is not the inferred one.
export type WrongPlain = Expect<Equal<CommentRepresentation, { email: string }>>;

// A nested serializer is typed by its own declaration.

const AddressSerializer = Serializer.with({
  fields: { city: new CharField(), zip: new IntegerField({ allowNull: true }) },
});
export class PersonSerializer extends Serializer.with({
  fields: { name: new CharField(), address: new AddressSerializer() },
}) {}

export type NestedTests = [
  Expect<
    Equal<
      Representation<PersonSerializer>,
      { name: string; address: { city: string; zip: number | null } }
    >
  >,
  Expect<
    Equal<
      Input<PersonSerializer>,
      { name?: string; address?: { city?: string; zip?: number | null } }
    >
  >,
];

// @ts-expect-error: zip is a number, not text.
export const zipText: Representation<PersonSerializer>['address']['zip'] = '0150';

// A model serializer: model fields typed from the model, declared fields from their field.

export class BookSerializer extends ModelSerializer.with({
  model: Book,
  fields: ['id', 'title', 'isbn', 'price', 'pages', 'published', 'summary', 'owner_id', 'headline'],
  declaredFields: {
    headline: new CharField({ source: 'title', readOnly: true }),
  },
}) {}

export type BookRepresentation = Representation<BookSerializer>;
export type BookInput = Input<BookSerializer>;

export type ModelTests = [
  Expect<
    Equal<
      BookRepresentation,
      {
        id: number;
        title: string;
        isbn: string;
        price: string;
        pages: number;
        published: string | null;
        summary: string | null;
        owner_id: number | null;
        headline: string;
      }
    >
  >,
  Expect<
    Equal<
      BookInput,
      {
        title?: string;
        isbn?: string;
        price?: string;
        pages?: number;
        published?: string | null;
        summary?: string | null;
        owner_id?: number | null;
      }
    >
  >,
];

// @ts-expect-error: id is rendered, never accepted.
export const sentId: BookInput['id'] = 1;
// @ts-expect-error: a declared read-only field is never accepted.
export const sentHeadline: BookInput['headline'] = 'x';
// @ts-expect-error: price is an exact decimal string, not a number.
export const numericPrice: BookRepresentation['price'] = 12.5;
// @ts-expect-error: title is not nullable in the model.
export const nullTitle: BookRepresentation['title'] = null;
// @ts-expect-error: a field of another model is not there.
export const username: BookRepresentation['username'] = 'ann';

// Computed properties are typed by their getter.

export class UserSerializer extends ModelSerializer.with({
  model: User,
  fields: ['id', 'username', 'full_name'],
}) {}

export type PropertyTests = [
  Expect<
    Equal<Representation<UserSerializer>, { id: number; username: string; full_name: string }>
  >,
];

// @ts-expect-error: full_name is a string.
export const numericName: Representation<UserSerializer>['full_name'] = 1;
