import {
  type Database,
  DefaultRouter,
  PageNumberPagination,
  restFramework,
} from '@restframework/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { TaskViewSet } from './viewsets.ts';

/** The service, ready to listen or to answer `inject()`. */
export async function buildApp(database: Database): Promise<FastifyInstance> {
  // Fastify's logger: JSON lines on stdout, warnings and errors (an error nobody handled with
  // its stack and request id); LOG_LEVEL=info adds a line per request.
  const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'warn' } });
  await app.register(restFramework, {
    database,
    settings: { DEFAULT_PAGINATION_CLASS: PageNumberPagination, PAGE_SIZE: 20 },
  });
  const router = new DefaultRouter().register('tasks', TaskViewSet);
  await app.register(router.plugin, { prefix: '/api' });
  return app;
}
