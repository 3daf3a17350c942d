/**
 * Type tests of the inferred serializer and model types. Type-checked by `npm run typecheck`,
 * never run: an `Expect<Equal<...>>` that no longer holds, or a `@ts-expect-error` line that
 * compiles, fails the check.
 */
import {
  BooleanField,
  CharField,
  ChoiceField,
  type CreateInput,
  CurrentUserDefault,
  DateTimeField,
  DecimalField,
  DictField,
  defineModel,
  EmailField,
  FileField,
  HiddenField,
  HyperlinkedModelSerializer,
  HyperlinkedRelatedField,
  type Input,
  IntegerField,
  IPAddressField,
  ListField,
  type ListSerializer,
  ModelSerializer,
  MultipleChoiceField,
  models,
  type PartialInput,
  PrimaryKeyRelatedField,
  RegexField,
  type Representation,
  type Row,
  type RunContext,
  Serializer,
  SerializerMethodField,
  SlugRelatedField,
  StringRelatedField,
  type UpdateInput,
} from '@restframework/core';
import { Book, Profile, User } from '../fixtures/library-models.ts';

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
  // Required keys are required in a create and a PUT; a default or required: false is optional.
  Expect<
    Equal<
      CreateInput<CommentSerializer>,
      {
        email: string;
        content: string;
        nickname?: string | null;
        rating: number;
        price: string;
        visible?: boolean;
        state: 'draft' | 'published';
        password: string;
      }
    >
  >,
  Expect<Equal<UpdateInput<CommentSerializer>, CreateInput<CommentSerializer>>>,
  Expect<
    Equal<
      PartialInput<CommentSerializer>,
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
  // The deprecated Input is the validated data, every key optional (as it always was).
  Expect<Equal<Input<CommentSerializer>, PartialInput<CommentSerializer>>>,
  Expect<Equal<CommentSerializer['representationType'], CommentRepresentation>>,
];

// @ts-expect-error: a write-only field is never rendered.
export const renderedPassword: CommentRepresentation['password'] = 'secret';
// @ts-expect-error: a read-only field is never accepted.
export const sentCreated: CreateInput<CommentSerializer>['created'] = '2024-01-02T03:04:05Z';
// @ts-expect-error: the rating renders as a number.
export const ratingText: CommentRepresentation['rating'] = '5';
// @ts-expect-error: content is not nullable.
export const nullContent: CommentRepresentation['content'] = null;
// @ts-expect-error: state is one of the choices.
export const otherState: CreateInput<CommentSerializer>['state'] = 'archived';
// @ts-expect-error: a create without the required content.
export const noContent: CreateInput<CommentSerializer> = {
  email: 'a@b.org',
  rating: 1,
  price: '1.00',
  state: 'draft',
  password: 'x',
};
// @ts-expect-error: null only where the field allows it.
export const nullEmail: PartialInput<CommentSerializer> = { email: null };
export const nullNickname: PartialInput<CommentSerializer> = { nickname: null };
// @ts-expect-error: a wrong shape is not the inferred one.
export type WrongPlain = Expect<Equal<CommentRepresentation, { email: string }>>;

// A nested serializer is typed by its own declaration; without options it is required.

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
  // The options of a nested serializer's instance are not literal types (a subclass's
  // constructor is not generic), so `required` is unknown to the compiler: the key is optional.
  Expect<
    Equal<
      CreateInput<PersonSerializer>,
      { name: string; address?: { city: string; zip: number | null } }
    >
  >,
  // PATCH is partial at every depth.
  Expect<
    Equal<
      PartialInput<PersonSerializer>,
      { name?: string; address?: { city?: string; zip?: number | null } }
    >
  >,
];

// @ts-expect-error: zip is a number, not text.
export const zipText: Representation<PersonSerializer>['address']['zip'] = '0150';
// @ts-expect-error: the nested city is required in a create.
export const noCity: CreateInput<PersonSerializer> = { name: 'a', address: { zip: null } };

// Declarations with names that do not exist do not compile.

