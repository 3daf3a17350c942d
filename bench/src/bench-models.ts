/**
 * Every model the bench's databases hold: the bookstore's and the `articles` row's own.
 * @module
 */
import type { AnyModel } from '@restframework/core';
import { ALL_MODELS } from '../../examples/bookstore/src/models/index.ts';
import { ARTICLE_MODELS, Article } from './articles/models.ts';

/** What `db.migrate` gets: the bookstore's models, then the row's. */
export const BENCH_MODELS: readonly AnyModel[] = [...ALL_MODELS, ...ARTICLE_MODELS];

/** Every table to copy from a template, the automatic join table of `Article.tags` included. */
export function benchTables(): readonly AnyModel[] {
  const tags = Article.manyToMany.tags;
  if (!tags) throw new Error('Article.tags is missing');
  return [...BENCH_MODELS, tags.through];
}
