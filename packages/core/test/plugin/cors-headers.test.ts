/**
 * `corsHeaders`, django-cors-headers' settings on `@fastify/cors`: allowed origins, patterns,
 * all origins with and without credentials, exposed headers, max-age, the URL pattern; a
 * preflight never reaches authentication, throttles or the view; an OPTIONS that is no
 * preflight gets the view's metadata; `Vary` keeps both `Origin` and `Accept`; mistakes fail
 * at start-up; no `Origin` value is a 500.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BaseAuthentication,
  BaseThrottle,
  type CorsHeadersOptions,
  corsHeaders,
  Database,
  DefaultRouter,
  IsAuthenticated,
  type Request,
  Response,
  restFramework,
  ViewSet,
} from '@restframework/core';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';

const seen = { authenticate: 0, throttle: 0, view: 0 };

class CountingAuth extends BaseAuthentication {
  override authenticate(request: Request) {
    seen.authenticate++;
    return request.raw.headers.authorization === 'Token ok'
      ? ([{ isAuthenticated: true }, null] as const)
      : null;
  }
  override authenticateHeader() {
    return 'Token';
  }
}

class CountingThrottle extends BaseThrottle {
  override allowRequest() {
    seen.throttle++;
    return true;
  }
}

class ThingViewSet extends ViewSet {
  override authenticationClasses = [CountingAuth];
  override permissionClasses = [IsAuthenticated];
  override throttleClasses = [CountingThrottle];
  list(_request: Request) {
    seen.view++;
    return new Response([{ id: 1 }], 200, { ETag: '"1"' });
  }
}

async function appWith(options: CorsHeadersOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(restFramework, { database: Database.connect('sqlite::memory:') });
  await app.register(corsHeaders, options);
  await app.register(
    new DefaultRouter().register('things', ThingViewSet, { basename: 'thing' }).plugin,
    {
      prefix: '/api',
    },
  );
  await app.ready();
  return app;
}

const BASE = { host: '127.0.0.1', accept: 'application/json', authorization: 'Token ok' };

describe('corsHeaders', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await appWith({
      allowedOrigins: ['https://app.example.org'],
      allowedOriginRegexes: [/^https:\/\/\w+\.example\.com$/],
      exposeHeaders: ['ETag'],
      preflightMaxAge: 600,
      allowCredentials: true,
    });
  });
  after(() => app.close());

  it('an allowed origin reads the answer; Vary names Origin and Accept', async () => {
    for (const origin of ['https://app.example.org', 'https://shop.example.com']) {
      const response = await app.inject({ url: '/api/things/', headers: { ...BASE, origin } });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['access-control-allow-origin'], origin);
      assert.equal(response.headers['access-control-allow-credentials'], 'true');
      assert.equal(response.headers['access-control-expose-headers'], 'ETag');
      const vary = String(response.headers.vary).toLowerCase();
      assert.match(vary, /origin/);
      assert.match(vary, /accept/);
    }
  });

  it('another origin gets no Access-Control-Allow-Origin', async () => {
    for (const origin of ['https://evil.example.net', 'https://app.example.org.evil.net', 'null']) {
      const response = await app.inject({ url: '/api/things/', headers: { ...BASE, origin } });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['access-control-allow-origin'], undefined, origin);
    }
  });

  it('a preflight is answered before authentication, throttles and the view', async () => {
    const before = { ...seen };
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/api/things/',
      headers: {
        host: '127.0.0.1',
        origin: 'https://app.example.org',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'if-match',
      },
    });
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers['access-control-allow-origin'], 'https://app.example.org');
    assert.equal(
      response.headers['access-control-allow-methods'],
      'DELETE, GET, OPTIONS, PATCH, POST, PUT',
    );
    assert.match(String(response.headers['access-control-allow-headers']), /authorization/);
    assert.equal(response.headers['access-control-max-age'], '600');
    assert.deepEqual(seen, before);
  });

  it('an OPTIONS that is no preflight is the view’s OPTIONS', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/api/things/',
      headers: { ...BASE, origin: 'https://app.example.org' },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().name, 'Thing List');
    assert.equal(response.headers['access-control-allow-origin'], 'https://app.example.org');
  });

  it('no Origin value is a 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.boolean(), async (text, preflight) => {
        const origin = text.replace(/[^\t\x20-\x7e]/g, '');
        const response = await app.inject({
          method: preflight ? 'OPTIONS' : 'GET',
          url: '/api/things/',
          headers: {
            ...BASE,
            origin,
            ...(preflight ? { 'access-control-request-method': 'GET' } : {}),
          },
        });
        assert.ok(response.statusCode < 500, `${origin} → ${response.statusCode}`);
      }),
      { numRuns: 100 },
    );
  });
});

describe('corsHeaders options', () => {
  it('allowAllOrigins: * without credentials, the caller’s origin with them', async () => {
    for (const [credentials, expected] of [
      [false, '*'],
      [true, 'https://any.example'],
    ] as const) {
      const app = await appWith({ allowAllOrigins: true, allowCredentials: credentials });
      const response = await app.inject({
        url: '/api/things/',
        headers: { ...BASE, origin: 'https://any.example' },
      });
      assert.equal(response.headers['access-control-allow-origin'], expected);
      await app.close();
    }
  });

  it('urlsRegex: paths outside get no CORS, and their OPTIONS reaches the view', async () => {
    const app = await appWith({ allowAllOrigins: true, urlsRegex: /^\/public\// });
    const response = await app.inject({
      url: '/api/things/',
      headers: { ...BASE, origin: 'https://any.example' },
    });
    assert.equal(response.headers['access-control-allow-origin'], undefined);
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/things/',
      headers: {
        host: '127.0.0.1',
        origin: 'https://any.example',
        'access-control-request-method': 'GET',
      },
    });
    assert.equal(preflight.statusCode, 401);
    await app.close();
  });

  it('preflightMaxAge 0 sends no Access-Control-Max-Age', async () => {
    const app = await appWith({ allowAllOrigins: true, preflightMaxAge: 0 });
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/things/',
      headers: {
        host: '127.0.0.1',
        origin: 'https://a.example',
        'access-control-request-method': 'GET',
      },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-max-age'], undefined);
    await app.close();
  });

  it('a wrong setting fails at start-up with REST_ERR_CORS', async () => {
    const wrong: CorsHeadersOptions[] = [
      { allowedOrigins: ['app.example.org'] },
      { allowedOrigins: ['https://app.example.org/'] },
      { allowedOriginRegexes: ['('] },
      { allowAllOrigins: true, allowedOrigins: ['https://a.example'] },
      { preflightMaxAge: -1 },
      { urlsRegex: '[' },
    ];
    for (const options of wrong) {
      await assert.rejects(appWith(options), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'REST_ERR_CORS', JSON.stringify(options));
        return true;
      });
    }
  });
});
