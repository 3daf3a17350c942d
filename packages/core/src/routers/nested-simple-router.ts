/**
 * `NestedSimpleRouter`: view sets under a record of a parent registration, as
 * drf-nested-routers: `articles/:article_slug/comments/:pk/`, the parent's lookup passed to
 * the view in `this.kwargs` (named `{lookup}_{the parent's lookup}`), and checked against the
 * parent's `lookupValueRegex` / `lookupValueConverter` (no match is a 404).
 *
 * @example
 * ```ts
 * class AuthorViewSet extends ReadOnlyModelViewSet {
 *   override queryset = Author.objects.all();
 *   override serializerClass = AuthorSerializer;
 * }
 * class AuthorBookViewSet extends ModelViewSet {
 *   override serializerClass = BookSerializer;
 *   override getQueryset() {
 *     // this.kwargs.author_pk: the author of the URL (a real app filters by it).
 *     return Book.objects.filter({ state: 'published' });
 *   }
 * }
 * const parent = new DefaultRouter().register('authors', AuthorViewSet);
 * const authors = new NestedSimpleRouter(parent, 'authors', { lookup: 'author' });
 * authors.register('books', AuthorBookViewSet, { basename: 'author-book' });
 * await app.register(parent.plugin, { prefix: '/api' });
 * await app.register(authors.plugin, { prefix: '/api' });
 * // GET /api/authors/1/books/3/ → retrieve, kwargs { author_pk: '1', pk: '3' }
 * ```
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { ParamPattern } from './lookup-patterns.ts';
import {
  lookupOf,
  type RegisterOptions,
  type RouterOptions,
  SimpleRouter,
  type ViewSetClass,
} from './simple-router.ts';

/** Options of a {@link NestedSimpleRouter}. */
export interface NestedRouterOptions extends RouterOptions {
  /** The name before the parent's lookup in the URL parameter (`article` → `article_slug`). */
  readonly lookup: string;
}

/**
 * A router of view sets nested under `parentPrefix` of `parent`; see the module documentation.
 * Mount its plugin with the parent's prefix. It may itself be the parent of another.
 *
 * @example
 * ```ts
 * class AuthorBookViewSet extends ReadOnlyModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * const authors = new NestedSimpleRouter(router, 'authors', { lookup: 'author' });
 * authors.register('books', AuthorBookViewSet, { basename: 'author-book' });
 * // reverse('author-book-detail', { author_pk: 1, pk: 3 })
 * ```
 */
export class NestedSimpleRouter extends SimpleRouter {
  readonly #prefix: string;
  readonly #patterns: Readonly<Record<string, ParamPattern>>;
  /** The URL parameter of the parent's lookup (`article_slug`). */
  readonly parentLookupKwarg: string;

  constructor(parent: SimpleRouter, parentPrefix: string, options: NestedRouterOptions) {
    super(options.trailingSlash === undefined ? { trailingSlash: parent.trailingSlash } : options);
    const registration = parent.registrationAt(parentPrefix);
    if (!registration) {
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTER',
        `NestedSimpleRouter: the parent router has no registration at ${JSON.stringify(parentPrefix)}. ` +
          `Call parent.register(${JSON.stringify(parentPrefix)}, ...) first.`,
      );
    }
    if (!/^\w+$/.test(options.lookup ?? '')) {
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTER',
        `NestedSimpleRouter(${JSON.stringify(parentPrefix)}): lookup must be a word such as 'article', not ${JSON.stringify(options.lookup)}.`,
      );
    }
    const where = `NestedSimpleRouter(${JSON.stringify(parentPrefix)})`;
    const { lookup, pattern } = lookupOf(registration.viewset, where);
    this.parentLookupKwarg = `${options.lookup}_${lookup}`;
    this.#prefix = `${registration.prefix}/:${this.parentLookupKwarg}/`;
    this.#patterns = pattern
      ? { ...registration.patterns, [this.parentLookupKwarg]: pattern }
      : registration.patterns;
  }

  protected override get nestedPrefix(): string {
    return this.#prefix;
  }

  /** Adds a view set under the parent's record (`comments` → `articles/:article_slug/comments`). */
  override register(prefix: string, viewset: ViewSetClass, options: RegisterOptions = {}): this {
    const clean = prefix.replace(/^\/+|\/+$/g, '');
    return this.addRegistration(`${this.#prefix}${clean}`, viewset, options, this.#patterns);
  }
}
