/**
 * Type tests of issue 39's compile-time checks of query keys and values: `filter`, `exclude`,
 * `get`, `exists`, `getOrCreate` (columns, lookups, relation paths forward, many-to-many and
 * reverse through the `ModelRegistry`, annotations) and `create`, `bulkCreate`, `update`,
 * `updateRow`. Type-checked by `npm run typecheck`, never run: a `@ts-expect-error` line that
 * compiles fails the check.
 */
import {
  type AnyModel,
  Count,
  defineModel,
  F,
  type Filter,
  models,
  OuterRef,
  Q,
  type QuerySet,
  type RelatedSet,
  type ReverseRelationsOf,
  type Row,
} from '@restframework/core';
import type { Equal, Expect } from './serializer-types.typecheck.ts';

const Member = defineModel({
  name: 'TypesMember',
  fields: {
    username: models.CharField({ maxLength: 30 }),
    joined: models.DateField({ null: true }),
    active: models.BooleanField({ default: true }),
    follows: models.ManyToManyField('self', { symmetrical: false, relatedName: 'followers' }),
  },
});

const Label = defineModel({
  name: 'TypesLabel',
  fields: { name: models.CharField({ maxLength: 20 }) },
});

const Room = defineModel({
  name: 'TypesRoom',
  fields: {
    capacity: models.IntegerField(),
    price: models.DecimalField({ maxDigits: 6, decimalPlaces: 2 }),
    notes: models.JSONField({ null: true }),
    owner: models.ForeignKey(Member, { onDelete: 'CASCADE', relatedName: 'rooms' }),
    manager: models.ForeignKey(Member, { onDelete: 'SET_NULL', null: true }),
    labels: models.ManyToManyField(Label, { relatedName: 'rooms' }),
  },
});

const Badge = defineModel({
  name: 'TypesBadge',
  fields: { member: models.OneToOneField(Member, { onDelete: 'CASCADE' }) },
});

declare module '@restframework/core' {
  interface ModelRegistry {
    // Keyed by the model's name: the default reverse names (`types_room_set`) come from the key.
    TypesRoom: typeof Room;
    TypesMember: typeof Member;
    TypesBadge: typeof Badge;
  }
}

// Reverse relations appear in the model types, with their defaults and their arity.
export type MemberReverse = Expect<
  Equal<
    keyof ReverseRelationsOf<typeof Member>,
    'rooms' | 'types_room_set' | 'followers' | 'types_badge'
  >
>;
export type LabelReverse = Expect<Equal<keyof ReverseRelationsOf<typeof Label>, 'rooms'>>;
export type BadgeIsOne = Expect<
  Equal<ReverseRelationsOf<typeof Member>['types_badge']['many'], false>
>;

// Columns, by name, attribute name and pk, with the lookups of their type.
Room.objects.filter({ capacity: 3, capacity__gte: 2, capacity__in: [1, 2], pk: 1 });
Room.objects.filter({ capacity__range: [1, 4], price__lt: '9.99', notes__isnull: true });
Room.objects.filter({ owner: 1, owner_id: 2, manager: null, manager__isnull: true });
Room.objects.filter({ capacity: F('capacity'), owner: OuterRef('pk') });
Member.objects.filter({ username__icontains: 'a', username__unaccent__iexact: 'é' });
Member.objects.filter({ joined__year: 2024, joined__gte: '2024-01-01', active: false });
Room.objects.exclude({ capacity__lte: 1 }).exists({ owner__username: 'ann' });
void Room.objects.get({ pk: 1 });
// @ts-expect-error: capacity holds numbers
Room.objects.filter({ capacity: 'many' });
// @ts-expect-error: __in takes a list
Room.objects.filter({ capacity__in: 3 });
// @ts-expect-error: __range takes two values
Room.objects.filter({ capacity__range: [1] });
// @ts-expect-error: a text match on a number column
Room.objects.filter({ capacity__icontains: '3' });
// @ts-expect-error: a JSONField takes isnull only
Room.objects.filter({ notes__contains: 'x' });
// @ts-expect-error: isnull takes a boolean
Room.objects.filter({ manager__isnull: 'yes' });
// @ts-expect-error: there is no field nope
Room.objects.filter({ nope: 1 });
// @ts-expect-error: nor a lookup nope
Room.objects.exclude({ capacity__nope: 1 });
// @ts-expect-error: get() checks the same
void Room.objects.get({ capacity: 'x' });
// @ts-expect-error: exists() too
void Room.objects.exists({ nope: 1 });

