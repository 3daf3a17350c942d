/**
 * DRF's five versioning schemes: `request.version` and `request.versioningScheme`, the
 * default and allowed versions, DRF's errors and messages for a version not allowed (404, or
 * 406 for the Accept header), `reverse()` keeping the version (links of the API root and of
 * views), a view's own `versioningClass` over the setting, checked settings, and no 500 for
 * any version a client sends.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  AcceptHeaderVersioning,
  BrowsableAPIRenderer,
  Database,
  DefaultRouter,
  HostNameVersioning,
  JSONRenderer,
  NamespaceVersioning,
  QueryParameterVersioning,
  type Request,
  Response,
  restFramework,
  type SettingsInput,
  URLPathVersioning,
  ViewSet,
} from '@restframework/core';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';

class ThingViewSet extends ViewSet {
  list(request: Request) {
    return new Response({
      version: request.version,
      scheme: request.versioningScheme?.constructor.name ?? null,
      list: request.reverse('thing-list'),
      detail: request.reverse('thing-detail', { pk: 7 }),
    });
  }
  retrieve(request: Request) {
    return new Response({ version: request.version, pk: this.kwargs.pk });
  }
}

class QueryOnly extends ThingViewSet {
  override versioningClass = QueryParameterVersioning;
}

const apps: FastifyInstance[] = [];
after(async () => {
  for (const app of apps) await app.close();
});

async function appWith(
  settings: SettingsInput,
  mounts: readonly { prefix: string; namespace?: string }[],
  viewset = ThingViewSet,
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(restFramework, {
    database: Database.connect('sqlite::memory:'),
    settings: { ALLOWED_HOSTS: ['*'], ...settings },
  });
  for (const mount of mounts) {
    const router = new DefaultRouter().register('things', viewset, { basename: 'thing' });
    await app.register(router.plugin, mount as { prefix: string });
  }
  await app.ready();
  apps.push(app);
  return app;
}

const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { host: 'localhost', accept: 'application/json', ...headers } });

describe('URLPathVersioning', () => {
  it('reads the version from the path; links keep it; an unknown one is 404', async () => {
    const app = await appWith(
      { DEFAULT_VERSIONING_CLASS: URLPathVersioning, ALLOWED_VERSIONS: ['v1', 'v2'] },
      [{ prefix: '/api/:version' }],
    );
    const response = await get(app, '/api/v2/things/');
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), {
      version: 'v2',
      scheme: 'URLPathVersioning',
      list: 'http://localhost/api/v2/things/',
      detail: 'http://localhost/api/v2/things/7/',
    });
    const root = await get(app, '/api/v1/');
    assert.deepEqual(root.json(), { things: 'http://localhost/api/v1/things/' });
    const unknown = await get(app, '/api/v3/things/');
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(unknown.json(), { detail: 'Invalid version in URL path.' });
  });
});

describe('NamespaceVersioning', () => {
  it('reads the version from the router’s namespace; reverse() stays in it', async () => {
    const app = await appWith(
      { DEFAULT_VERSIONING_CLASS: NamespaceVersioning, ALLOWED_VERSIONS: ['v1', 'v2'] },
      [
        { prefix: '/v1', namespace: 'v1' },
        { prefix: '/v2', namespace: 'v2' },
        { prefix: '/v9', namespace: 'v9' },
      ],
    );
    for (const version of ['v1', 'v2']) {
      const response = await get(app, `/${version}/things/`);
      assert.equal(response.json().version, version);
      assert.equal(response.json().detail, `http://localhost/${version}/things/7/`);
    }
    const unknown = await get(app, '/v9/things/');
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(unknown.json(), {
      detail: 'Invalid version in URL path. Does not match any version namespace.',
    });
  });

  it('gives the API root its router’s namespace: its version, links in it, 404 outside', async () => {
    const app = await appWith(
      {
        DEFAULT_VERSIONING_CLASS: NamespaceVersioning,
        ALLOWED_VERSIONS: ['v1', 'v2'],
        DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer],
      },
      [
        { prefix: '/v1', namespace: 'v1' },
        { prefix: '/v2', namespace: 'v2' },
        { prefix: '/v9', namespace: 'v9' },
      ],
    );
    for (const version of ['v1', 'v2']) {
      const root = await get(app, `/${version}/`);
      assert.equal(root.statusCode, 200, root.body);
      assert.deepEqual(root.json(), { things: `http://localhost/${version}/things/` });
    }
    const unknown = await get(app, '/v9/');
    assert.equal(unknown.statusCode, 404);
    // The browsable API's breadcrumb and links of a versioned page stay in its version.
    const page = await get(app, '/v2/things/', { accept: 'text/html' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<a href="\/v2\/">Api Root<\/a>/);
  });
});

describe('AcceptHeaderVersioning', () => {
  it('reads version= of the Accept header; the default when none; 406 when not allowed', async () => {
    const app = await appWith(
      {
        DEFAULT_VERSIONING_CLASS: AcceptHeaderVersioning,
        ALLOWED_VERSIONS: ['1.0', '2.0'],
        DEFAULT_VERSION: '1.0',
      },
      [{ prefix: '/api' }],
    );
    const sent = await get(app, '/api/things/', { accept: 'application/json; version=2.0' });
    assert.equal(sent.json().version, '2.0');
    assert.equal(sent.json().list, 'http://localhost/api/things/');
    const none = await get(app, '/api/things/');
    assert.equal(none.json().version, '1.0');
    const unknown = await get(app, '/api/things/', { accept: 'application/json; version=9' });
    assert.equal(unknown.statusCode, 406);
    assert.deepEqual(unknown.json(), { detail: 'Invalid version in "Accept" header.' });
  });
});

describe('HostNameVersioning', () => {
  it('reads the first label of the host; 404 when not allowed', async () => {
    const app = await appWith(
      { DEFAULT_VERSIONING_CLASS: HostNameVersioning, ALLOWED_VERSIONS: ['v1'] },
      [{ prefix: '/api' }],
    );
    const response = await get(app, '/api/things/', { host: 'v1.example.org:8000' });
    assert.equal(response.json().version, 'v1');
    const unknown = await get(app, '/api/things/', { host: 'v2.example.org' });
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(unknown.json(), { detail: 'Invalid version in hostname.' });
  });
});

describe('QueryParameterVersioning', () => {
  it('reads ?version=; links carry it; 404 when not allowed', async () => {
    const app = await appWith(
      { DEFAULT_VERSIONING_CLASS: QueryParameterVersioning, ALLOWED_VERSIONS: ['0.1', '0.2'] },
      [{ prefix: '/api' }],
    );
    const response = await get(app, '/api/things/?version=0.2');
    assert.equal(response.json().version, '0.2');
    assert.equal(response.json().detail, 'http://localhost/api/things/7/?version=0.2');
    // As DRF: with ALLOWED_VERSIONS and no DEFAULT_VERSION, naming no version is not allowed.
    const none = await get(app, '/api/things/');
    assert.equal(none.statusCode, 404);
    const unknown = await get(app, '/api/things/?version=9');
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(unknown.json(), { detail: 'Invalid version in query parameter.' });
  });

  it('VERSION_PARAM renames the parameter; a view’s versioningClass wins over the setting', async () => {
    const app = await appWith({ VERSION_PARAM: 'v' }, [{ prefix: '/api' }], QueryOnly);
    const response = await get(app, '/api/things/?v=3');
    assert.equal(response.json().version, '3');
    assert.equal(response.json().scheme, 'QueryParameterVersioning');
    assert.equal(response.json().list, 'http://localhost/api/things/?v=3');
  });

  it('any version a client sends: 200 or 404, never a 500', async () => {
    const app = await appWith(
      { DEFAULT_VERSIONING_CLASS: QueryParameterVersioning, ALLOWED_VERSIONS: ['1'] },
      [{ prefix: '/api' }],
    );
    await fc.assert(
      fc.asyncProperty(fc.string(), async (version) => {
        const response = await get(app, `/api/things/?version=${encodeURIComponent(version)}`);
        assert.equal(response.statusCode, version === '1' ? 200 : 404, version);
      }),
      { numRuns: 100 },
    );
  });
});

describe('without versioning', () => {
  it('request.version is null and links are as before', async () => {
    const app = await appWith({}, [{ prefix: '/api' }]);
    const response = await get(app, '/api/things/?version=2');
    assert.equal(response.json().version, null);
    assert.equal(response.json().scheme, null);
    assert.equal(response.json().detail, 'http://localhost/api/things/7/');
  });

  it('versioning settings of the wrong type fail at start-up', async () => {
    const wrong: SettingsInput[] = [
      { DEFAULT_VERSIONING_CLASS: 'URLPathVersioning' as never },
      { ALLOWED_VERSIONS: 'v1' as never },
      { DEFAULT_VERSION: 1 as never },
      { VERSION_PARAM: 'a b' },
    ];
    for (const settings of wrong) {
      await assert.rejects(
        appWith(settings, [{ prefix: '/api' }]),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, 'REST_ERR_SETTINGS', JSON.stringify(settings));
          return true;
        },
      );
    }
  });
});

describe('versioning in the browsable API', () => {
  it('its breadcrumbs and links keep the URL path version', async () => {
    const app = await appWith(
      {
        DEFAULT_VERSIONING_CLASS: URLPathVersioning,
        DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer],
      },
      [{ prefix: '/api/:version' }],
    );
    for (const version of ['v1', 'v7']) {
      const page = await get(app, `/api/${version}/things/`, { accept: 'text/html' });
      assert.equal(page.statusCode, 200);
      const links = (page.body.match(/href="[^"]*\/api\/[^"]*"/g) ?? []).join(' ');
      assert.match(links, new RegExp(`href="/api/${version}/"`));
      assert.match(links, new RegExp(`href="http://localhost/api/${version}/things/7/"`));
      assert.doesNotMatch(links, /:version/);
    }
  });
});
