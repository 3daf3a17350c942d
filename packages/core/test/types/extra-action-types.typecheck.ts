/**
 * Type tests of extra actions and the router's options. Type-checked by `npm run typecheck`,
 * never run: a `@ts-expect-error` line that compiles fails the check.
 */
import {
  type ExtraActions,
  IsAuthenticated,
  ModelViewSet,
  type Request,
  Response,
  SimpleRouter,
} from '@restframework/core';

export class NoteViewSet extends ModelViewSet {
  static override extraActions: ExtraActions<NoteViewSet> = {
    pin: { detail: true, methods: ['post'], mapping: { delete: 'unpin' } },
    recent: { detail: false, permissionClasses: [IsAuthenticated], urlPath: 'latest' },
  };
  async pin(_request: Request) {
    return new Response({});
  }
  async unpin(_request: Request) {
    return new Response(null, 204);
  }
  async recent(_request: Request) {
    return new Response([]);
  }
}

export const missing: ExtraActions<NoteViewSet> = {
  // @ts-expect-error a key must name a method of the view set
  archive: { detail: true },
};

export const upper: ExtraActions<NoteViewSet> = {
  // @ts-expect-error methods are lower-case HTTP methods
  pin: { detail: true, methods: ['POST'] },
};

export const unmapped: ExtraActions<NoteViewSet> = {
  // @ts-expect-error a mapping names a method of the view set
  pin: { detail: true, mapping: { delete: 'remove' } },
};

// @ts-expect-error detail is required
export const noDetail: ExtraActions<NoteViewSet> = { pin: { methods: ['post'] } };

export const slashless = new SimpleRouter({ trailingSlash: false });
export const optional = new SimpleRouter({ trailingSlash: '/?' });
// @ts-expect-error trailingSlash is true, false or '/?'
export const wrongSlash = new SimpleRouter({ trailingSlash: '/' });

export class IntNoteViewSet extends NoteViewSet {
  override lookupValueConverter = 'int' as const;
}

export class FloatNoteViewSet extends NoteViewSet {
  // @ts-expect-error the converters are int, slug, uuid and str
  override lookupValueConverter = 'float' as const;
}
