/**
 * The bookstore's models, in migration order.
 * @module
 */
import { Author } from './author.ts';
import { Book } from './book.ts';
import { Profile } from './profile.ts';
import { Upload } from './upload.ts';
import { User } from './user.ts';

export { BOOK_STATES } from './book.ts';
export { Author, Book, Profile, Upload, User };

/** Every model of the service. */
export const ALL_MODELS = [Book, Author, User, Profile, Upload];
