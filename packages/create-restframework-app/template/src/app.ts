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
  const app = Fastify();
  await app.register(restFramework, {
    database,
    settings: { DEFAULT_PAGINATION_CLASS: PageNumberPagination, PAGE_SIZE: 20 },
  });
  const router = new DefaultRouter().register('tasks', TaskViewSet);
  await app.register(router.plugin, { prefix: '/api' });
  return app;
}
