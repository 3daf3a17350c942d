/**
 * The app of the authentication-cost benchmark: the bookstore's Book view set twice,
 * `/bench/open/` as the spec has it (AllowAny, no authentication) and `/bench/token/` behind
 * `TokenAuthentication` + `IsAuthenticated`, on a fresh seeded SQLite file, and the key of a
 * token to send. Used by `auth-cost-server.ts` (the wall-clock run) and `auth-cost-client.ts`
 * (the instruction count).
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Auth,
  createAuth,
  Database,
  DefaultRouter,
  IsAuthenticated,
  issueToken,
  restFramework,
  TokenAuthentication,
} from '@restframework/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { ALL_MODELS, User } from '../../../examples/bookstore/src/models/index.ts';
import { seed } from '../../../examples/bookstore/src/seed.ts';
import { BookViewSet } from '../../../examples/bookstore/src/viewsets/book-viewsets.ts';

class TokenBookViewSet extends BookViewSet {
  override authenticationClasses = [TokenAuthentication];
  override permissionClasses = [IsAuthenticated];
}

/** The app (not listening yet) and a token key; closing the app removes its database. */
export async function buildAuthCostApp(
  tokenCacheSeconds = 0,
): Promise<{ app: FastifyInstance; key: string; auth: Auth; db: Database }> {
  const auth = createAuth({ userModel: User, tokenCacheSeconds });
  const dir = mkdtempSync(join(tmpdir(), 'rf-auth-bench-'));
  const db = Database.connect(`sqlite:${join(dir, 'db.sqlite3')}`);
  await db.migrate(ALL_MODELS);
  await seed(db, { books: 100, authors: 1, users: 1 });
  const key = await db.run(async () =>
    issueToken(auth, await auth.createUser({ username: 'bench', password: 'not used here' })),
  );
  const app = Fastify({ logger: false });
  await app.register(restFramework, { database: db, settings: { AUTH: auth } });
  const router = new DefaultRouter()
    .register('open', BookViewSet, { basename: 'book' })
    .register('token', TokenBookViewSet, { basename: 'token' });
  await app.register(router.plugin, { prefix: '/bench' });
  app.addHook('onClose', async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { app, key, auth, db };
}