export const plainOption = () =>
  // @ts-expect-error: a plain serializer takes `fields` only.
  Serializer.with({ fields: { a: new CharField() }, readOnlyFields: ['a'] });

// A model serializer: model fields typed from the model, declared fields from their field.

export class BookSerializer extends ModelSerializer.with({
  model: Book,
  fields: [
    'id',
    'title',
    'isbn',
    'price',
    'pages',
    'published',
    'added',
    'summary',
    'state',
    'owner',
    'headline',
  ],
  readOnlyFields: ['isbn'],
  extraKwargs: { pages: { writeOnly: true }, summary: { allowNull: false } },
  declaredFields: {
    headline: new CharField({ source: 'title', readOnly: true }),
  },
}) {}

export type BookRepresentation = Representation<BookSerializer>;

export type ModelTests = [
  Expect<
    Equal<
      BookRepresentation,
      {
        id: number;
        title: string;
        isbn: string;
        price: string;
        published: string | null;
        added: string;
        summary: string;
        state: 'published' | 'draft';
        // A relation renders the related row's key.
        owner: number | null;
        headline: string;
      }
    >
  >,
  // id (auto), added (autoNowAdd), isbn (readOnlyFields), headline (readOnly) are absent;
  // title and price are required; a default, null or blank makes a key optional.
  Expect<
    Equal<
      CreateInput<BookSerializer>,
      {
        title: string;
        price: string;
        pages?: number;
        published?: string | null;
        summary?: string;
        state?: 'published' | 'draft';
        owner?: number | null;
      }
    >
  >,
  Expect<Equal<UpdateInput<BookSerializer>, CreateInput<BookSerializer>>>,
  Expect<
    Equal<
      PartialInput<BookSerializer>,
      {
        title?: string;
        price?: string;
        pages?: number;
        published?: string | null;
        summary?: string;
        state?: 'published' | 'draft';
        owner?: number | null;
      }
    >
  >,
];

// @ts-expect-error: id is rendered, never accepted.
export const sentId: CreateInput<BookSerializer>['id'] = 1;
// @ts-expect-error: readOnlyFields are never accepted.
export const sentIsbn: PartialInput<BookSerializer>['isbn'] = 'x';
// @ts-expect-error: autoNowAdd is never accepted.
export const sentAdded: PartialInput<BookSerializer>['added'] = '2024-01-01T00:00:00Z';
// @ts-expect-error: a declared read-only field is never accepted.
export const sentHeadline: CreateInput<BookSerializer>['headline'] = 'x';
// @ts-expect-error: write-only through extraKwargs: never rendered.
export const renderedPages: BookRepresentation['pages'] = 1;
// @ts-expect-error: price is an exact decimal string, not a number.
export const numericPrice: BookRepresentation['price'] = 12.5;
// @ts-expect-error: title is not nullable in the model.
export const nullTitle: BookRepresentation['title'] = null;
// @ts-expect-error: extraKwargs allowNull: false takes null away.
export const nullSummary: PartialInput<BookSerializer> = { summary: null };
// @ts-expect-error: the model's choices, not any text.
export const soldState: PartialInput<BookSerializer> = { state: 'sold' };
// @ts-expect-error: a relation takes the related key, not the row.
export const ownerRow: PartialInput<BookSerializer> = { owner: { id: 1 } };
// @ts-expect-error: a create without title.
export const noTitle: CreateInput<BookSerializer> = { price: '1.00' };
// @ts-expect-error: a field of another model is not there.
export const username: BookRepresentation['username'] = 'ann';

// Names and options that do not exist fail to compile, at the word that is wrong.

export const unknownField = () =>
  // @ts-expect-error: no field 'titel'.
  ModelSerializer.with({ model: Book, fields: ['id', 'titel'] });
// A relation is listed by its name, not its column.
// @ts-expect-error: 'owner_id' is the column; the field is 'owner'.
export const columnName = () => ModelSerializer.with({ model: Book, fields: ['owner_id'] });
export const unknownReadOnly = () =>
  ModelSerializer.with({
    model: Book,
    fields: ['id', 'title'],
    // @ts-expect-error: readOnlyFields names a field that is not in fields.
    readOnlyFields: ['isbn'],
  });
