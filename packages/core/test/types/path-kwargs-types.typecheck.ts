/**
 * Type tests of route kwargs: `PathKwargs` reads a route template (`<int:pk>` is a number, the
 * other converters and `:name` strings), and `router.path()` refuses a view whose declared
 * kwargs its route does not give. Type-checked by `npm run typecheck`, never run: a
 * `@ts-expect-error` line that compiles fails the check.
 */
import {
  APIView,
  type Kwargs,
  type PathKwargs,
  type Request,
  Response,
  SimpleRouter,
} from '@restframework/core';

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Equal<A, B>) => proof;

same<PathKwargs<'books/<int:pk>/'>, { readonly pk: number }>(true);
same<
  PathKwargs<'a/<slug:s>/<uuid:u>/<str:t>/<plain>/:bare/'>,
  {
    readonly s: string;
    readonly u: string;
    readonly t: string;
    readonly plain: string;
    readonly bare: string;
  }
>(true);
same<PathKwargs<'books/'>, {}>(true);
same<PathKwargs<string>, Kwargs>(true);
// @ts-expect-error an int is no string
same<PathKwargs<'books/<int:pk>/'>, { readonly pk: string }>(true);

export class BookDetail extends APIView {
  declare kwargs: PathKwargs<'books/<int:pk>/'>;
  get(_request: Request) {
    const next: number = this.kwargs.pk + 1;
    return new Response({ next });
  }
}

export class AnyView extends APIView {
  get(_request: Request) {
    // Without a declaration, a kwarg is a string or a number.
    // @ts-expect-error it may be a number
    const text: string = this.kwargs.pk;
    return new Response({ text });
  }
}

const router = new SimpleRouter();
router.path('books/<int:pk>/', BookDetail);
router.path('shelves/<slug:shelf>/books/<int:pk>/', BookDetail);
router.path('anything/:pk/', AnyView);
// @ts-expect-error the route gives pk as a string
router.path('books/:pk/', BookDetail);
// @ts-expect-error the route gives no pk
router.path('books/', BookDetail);
// A route built at run time is not checked: its type is only `string`.
declare const dynamic: string;
router.path(dynamic, BookDetail);
