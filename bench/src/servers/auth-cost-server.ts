/**
 * The server of the authentication-cost benchmark (`src/auth-cost.ts`): the bookstore's Book
 * view set twice, `/bench/open/` as the spec has it (AllowAny, no authentication) and
 * `/bench/token/` behind `TokenAuthentication` + `IsAuthenticated`, on a fresh seeded SQLite
 * file. `TOKEN_CACHE_SECONDS` sets the `Auth`'s token cache (default 0, none). Prints
 * `READY <port> <token key>`. SIGTERM closes it.
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAuth,
  Database,
  DefaultRouter,
  IsAuthenticated,
  issueToken,
  restFramework,
  TokenAuthentication,
} from '@restframework/core';
import Fastify from 'fastify';
import { ALL_MODELS, User } from '../../../examples/bookstore/src/models/index.ts';
import { seed } from '../../../examples/bookstore/src/seed.ts';
import { BookViewSet } from '../../../examples/bookstore/src/viewsets/book-viewsets.ts';

class TokenBookViewSet extends BookViewSet {
  override authenticationClasses = [TokenAuthentication];
  override permissionClasses = [IsAuthenticated];
}

const auth = createAuth({
  userModel: User,
  tokenCacheSeconds: Number(process.env.TOKEN_CACHE_SECONDS ?? 0),
});
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
process.once('SIGTERM', () => {
  void app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0} ${key}\n`);