export const unknownExtra = () =>
  ModelSerializer.with({
    model: Book,
    fields: ['id', 'title'],
    // @ts-expect-error: an extraKwargs key that is not in fields.
    extraKwargs: { titel: { required: false } },
  });
export const unknownExclude = () =>
  // @ts-expect-error: exclude names a field that '__all__' does not have.
  ModelSerializer.with({ model: Book, fields: '__all__', exclude: ['nope'] });
export const unknownOption = () =>
  ModelSerializer.with({
    model: Book,
    fields: ['id'],
    // @ts-expect-error: readOnlyField (no s) is no option.
    readOnlyField: ['id'],
  });
export const urlOnPlainModel = () =>
  // @ts-expect-error: 'url' is a field of hyperlinked serializers only.
  ModelSerializer.with({ model: Book, fields: ['url', 'id'] });
export const allFields = () =>
  ModelSerializer.with({ model: Book, fields: '__all__', exclude: ['summary'] });

// '__all__': the key, declared fields and every model field, less exclude.

export class AllBookSerializer extends ModelSerializer.with({
  model: Book,
  fields: '__all__',
  exclude: ['summary', 'owner', 'added', 'published'],
}) {}

export type AllTests = [
  Expect<
    Equal<
      Representation<AllBookSerializer>,
      {
        id: number;
        title: string;
        isbn: string;
        price: string;
        pages: number;
        in_print: boolean;
        state: 'published' | 'draft';
      }
    >
  >,
];

// A hyperlinked serializer renders `url`, a string, and never accepts it.

export class BookLinkSerializer extends HyperlinkedModelSerializer.with({
  model: Book,
  fields: ['url', 'id', 'title'],
}) {}

export type LinkTests = [
  Expect<Equal<Representation<BookLinkSerializer>, { url: string; id: number; title: string }>>,
  Expect<Equal<CreateInput<BookLinkSerializer>, { title: string }>>,
];

// Computed properties are typed by their getter, read-only.

export class UserSerializer extends ModelSerializer.with({
  model: User,
  fields: ['id', 'username', 'full_name'],
}) {}

export type PropertyTests = [
  Expect<
    Equal<Representation<UserSerializer>, { id: number; username: string; full_name: string }>
  >,
  Expect<Equal<CreateInput<UserSerializer>, { username: string }>>,
];

// @ts-expect-error: full_name is a string.
export const numericName: Representation<UserSerializer>['full_name'] = 1;
// @ts-expect-error: a computed property is never accepted.
export const sentName: PartialInput<UserSerializer> = { full_name: 'x' };

// Declared relations: the key type of the queryset's model; a nested serializer over a
// relation renders the related representation.

export class ProfileSerializer extends ModelSerializer.with({
  model: Profile,
  fields: ['id', 'user', 'owner', 'biography'],
  declaredFields: {
    owner: new UserSerializer({ source: 'user', readOnly: true }),
    user: new PrimaryKeyRelatedField({ queryset: User.objects.all(), writeOnly: true }),
  },
}) {}

export type RelationTests = [
  Expect<
    Equal<
      Representation<ProfileSerializer>,
      // A nested serializer instance's options are not literal types: not read-only to the
      // types, as the declaration says with `readOnly: true` at run time only.
      {
        id: number;
        owner: { id: number; username: string; full_name: string };
        biography: string;
      }
    >
  >,
  Expect<Equal<CreateInput<ProfileSerializer>['user'], number>>,
];

// A model with a text primary key: relations to it render and take text.

export const Isbn = defineModel({
  name: 'Isbn',
  fields: { code: models.CharField({ maxLength: 13, primaryKey: true }) },
});
export const Copy = defineModel({
  name: 'Copy',
  fields: {
    isbn: models.ForeignKey(Isbn, { onDelete: 'CASCADE' }),
    scan: models.FileField({ blank: true }),
  },
});
export class CopySerializer extends ModelSerializer.with({
  model: Copy,
  fields: ['id', 'isbn', 'scan'],
}) {}
export class IsbnSerializer extends ModelSerializer.with({ model: Isbn, fields: '__all__' }) {}

