/**
 * Type tests of issue 39's query expressions: annotated rows, aggregate results, values().
 * Type-checked by `npm run typecheck`, never run.
 */
import {
  Avg,
  Count,
  defineModel,
  Exists,
  F,
  Max,
  models,
  OuterRef,
  Q,
  type QuerySet,
  type Row,
  Subquery,
  Sum,
} from '@restframework/core';
import type { Equal, Expect } from './serializer-types.typecheck.ts';

const Tag = defineModel({
  name: 'Tag',
  fields: { name: models.CharField({ maxLength: 20 }) },
});

const Post = defineModel({
  name: 'Post',
  fields: {
    title: models.CharField({ maxLength: 20 }),
    views: models.IntegerField({ default: 0 }),
    price: models.DecimalField({ maxDigits: 8, decimalPlaces: 2, default: '0.00' }),
    tags: models.ManyToManyField(Tag, { relatedName: 'posts' }),
  },
});

const annotated = Post.objects.annotate({
  tags_count: Count('tags'),
  tagged: Exists(Tag.objects.filter({ name: OuterRef('title') })),
  best: Subquery<string>(Tag.objects.slice(0, 1), 'name'),
});
type Annotated = Awaited<ReturnType<typeof annotated.execute>>[number];
export type AnnotatedRows = [
  Expect<Equal<Annotated['tags_count'], number>>,
  Expect<Equal<Annotated['tagged'], boolean>>,
  Expect<Equal<Annotated['best'], string | null>>,
  Expect<Equal<Annotated['title'], string>>,
];

// Chained query sets keep their annotations; an unannotated one keeps Row<M> itself.
const chained = annotated
  .filter(Q({ tags_count__gte: 1 }).or({ views: F('views') }))
  .orderBy('-tags_count');
type Chained = Awaited<ReturnType<typeof chained.get>>;
export type ChainedRows = [
  Expect<Equal<Chained['tags_count'], number>>,
  Expect<Equal<Awaited<ReturnType<typeof Post.objects.execute>>[number], Row<typeof Post>>>,
  Expect<Equal<typeof Post.objects, QuerySet<typeof Post>>>,
];

const stats = Post.objects.aggregate({
  n: Count('pk'),
  views: Sum('views'),
  mean: Avg('views'),
  top: Max<number>('views'),
});
export type Stats = Expect<
  Equal<
    Awaited<typeof stats>,
    { n: number; views: number | null; mean: number | null; top: number | null }
  >
>;

// A DecimalField's sums and means are text, as its rows' values: named so, the types say so.
const money = Post.objects.aggregate({
  total: Sum<string | null>('price'),
  mean: Avg<string | null>('price'),
});
export type Money = Expect<
  Equal<Awaited<typeof money>, { total: string | null; mean: string | null }>
>;

// Django's favourite: a flag per row from the outer row's key, then ordered by a count.
const Favorite = Post.manyToMany.tags!.through;
const favorited = Post.objects
  .annotate({
    favorited: Exists(Favorite.objects.filter({ post: OuterRef('id'), tag: 5 })),
    favoritesCount: Count('tags'),
  })
  .orderBy('-favoritesCount');
type Favorited = Awaited<ReturnType<typeof favorited.first>>;
export type FavoritedRows = [
  Expect<Equal<NonNullable<Favorited>['favorited'], boolean>>,
  Expect<Equal<NonNullable<Favorited>['favoritesCount'], number>>,
];

const records = Post.objects.values('title', 'views');
const lists = Post.objects.valuesList(['title', 'views']);
const flat = Post.objects.valuesList(['title'], { flat: true });
export type Values = [
  Expect<Equal<Awaited<typeof records>, Pick<Row<typeof Post>, 'title' | 'views'>[]>>,
  Expect<Equal<Awaited<typeof lists>, [string, number][]>>,
  Expect<Equal<Awaited<typeof flat>, string[]>>,
];

// @ts-expect-error: update() takes expressions or the column's type, not a text for a number
void Post.objects.update({ views: 'many' });
void Post.objects.update({ views: F('views').add(1) });

// An annotated query set is still a query set of its model (a view's queryset may be one).
export const asPlain: QuerySet<typeof Post> = annotated;