// Forward relation paths, many-to-many both ways, reverse names from the registry.
Room.objects.filter({ owner__username: 'ann', owner__username__in: ['a'], labels__name: 'x' });
Room.objects.filter({ labels__name__in: ['a', 'b'], owner__follows__username: 'bob' });
Member.objects.filter({ rooms__capacity__gt: 2, rooms__isnull: false, followers__active: true });
Member.objects.filter({ types_badge__isnull: true, types_room_set__labels__name: 'x', rooms: 1 });
Label.objects.filter({ rooms__owner__followers__username__startswith: 'a' });
// @ts-expect-error: Member has no field email
Room.objects.filter({ owner__email: 'a@b.c' });
// @ts-expect-error: the related username is text
Room.objects.filter({ owner__username: 1 });
// @ts-expect-error: a reverse name not declared
Member.objects.filter({ articles__title: 'x' });
// @ts-expect-error: the reverse rows' capacity is a number
Member.objects.filter({ rooms__capacity: 'big' });
// @ts-expect-error: Label has no field title
Label.objects.filter({ rooms__labels__title: 'x' });
// Past MAX_TYPED_RELATIONS (4) relations a key is accepted and checked at run time.
Label.objects.filter({ rooms__owner__followers__rooms__owner__nope: 1 });

// Keys computed at run time, Q objects and AnyModel query sets stay accepted.
declare const computed: Filter;
declare const key: string;
Room.objects.filter(computed).filter({ [key]: 1 });
Room.objects.filter(Q({ capacity__gte: 1 }).or({ owner__username: 'x' }));

// Annotations join the keys, with their own type.
const counted = Room.objects.annotate({ n: Count('labels') });
counted.filter({ n__gte: 1, n: 2, capacity: 1 });
// @ts-expect-error: the count is a number
counted.filter({ n: 'one' });
// @ts-expect-error: counts take no text lookup
counted.filter({ n__icontains: '1' });

// Model.related is typed by the relation: forward many-to-manys, 'self', and reverse names of
// registered models (foreign keys, many-to-manys, one-to-ones), their rows typed too.
export type RelatedSets = [
  Expect<Equal<ReturnType<typeof Room.related<typeof Room, 'labels'>>, RelatedSet<typeof Label>>>,
  Expect<Equal<typeof memberRooms, RelatedSet<typeof Room>>>,
  Expect<Equal<typeof labelRooms, RelatedSet<typeof Room>>>,
  Expect<Equal<typeof followers, RelatedSet<typeof Member>>>,
  Expect<Equal<typeof badge, RelatedSet<typeof Badge>>>,
  Expect<Equal<Awaited<ReturnType<typeof memberRooms.execute>>, Row<typeof Room>[]>>,
  Expect<Equal<Awaited<ReturnType<typeof badge.get>>, Row<typeof Badge>>>,
];
const memberRooms = Member.related(1, 'rooms');
const labelRooms = Label.related(1, 'rooms');
const followers = Member.related(1, 'followers');
const badge = Member.related(1, 'types_badge');
void memberRooms.filter({ capacity__gte: 2 });
// @ts-expect-error: a room's capacity is a number
void memberRooms.filter({ capacity: 'big' });
// A name the types do not know is checked at run time: a set of any model.
export type Unknown = Expect<Equal<ReturnType<typeof unknownSet.all>, QuerySet<AnyModel>>>;
const unknownSet = Member.related(1, 'nope');

// A related set's filters are checked on its rows' model.
void Room.related(1, 'labels').filter({ name__startswith: 'a' }).exists({ rooms__capacity: 2 });
// @ts-expect-error: a label's name is text
void Room.related(1, 'labels').exists({ name: 1 });
// @ts-expect-error: Label has no field title
void Room.related(1, 'labels').get({ title: 'x' });

// Writes: every key a column (or a foreign key by name), with its type.
declare const ann: Row<typeof Member>;
void Room.objects.create({ capacity: 2, price: '1.00', owner: ann });
void Room.objects.create({ capacity: 2, price: '1.00', owner_id: 1, notes: { a: [1] } });
void Room.objects.bulkCreate([{ capacity: 1, price: '1.00', owner: 1 }]);
void Room.objects.filter({ pk: 1 }).update({ capacity: F('capacity').add(1), manager: null });
void Room.objects.getOrCreate({ owner__username: 'ann' }, { capacity: 1 });
// @ts-expect-error: Room has no field nope
void Room.objects.create({ capacity: 2, price: '1.00', owner: 1, nope: 1 });
// @ts-expect-error: capacity holds numbers
void Room.objects.create({ capacity: 'two', price: '1.00', owner: 1 });
// @ts-expect-error: a many-to-many is no column: set it with Room.related(row, 'labels')
void Room.objects.create({ capacity: 2, price: '1.00', owner: 1, labels: [1] });
// @ts-expect-error: bulkCreate checks each row
void Room.objects.bulkCreate([{ capacity: 1, nope: true }]);
// @ts-expect-error: update() checks keys
void Room.objects.update({ nope: 1 });
// @ts-expect-error: and values
void Room.objects.update({ manager_id: 'x' });
// @ts-expect-error: getOrCreate's defaults are checked as create's values
void Room.objects.getOrCreate({ capacity: 1 }, { nope: 1 });
declare const room: Row<typeof Room>;
// @ts-expect-error: updateRow checks its changes
void Room.objects.updateRow(room, { capacity: '3' });
