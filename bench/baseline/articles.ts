/**
 * The baseline of the `articles` row: the statements the toolkit runs for a page of 20
 * articles (COUNT; the page with its author joined, the favourites count and the viewer's two
 * EXISTS as correlated subqueries; the tags of the page's articles in one IN query), written
 * out by hand with `?` placeholders, and the answer built from their rows.
 * @module
 */
import type { RawRow } from './store.ts';

/** The row's page size. */
export const ARTICLE_PAGE_SIZE = 20;

export const COUNT_ARTICLES = 'select count(*) as "count" from "bench_article"';

/** The page from `offset` (the viewer bound twice). */
export function articlePage(offset: number): string {
  return (
    'select ((select count("bench_favorite"."id") as "v" from "bench_favorite" where "bench_favorite"."article_id" = "bench_article"."id")) as "favorites_count", ' +
    'exists (select 1 as "x" from "bench_favorite" where ("bench_favorite"."article_id" = "bench_article"."id" and "bench_favorite"."writer_id" = ?)) as "favorited", ' +
    'exists (select 1 as "x" from "bench_follow" where ("bench_follow"."followed_id" = "bench_article"."author_id" and "bench_follow"."follower_id" = ?)) as "author_followed", ' +
    '"bench_article"."id" as "id", "bench_article"."slug" as "slug", "bench_article"."title" as "title", "bench_article"."description" as "description", "bench_article"."author_id" as "author_id", ' +
    '"r_author"."id" as "author__id", "r_author"."username" as "author__username", "r_author"."bio" as "author__bio" ' +
    'from "bench_article" inner join "bench_writer" as "r_author" on "r_author"."id" = "bench_article"."author_id" ' +
    `order by "bench_article"."id" desc limit ${ARTICLE_PAGE_SIZE}${offset ? ` offset ${offset}` : ''}`
  );
}

/** The tags of `n` articles. */
export function articleTags(n: number): string {
  return (
    'select "bench_article_tags"."id" as "id", "bench_article_tags"."article_id" as "article_id", "bench_article_tags"."tag_id" as "tag_id", ' +
    '"r_tag"."id" as "tag__id", "r_tag"."name" as "tag__name" from "bench_article_tags" ' +
    'inner join "bench_tag" as "r_tag" on "r_tag"."id" = "bench_article_tags"."tag_id" ' +
    `where "bench_article_tags"."article_id" in (${new Array(n).fill('?').join(', ')})`
  );
}

/** The keys of the page's articles, for the tags' query. */
export function articleKeys(rows: readonly RawRow[]): unknown[] {
  const keys = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) keys[i] = (rows[i] as RawRow).id;
  return keys;
}

/** The page's answers: each article with its author, tag names, count and the viewer's flags. */
export function articleResults(rows: readonly RawRow[], tagRows: readonly RawRow[]): unknown[] {
  const names = new Map<unknown, string[]>();
  for (const row of tagRows) {
    // PostgreSQL and SQLite give the same key type for both columns; MySQL too.
    const key = row.article_id;
    const list = names.get(key);
    if (list) list.push(row.tag__name as string);
    else names.set(key, [row.tag__name as string]);
  }
  const results = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as RawRow;
    results[i] = {
      slug: row.slug,
      title: row.title,
      description: row.description,
      tags: names.get(row.id) ?? [],
      favorited: Boolean(row.favorited),
      favorites_count: Number(row.favorites_count),
      author: {
        username: row.author__username,
        bio: row.author__bio,
        following: Boolean(row.author_followed),
      },
    };
  }
  return results;
}
