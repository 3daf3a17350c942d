/**
 * What a TSDoc `@example` may use without declaring it (see `tsdoc-examples.test.ts` and
 * `docs/index.md`): a Fastify app, a database, a router, and the bookstore's models and serializers, the
 * same ones the documentation pages use. Only type-checked, never run.
 * @module
 */
import type { Database, DefaultRouter } from '@restframework/core';
import type { FastifyInstance } from 'fastify';

/** The application an example registers routes or plugins on. */
export declare const app: FastifyInstance;
/** The database an example queries. */
export declare const db: Database;
/** The router an example registers views and view sets on. */
export declare const router: DefaultRouter;

export { Author, Book, Profile, Upload, User } from '../../examples/bookstore/src/models/index.ts';
export { AuthorSerializer } from '../../examples/bookstore/src/serializers/author-serializers.ts';
export { BookSerializer } from '../../examples/bookstore/src/serializers/book-serializers.ts';
export { ProfileSerializer } from '../../examples/bookstore/src/serializers/profile-serializer.ts';
