/**
 * DRF's content negotiation, table-driven: `?format=` first, then the best `Accept` range the
 * first renderer (in the view's order) matches; 404 for an unknown format, 406 when nothing
 * matches. Any media (`*` for type and subtype) and no header take the first renderer, unparsed.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type APISettings,
  DefaultContentNegotiation,
  NotAcceptable,
  NotFound,
  type Renderer,
  type Request,
} from '@restframework/core';
import { parseAccept } from '@restframework/core/internal';

const json = { mediaType: 'application/json', format: 'json' } as Renderer;
const html = { mediaType: 'text/html', format: 'api' } as Renderer;

function requestWith(accept: string | string[] | undefined, query: Record<string, string> = {}) {
  const settings = { URL_FORMAT_OVERRIDE: 'format' } as APISettings;
  return {
    settings,
    raw: { headers: accept === undefined ? {} : { accept } },
    queryParam: (name: string) => query[name],
  } as unknown as Request;
}

describe('DefaultContentNegotiation.selectRenderer', () => {
  const cases: [string | string[] | undefined, Record<string, string>, Renderer | 404 | 406][] = [
    [undefined, {}, json],
    ['*/*', {}, json],
    [' */*', {}, json],
    ['text/html', {}, html],
    ['application/json', {}, json],
    ['text/*', {}, html],
    ['application/*', {}, json],
    ['TEXT/HTML', {}, html],
    ['text/html;q=0.5, application/json', {}, json],
    ['text/html;q=0, */*;q=0.1', {}, json],
    ['application/json;q=0, text/html;q=0.2', {}, html],
    [['text/plain', 'text/html'], {}, html],
    ['application/xml', {}, 406],
    ['text/html;q=0', {}, 406],
    ['', {}, json],
    ['*/*', { format: 'api' }, html],
    ['application/xml', { format: 'json' }, json],
    ['*/*', { format: 'xml' }, 404],
  ];
  for (const [accept, query, expected] of cases) {
    it(`Accept ${JSON.stringify(accept)}, query ${JSON.stringify(query)}`, () => {
      const select = () =>
        new DefaultContentNegotiation().selectRenderer(requestWith(accept, query), [json, html]);
      if (expected === 404) assert.throws(select, NotFound);
      else if (expected === 406) assert.throws(select, NotAcceptable);
      else assert.deepEqual(select(), [expected, expected.mediaType]);
    });
  }

  it('takes the first renderer for */* whatever the renderers', () => {
    for (const renderers of [[json, html], [html, json], [html]]) {
      const chosen = new DefaultContentNegotiation().selectRenderer(requestWith('*/*'), renderers);
      assert.equal(chosen[0], renderers[0]);
    }
  });

  it('parses */* as the header parser does, without parsing it', () => {
    assert.deepEqual(parseAccept('*/*'), parseAccept(' */* '));
    assert.deepEqual(parseAccept('*/*'), parseAccept(undefined));
  });
});
