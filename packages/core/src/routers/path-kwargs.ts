/**
 * The TypeScript type of a view's `this.kwargs`, read from a route template at compile time
 * as Hono and Fastify read `:name` parameters: `PathKwargs<'books/<int:pk>/'>` is
 * `{ readonly pk: number }`. A view declares its kwargs with it, and `router.path()` refuses
 * (at compile time) a view whose declared kwargs the route does not give.
 * @module
 */
import type { LookupConverter } from './lookup-patterns.ts';

/** The route parameters a view gets (DRF's `self.kwargs`), as the router converted them. */
export type Kwargs = Readonly<Record<string, string | number>>;

/** The value each converter of `LOOKUP_CONVERTERS` gives `this.kwargs`. */
export interface ConverterValues {
  /** `[0-9]+`, as a number (a 404 past `Number.MAX_SAFE_INTEGER`). */
  int: number;
  /** Letters, digits, `-` and `_`. */
  slug: string;
  /** A lower-case UUID, as its text. */
  uuid: string;
  /** Any one segment. */
  str: string;
}

/** The value of a `<converter:name>` parameter; an unknown converter fails at start-up. */
type ConverterValue<C extends string> = C extends LookupConverter ? ConverterValues[C] : never;

/** The parameter of one segment: `<int:pk>`, `<name>` or `:name`; nothing for a plain one. */
type SegmentKwargs<S extends string> = S extends `<${infer C}:${infer N}>`
  ? { readonly [K in N]: ConverterValue<C> }
  : S extends `<${infer N}>`
    ? { readonly [K in N]: string }
    : S extends `:${infer N}`
      ? { readonly [K in N]: string }
      : unknown;

type SegmentsKwargs<R extends string> = R extends `${infer Head}/${infer Tail}`
  ? SegmentKwargs<Head> & SegmentsKwargs<Tail>
  : SegmentKwargs<R>;

/** One object type rather than an intersection, for readable messages. */
type Flat<T> = { readonly [K in keyof T]: T[K] };

/**
 * The kwargs a route template gives its view: `number` for `<int:…>`, `string` for the other
 * converters, `<name>` and `:name`. A template that is no literal type gives {@link Kwargs}.
 *
 * @example
 * ```ts
 * class BookDetail extends RetrieveAPIView {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   declare kwargs: PathKwargs<'shelves/<slug:shelf>/books/<int:pk>/'>;
 *   // this.kwargs.pk: number, this.kwargs.shelf: string
 * }
 * router.path('shelves/<slug:shelf>/books/<int:pk>/', BookDetail);
 * ```
 */
export type PathKwargs<R extends string> = string extends R
  ? Kwargs
  : Flat<SegmentsKwargs<R> & Readonly<Record<never, never>>>;

/**
 * What `router.path()` asks of its view beyond being a view: `unknown` when route `R` gives
 * every kwarg the view declares, with its type, else a type naming both, so that the call
 * does not compile. A route whose type is only `string` (built at run time) is not checked.
 */
export type KwargsFit<R extends string, Declared> = string extends R
  ? unknown
  : [PathKwargs<R>] extends [Declared]
    ? unknown
    : {
        /** Never there: its name is the compiler's message. */
        readonly 'the route does not give the kwargs the view declares': {
          /** What the route gives. */
          readonly route: PathKwargs<R>;
          /** What the view declares. */
          readonly view: Declared;
        };
      };
