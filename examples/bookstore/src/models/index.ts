/**
 * The bookstore's models, in migration order.
 * @module
 */
import { AUTH_MODELS } from '../auth.ts';
import { Author } from './author.ts';
import { Book } from './book.ts';
import { Profile } from './profile.ts';
import { Upload } from './upload.ts';
import { User } from './user.ts';

export { BOOK_STATES } from './book.ts';
export { Author, Book, Profile, Upload, User };

/** The spec's models. */
export const SPEC_MODELS = [Book, Author, User, Profile, Upload];

/** Every model of the service: the spec's, then users' groups, permissions, tokens, sessions. */
export const ALL_MODELS = [...SPEC_MODELS, ...AUTH_MODELS];
