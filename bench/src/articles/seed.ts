/**
 * The deterministic data of the `articles` row: 50 writers who follow every third writer,
 * 20 tags, 210 articles with 3 tags each and 0-9 favourites each. The viewer of the row is
 * writer 1.
 * @module
 */
import type { Database } from '@restframework/core';
import { Article, Favorite, Follow, Tag, Writer } from './models.ts';

export const WRITERS = 50;
export const ARTICLES = 210;
/** The writer the row's requests are made as (`?viewer=`). */
export const VIEWER = 1;

/** Fills the row's tables (already migrated) of `db`. */
export async function seedArticles(db: Database): Promise<void> {
  await db.run(async () => {
    const writers = await Writer.objects.bulkCreate(
      Array.from({ length: WRITERS }, (_, i) => ({
        id: i + 1,
        username: `writer${i + 1}`,
        bio: i % 4 === 0 ? '' : `Writes about "topic" ${i + 1}.`,
      })),
    );
    const follows = [];
    for (const a of writers)
      for (const b of writers)
        if (a.id !== b.id && (a.id + b.id) % 3 === 0)
          follows.push({ follower: a.id, followed: b.id });
    await Follow.objects.bulkCreate(follows);
    await Tag.objects.bulkCreate(
      Array.from({ length: 20 }, (_, i) => ({
        id: i + 1,
        name: `tag-${String(i + 1).padStart(2, '0')}`,
      })),
    );
    await Article.objects.bulkCreate(
      Array.from({ length: ARTICLES }, (_, i) => ({
        id: i + 1,
        slug: `article-${i + 1}`,
        title: `Article ${i + 1}`,
        description: `What article ${i + 1} is about, with a "quote" and é.`,
        author: (i % WRITERS) + 1,
      })),
    );
    const tagRows = [];
    const favorites = [];
    for (let i = 1; i <= ARTICLES; i++) {
      for (let t = 0; t < 3; t++)
        tagRows.push({ article_id: i, tag_id: ((i * 7 + t * 5) % 20) + 1 });
      for (let w = 0; w < i % 10; w++)
        favorites.push({ article: i, writer: ((i + w * 11) % WRITERS) + 1 });
    }
    const tagThrough = Article.manyToMany.tags?.through;
    if (!tagThrough) throw new Error('Article.tags has no join model');
    await tagThrough.objects.bulkCreate(tagRows);
    await Favorite.objects.bulkCreate(favorites);
  });
}