export type KeyTests = [
  // An optional file field renders null when it has no file.
  Expect<Equal<Representation<CopySerializer>, { id: number; isbn: string; scan: string | null }>>,
  // A file is sent as a file (a part of a multipart body).
  Expect<Equal<CreateInput<CopySerializer>, { isbn: string; scan?: Blob }>>,
  // A declared primary key is writable and required.
  Expect<Equal<CreateInput<IsbnSerializer>, { code: string }>>,
  Expect<Equal<Representation<IsbnSerializer>, { code: string }>>,
];

export const fileField = new FileField();
// @ts-expect-error: a file is no text.
export const fileText: CreateInput<CopySerializer>['scan'] = 'scan.pdf';

// Rows: nullability and choices.

export type RowTests = [
  Expect<Equal<Row<typeof Book>['state'], 'published' | 'draft'>>,
  Expect<Equal<Row<typeof Book>['published'], string | null>>,
  Expect<Equal<Row<typeof Book>['owner_id'], number | null>>,
  // The column of a relation holds the related key.
  Expect<Equal<Row<typeof Copy>['isbn_id'], string>>,
  Expect<Equal<Row<typeof Isbn>, { code: string }>>,
];

// A declared field that writes a NOT NULL column without a default: optional for a PUT, but
// a create must send it (the server answers 400 otherwise, as the OpenAPI create body says).

export class LooseBookSerializer extends ModelSerializer.with({
  model: Book,
  fields: ['id', 'title', 'isbn', 'price', 'name'],
  extraKwargs: { isbn: { required: false } },
  declaredFields: {
    title: new CharField({ required: false }),
    name: new CharField({ source: 'price', required: false }),
  },
}) {}

export type ColumnTests = [
  Expect<
    Equal<
      CreateInput<LooseBookSerializer>,
      { title: string; isbn: string; price: string; name: string }
    >
  >,
  Expect<
    Equal<
      UpdateInput<LooseBookSerializer>,
      { title?: string; isbn?: string; price: string; name?: string }
    >
  >,
];

// Lists (`S.many()`): arrays of the child's types, as a root and as a field.

export class ThreadSerializer extends Serializer.with({
  fields: { title: new CharField(), comments: CommentSerializer.many() },
}) {}

export type ListTests = [
  Expect<Equal<CreateInput<ListSerializer<CommentSerializer>>, CreateInput<CommentSerializer>[]>>,
  Expect<Equal<Representation<ThreadSerializer>['comments'], CommentRepresentation[]>>,
  Expect<
    Equal<
      CreateInput<ThreadSerializer>,
      { title: string; comments?: CreateInput<CommentSerializer>[] }
    >
  >,
];

// SerializerMethodField: its method's return type is the field's type in Representation,
// `get<FieldName>` by default (snake_case names too), or the method `methodName` names.

export class FavoriteBookSerializer extends ModelSerializer.with({
  model: Book,
  fields: ['id', 'favorited', 'favorites_count', 'shout'],
  declaredFields: {
    favorited: new SerializerMethodField(),
    favorites_count: new SerializerMethodField(),
    shout: new SerializerMethodField({ methodName: 'loud' }),
  },
}) {
  getFavorited(_row: unknown, _ctx: RunContext): boolean {
    return true;
  }
  getFavoritesCount(): number {
    return 1;
  }
  loud(): string | null {
    return null;
  }
}

export type FavoriteBookChecks = [
  Expect<
    Equal<
      Representation<FavoriteBookSerializer>,
      { id: number; favorited: boolean; favorites_count: number; shout: string | null }
    >
  >,
  // Read-only: no method field in what a client sends.
  Expect<Equal<keyof CreateInput<FavoriteBookSerializer>, never>>,
];

// A nested serializer resolves its own methods, in a list too.
export class ShelfSerializer extends Serializer.with({
  fields: {
    favorite: new FavoriteBookSerializer({ readOnly: true }),
    books: FavoriteBookSerializer.many({ readOnly: true }),
  },
}) {}

