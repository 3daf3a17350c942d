import {
  BrowsableAPIRenderer,
  type Database,
  DefaultRouter,
  JSONRenderer,
  openApi,
  PageNumberPagination,
  restFramework,
} from '@restframework/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { TaskViewSet } from './viewsets.ts';

/** The service, ready to listen or to answer `inject()`. */
export async function buildApp(database: Database): Promise<FastifyInstance> {
  // Fastify's logger: JSON lines on stdout, warnings and errors (an error nobody handled with
  // its stack and request id); LOG_LEVEL=info adds a line per request.
  const app = Fastify({
    logger: {
      level: process.env.LOG_LEVEL ?? 'warn',
      // Fastify logs no headers; a line of yours that does (`{ headers }`, `{ req }` with a
      // serializer of headers) gets `[redacted]` for the credentials.
      redact: {
        paths: [
          'headers.authorization',
          'headers.cookie',
          'headers["x-csrftoken"]',
          'headers["set-cookie"]',
          '*.headers.authorization',
          '*.headers.cookie',
          '*.headers["x-csrftoken"]',
          '*.headers["set-cookie"]',
        ],
        censor: '[redacted]',
      },
    },
  });
  await app.register(restFramework, {
    database,
    settings: {
      // JSON for programs; a browser gets the browsable API (DRF's default renderers).
      DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer],
      DEFAULT_PAGINATION_CLASS: PageNumberPagination,
      PAGE_SIZE: 20,
    },
  });
  const router = new DefaultRouter().register('tasks', TaskViewSet);
  await app.register(router.plugin, { prefix: '/api' });
  // The OpenAPI document at /schema/, and Swagger UI reading it at /schema/docs/.
  await app.register(openApi, { title: 'Tasks', version: '0.1.0' });
  return app;
}
