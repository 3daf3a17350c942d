/**
 * Type tests of tricks' serializers: nested proxy groups, declared and built from the model,
 * and the group values of models. Type-checked by `npm run typecheck`, never run.
 */
import {
  type CreateInput,
  defineModel,
  models,
  type PartialInput,
  type Representation,
  type UpdateInput,
} from '@restframework/core';
import { ModelSerializer, NestedProxyField } from '@restframework/tricks';
import type {
  AuthorSerializer,
  AutoBookSerializer,
  BookSerializer,
  NoteSerializer,
} from '../fixtures/proxy-app.ts';
import { Author, Book, Note } from '../fixtures/proxy-models.ts';

type Equal<X, Y> =
  (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

type State = 'published' | 'not_published' | 'in_progress';
/** The groups of Book as rendered, and in a create, declared or built from the model alike. */
type Publishing = { publication_date: string; isbn: string; pages: number };
type Stock = { stock_count: number; price: string; state: State };
type NewPublishing = { publication_date: string; isbn: string; pages?: number };
/** Author's group of groups, read from a row and rendered alike. */
type Contact = {
  personal_contact_information: {
    email: string;
    phone_number: string | null;
    website: string | null;
  };
  business_contact_information: {
    company: string | null;
    company_email: string | null;
    company_phone_number: string | null;
    company_website: string | null;
  };
};
type NewStock = { stock_count?: number; price: string; state?: State };

// A group property's value is typed from its members, groups of groups too.

export const publishing = Book.properties.publishing_information.get({});
export const contact = Author.properties.contact_information.get({});
export const location = Note.properties.location.get({});

export type GroupValueTests = [
  Expect<Equal<typeof publishing, Publishing>>,
  Expect<Equal<typeof contact, Contact>>,
  // Inner groups declared in place.
  Expect<Equal<typeof location, { where: { lat: string | null; lng: string | null } }>>,
];

// Declared nested proxy serializers: their own declaration types them.

export type BookTests = [
  Expect<
    Equal<
      Representation<BookSerializer>,
      {
        url: string;
        id: number;
        title: string;
        description: string | null;
        summary: string | null;
        publishing_information: Publishing;
        stock_information: Stock;
      }
    >
  >,
  // A create must supply the NOT NULL columns without a default, in whichever group holds
  // them (publication_date and isbn are optional fields, but required columns).
  Expect<
    Equal<
      CreateInput<BookSerializer>,
      {
        title: string;
        description?: string | null;
        summary?: string | null;
        publishing_information: NewPublishing;
        stock_information: NewStock;
      }
    >
  >,
  // A PUT has the row already: the groups are optional, their required fields required.
  Expect<
    Equal<
      UpdateInput<BookSerializer>,
      {
        title: string;
        description?: string | null;
        summary?: string | null;
        publishing_information?: { publication_date?: string; isbn?: string; pages?: number };
        stock_information?: { stock_count?: number; price: string; state?: State };
      }
    >
  >,
  // A PATCH is partial into the groups.
  Expect<
    Equal<
      PartialInput<BookSerializer>,
      {
        title?: string;
        description?: string | null;
        summary?: string | null;
        publishing_information?: { publication_date?: string; isbn?: string; pages?: number };
        stock_information?: { stock_count?: number; price?: string; state?: State };
      }
    >
  >,
];

// Groups built from the model (no declared serializer) have their leaves.

export type AutoTests = [
  Expect<
    Equal<
      Representation<AutoBookSerializer>,
      {
        id: number;
        title: string;
        publishing_information: Publishing;
        stock_information: Stock;
      }
    >
  >,
  Expect<
    Equal<
      CreateInput<AutoBookSerializer>,
      {
        title: string;
        publishing_information: NewPublishing;
        stock_information: NewStock;
      }
    >
  >,
];

export const noPrice: CreateInput<AutoBookSerializer> = {
  title: 't',
  publishing_information: { publication_date: '2001-01-01', isbn: 'i' },
  // @ts-expect-error: no price in the stock group.
  stock_information: {},
};
// @ts-expect-error: state is one of the choices.
export const soldState: PartialInput<AutoBookSerializer> = { stock_information: { state: 'sold' } };
// @ts-expect-error: a group is not nullable unless allowNull says so.
export const nullGroup: PartialInput<AutoBookSerializer> = { stock_information: null };

// Groups of groups, declared.

export type AuthorTests = [
  Expect<Equal<Representation<AuthorSerializer>['contact_information'], Contact>>,
  // extraKwargs required: true on email makes it required in its group.
  Expect<
    Equal<
      NonNullable<
        NonNullable<
          PartialInput<AuthorSerializer>['contact_information']
        >['personal_contact_information']
      >,
      { email?: string; phone_number?: string | null; website?: string | null }
    >
  >,
];

// allowNull on a group, through extraKwargs of a built group or inner groups in place.

export class NoteAutoSerializer extends ModelSerializer.with({
  model: Note,
  fields: ['id', 'text', 'location'],
  extraKwargs: { location: { allowNull: true } },
}) {}

export type NullGroupTests = [
  Expect<
    Equal<
      CreateInput<NoteAutoSerializer>,
      {
        text: string;
        location?: { where?: { lat?: string | null; lng?: string | null } } | null;
      }
    >
  >,
  Expect<
    Equal<
      Representation<NoteSerializer>['location'],
      { where: { lat: string | null; lng: string | null } }
    >
  >,
];

export const nullLocation: PartialInput<NoteAutoSerializer> = { location: null };

// Names that do not exist fail to compile: group members, fields of nested proxy serializers.

export const unknownMember = () =>
  defineModel({
    name: 'Bad',
    fields: { a: models.TextField() },
    // @ts-expect-error: 'b' is no field or group of Bad.
    properties: { g: NestedProxyField('a', 'b') },
  });
export const unknownInlineMember = () =>
  defineModel({
    name: 'Bad',
    fields: { a: models.TextField() },
    // @ts-expect-error: 'b' is no field or group of Bad, inside an inner group either.
    properties: { g: NestedProxyField({ inner: ['a', 'b'] }) },
  });
export const groupOfGroups = () =>
  defineModel({
    name: 'Good',
    fields: { a: models.TextField(), b: models.TextField() },
    properties: { g1: NestedProxyField('a'), g2: NestedProxyField('g1', 'b') },
  });
export const unknownGroupField = () =>
  // @ts-expect-error: 'prize' is no field of Book.
  ModelSerializer.with({ model: Book, fields: ['price', 'prize'], nestedProxyField: true });
export const inlineOutsideProxy = () =>
  // @ts-expect-error: an inner group is a field of its group's nested serializer only.
  ModelSerializer.with({ model: Note, fields: ['id', 'where'] });