export type ShelfChecks = [
  Expect<Equal<Representation<ShelfSerializer>['favorite']['favorited'], boolean>>,
  Expect<Equal<Representation<ShelfSerializer>['books'][number]['shout'], string | null>>,
];

// The options it does not take are compile errors.
// @ts-expect-error a method field has no source: its value is its method's result.
new SerializerMethodField({ source: 'title' });
// @ts-expect-error a method field is always read-only.
new SerializerMethodField({ writeOnly: true });
// @ts-expect-error an option that does not exist.
new SerializerMethodField({ method: 'loud' });

// The fields of lists, dictionaries, choices, hidden values, patterns and addresses.

export class ArticleInputSerializer extends Serializer.with({
  fields: {
    tagList: new ListField({ child: new CharField(), writeOnly: true }),
    scores: new ListField({ child: new IntegerField(), required: false }),
    anything: new ListField({ required: false }),
    limits: new DictField({ child: new IntegerField() }),
    formats: new MultipleChoiceField({ choices: ['paperback', 'ebook'] }),
    owner: new HiddenField({ default: CurrentUserDefault() }),
    code: new RegexField({ regex: /^[a-z]+$/ }),
    ip: new IPAddressField({ protocol: 'IPv4', allowNull: true }),
  },
}) {}

export type ArticleInputChecks = [
  Expect<
    Equal<
      Representation<ArticleInputSerializer>,
      {
        scores: number[];
        anything: unknown[];
        limits: Record<string, number>;
        formats: ('paperback' | 'ebook')[];
        code: string;
        ip: string | null;
      }
    >
  >,
  Expect<
    Equal<
      CreateInput<ArticleInputSerializer>,
      {
        tagList: string[];
        limits: Record<string, number>;
        formats: ('paperback' | 'ebook')[];
        code: string;
        ip: string | null;
        scores?: number[];
        anything?: unknown[];
      }
    >
  >,
  Expect<
    Equal<
      PartialInput<ArticleInputSerializer>,
      {
        tagList?: string[];
        scores?: number[];
        anything?: unknown[];
        limits?: Record<string, number>;
        formats?: ('paperback' | 'ebook')[];
        code?: string;
        ip?: string | null;
      }
    >
  >,
];

// @ts-expect-error an option ListField does not have.
new ListField({ child: new CharField(), maxItems: 3 });
// @ts-expect-error a HiddenField needs a default.
new HiddenField({});
// @ts-expect-error an unknown protocol.
new IPAddressField({ protocol: 'ipv5' });
// @ts-expect-error RegexField needs its regex.
new RegexField({});

// Many relations: a many-to-many built from the model, and declared many fields.

const Genre = defineModel({
  name: 'Genre',
  table: 'tt_genre',
  fields: { name: models.CharField({ maxLength: 20, unique: true }) },
});
const Novel = defineModel({
  name: 'Novel',
  table: 'tt_novel',
  fields: {
    title: models.CharField({ maxLength: 50 }),
    genres: models.ManyToManyField(Genre, { relatedName: 'novels' }),
  },
});

export class NovelSerializer extends ModelSerializer.with({
  model: Novel,
  fields: ['id', 'title', 'genres', 'genreNames', 'genreIds'],
  declaredFields: {
    genreNames: SlugRelatedField.many({
      slugField: 'name',
      queryset: Genre.objects.all(),
      source: 'genres',
      required: false,
    }),
    genreIds: PrimaryKeyRelatedField.many({
      queryset: Genre.objects.all(),
      readOnly: true,
      source: 'genres',
    }),
  },
}) {}

export type NovelChecks = [
  Expect<
    Equal<
      Representation<NovelSerializer>,
      { id: number; title: string; genres: number[]; genreNames: string[]; genreIds: number[] }
    >
  >,
  Expect<
    Equal<CreateInput<NovelSerializer>, { title: string; genres?: number[]; genreNames?: string[] }>
  >,
];

// @ts-expect-error an option a many relation does not have.
PrimaryKeyRelatedField.many({ queryset: Genre.objects.all(), maxItems: 3 });

// Hyperlinked and string relations: a link is a string both ways; a string form only read.

