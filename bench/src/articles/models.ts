/**
 * The models of the bench's `articles` row (issue 39): Conduit's article list, on tables of
 * the bench's own (`bench_*`) next to the bookstore's. Writers follow writers, articles have
 * tags (a many-to-many) and favourites (a through model), so that one page needs a foreign
 * key, a many-to-many, a count and two EXISTS.
 * @module
 */
import { type AnyModel, defineModel, models, UniqueConstraint } from '@restframework/core';

export const Writer = defineModel({
  name: 'Writer',
  table: 'bench_writer',
  fields: {
    username: models.CharField({ maxLength: 40, unique: true }),
    bio: models.TextField({ blank: true }),
  },
});

export const Follow = defineModel({
  name: 'Follow',
  table: 'bench_follow',
  fields: {
    follower: models.ForeignKey(Writer, { onDelete: 'CASCADE', relatedName: 'following' }),
    followed: models.ForeignKey(Writer, { onDelete: 'CASCADE', relatedName: 'followers' }),
  },
  constraints: [UniqueConstraint({ fields: ['follower', 'followed'] })],
});

export const Tag = defineModel({
  name: 'Tag',
  table: 'bench_tag',
  fields: { name: models.CharField({ maxLength: 30, unique: true }) },
});

export const Article = defineModel({
  name: 'Article',
  table: 'bench_article',
  fields: {
    slug: models.SlugField({ maxLength: 60, unique: true }),
    title: models.CharField({ maxLength: 60 }),
    description: models.TextField(),
    author: models.ForeignKey(Writer, { onDelete: 'CASCADE', relatedName: 'articles' }),
    tags: models.ManyToManyField(Tag, { relatedName: 'articles' }),
    favorited_by: models.ManyToManyField(Writer, {
      relatedName: 'favorites',
      through: (): AnyModel => Favorite,
    }),
  },
  ordering: ['-id'],
});

export const Favorite = defineModel({
  name: 'Favorite',
  table: 'bench_favorite',
  fields: {
    writer: models.ForeignKey(Writer, { onDelete: 'CASCADE', relatedName: 'favorite_rows' }),
    article: models.ForeignKey(Article, { onDelete: 'CASCADE', relatedName: 'favorite_rows' }),
  },
  constraints: [UniqueConstraint({ fields: ['writer', 'article'] })],
});

/** The row's models, in migration order. */
export const ARTICLE_MODELS = [Writer, Follow, Tag, Article, Favorite];

// Registered so that reverse names (`articles`, `favorites`, `followers`) are typed.
declare module '@restframework/core' {
  interface ModelRegistry {
    Writer: typeof Writer;
    Follow: typeof Follow;
    Article: typeof Article;
    Favorite: typeof Favorite;
  }
}