export class LinkedNovelSerializer extends ModelSerializer.with({
  model: Novel,
  fields: ['id', 'title', 'genres', 'genreLinks', 'genreNames'],
  declaredFields: {
    genres: HyperlinkedRelatedField.many({
      viewName: 'genre-detail',
      queryset: Genre.objects.all(),
    }),
    genreLinks: HyperlinkedRelatedField.many({
      viewName: 'genre-detail',
      lookupField: 'name',
      readOnly: true,
      source: 'genres',
    }),
    genreNames: StringRelatedField.many({ source: 'genres' }),
  },
}) {}

export class LinkedProfileSerializer extends ModelSerializer.with({
  model: Profile,
  fields: ['id', 'owner', 'ownerName'],
  declaredFields: {
    owner: new HyperlinkedRelatedField({
      viewName: 'user-detail',
      queryset: User.objects.all(),
      allowNull: true,
      source: 'user',
    }),
    ownerName: new StringRelatedField({ source: 'user' }),
  },
}) {}

export type LinkedChecks = [
  Expect<
    Equal<
      Representation<LinkedNovelSerializer>,
      { id: number; title: string; genres: string[]; genreLinks: string[]; genreNames: string[] }
    >
  >,
  Expect<Equal<CreateInput<LinkedNovelSerializer>, { title: string; genres: string[] }>>,
  Expect<Equal<PartialInput<LinkedNovelSerializer>, { title?: string; genres?: string[] }>>,
  Expect<
    Equal<
      Representation<LinkedProfileSerializer>,
      { id: number; owner: string | null; ownerName: string }
    >
  >,
  Expect<Equal<CreateInput<LinkedProfileSerializer>, { owner: string | null }>>,
];

// @ts-expect-error an option a hyperlinked relation does not have.
new HyperlinkedRelatedField({ viewName: 'genre-detail', readOnly: true, slugField: 'name' });
// @ts-expect-error a hyperlinked relation needs its route's name.
new HyperlinkedRelatedField({ readOnly: true });
// @ts-expect-error a string relation takes no queryset: it is read-only.
new StringRelatedField({ queryset: Genre.objects.all() });
// @ts-expect-error an option a many relation does not have.
HyperlinkedRelatedField.many({ viewName: 'genre-detail', readOnly: true, maxItems: 3 });

// depth: relations built from the model become nested read-only rows, level by level.

const Press = defineModel({
  name: 'Press',
  table: 'tt_press',
  fields: { name: models.CharField({ maxLength: 20 }) },
});
const Poet = defineModel({
  name: 'Poet',
  table: 'tt_poet',
  fields: {
    name: models.CharField({ maxLength: 20 }),
    press: models.ForeignKey(Press, { onDelete: 'CASCADE', null: true }),
  },
});
const Poem = defineModel({
  name: 'Poem',
  table: 'tt_poem',
  fields: {
    title: models.CharField({ maxLength: 50 }),
    poet: models.ForeignKey(Poet, { onDelete: 'CASCADE' }),
    genres: models.ManyToManyField(Genre, { relatedName: 'poems' }),
  },
});

export class DeepPoemSerializer extends ModelSerializer.with({
  model: Poem,
  fields: ['id', 'title', 'poet', 'genres'],
  depth: 2,
}) {}
export class ShallowPoemSerializer extends ModelSerializer.with({
  model: Poem,
  fields: ['id', 'title', 'poet', 'genres'],
  depth: 1,
}) {}

export type DepthChecks = [
  Expect<
    Equal<
      Representation<DeepPoemSerializer>,
      {
        id: number;
        title: string;
        poet: { id: number; name: string; press: { id: number; name: string } | null };
        genres: { id: number; name: string }[];
      }
    >
  >,
  Expect<Equal<CreateInput<DeepPoemSerializer>, { title: string }>>,
  Expect<
    Equal<
      Representation<ShallowPoemSerializer>,
      {
        id: number;
        title: string;
        poet: { id: number; name: string; press: number | null };
        genres: { id: number; name: string }[];
      }
    >
  >,
];
