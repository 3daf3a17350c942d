/**
 * What token authentication costs by default, counted on every dialect: one statement per
 * authenticated request (the token joined with its user); the user's groups and permissions
 * only when a permission class asks for them (DjangoModelPermissions on a write), never on a
 * request that needs none; and no cache by default, so a revoked token is refused at once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createAuth,
  type Database,
  DjangoModelPermissions,
  defineModel,
  IsAuthenticated,
  issueToken,
  ModelSerializer,
  ModelViewSet,
  models,
  PasswordHashers,
  type Request,
  Response,
  ScryptPasswordHasher,
  TokenAuthentication,
  ViewSet,
} from '@restframework/core';
import { tokenDigest } from '@restframework/core/internal';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../fixtures/http-app.ts';

const auth = createAuth({
  hashers: new PasswordHashers([new ScryptPasswordHasher({ workFactor: 2 ** 4 })]),
});
const Memo = defineModel({
  name: 'Memo',
  appLabel: 'memos',
  fields: { text: models.CharField({ maxLength: 50 }) },
});
class MemoSerializer extends ModelSerializer.with({ model: Memo, fields: ['id', 'text'] }) {}

/** Answers the user without touching the database itself. */
class WhoAmIViewSet extends ViewSet {
  override authenticationClasses = [TokenAuthentication];
  override permissionClasses = [IsAuthenticated];
  list(request: Request) {
    return new Response({ username: request.user.username });
  }
}
class MemoViewSet extends ModelViewSet {
  override queryset = Memo.objects.all();
  override serializerClass = MemoSerializer;
  override authenticationClasses = [TokenAuthentication];
  override permissionClasses = [DjangoModelPermissions];
}

/** Tables a statement reads, as their names appear in its SQL. */
const PERMISSION_TABLES = [
  'auth_user_user_permissions',
  'auth_user_groups',
  'auth_group_permissions',
  'auth_permission',
];

for (const dialect of testDialects()) {
  describe(`token authentication's statements (${dialect.name})`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let key: string;
    before(async () => {
      db = await dialect.create();
      await db.migrate([...auth.models, Memo]);
      key = await db.run(async () => {
        await auth.createPermissions([Memo]);
        const user = await auth.createUser({ username: 'ada', password: null });
        await auth.grant(user, 'memos.add_memo');
        await Memo.objects.create({ text: 'first' });
        return issueToken(auth, user);
      });
      app = await buildApp({
        database: db,
        settings: { AUTH: auth },
        viewsets: [
          ['whoami', WhoAmIViewSet, { basename: 'whoami' }],
          ['memos', MemoViewSet, { basename: 'memo' }],
        ],
      });
    });
    after(async () => {
      await app.close();
      await dialect.drop(db);
    });

    /** The SQL of the statements one request runs. */
    async function statementsOf(options: InjectOptions, status: number): Promise<string[]> {
      const seen: string[] = [];
      const stop = db.onQuery((event) => seen.push(event.sql));
      try {
        const response = await app.inject(options);
        assert.equal(response.statusCode, status, response.body);
      } finally {
        stop();
      }
      return seen;
    }
    const headers = () => ({ authorization: `Token ${key}` });
    const readsPermissions = (sql: string) =>
      PERMISSION_TABLES.some((table) => sql.includes(table));

    it('costs one statement per authenticated request, the same on every request', async () => {
      for (let i = 0; i < 3; i++) {
        const seen = await statementsOf({ url: '/api/whoami/', headers: headers() }, 200);
        assert.equal(seen.length, 1, seen.join('\n'));
        assert.match(seen[0] as string, /authtoken_token/);
        assert.match(seen[0] as string, /auth_user/);
      }
    });

    it('reads permissions only when a permission class needs them', async () => {
      // A GET needs no model permission: the token's statement and the list's own.
      const read = await statementsOf({ url: '/api/memos/', headers: headers() }, 200);
      assert.equal(read.filter(readsPermissions).length, 0, read.join('\n'));
      assert.equal(read.length, 2, read.join('\n'));
      // A POST needs memos.add_memo: now the user's permissions are read.
      const write = await statementsOf(
        { method: 'POST', url: '/api/memos/', headers: headers(), payload: { text: 'x' } },
        201,
      );
      assert.ok(write.some(readsPermissions), write.join('\n'));
    });

    it('keeps nothing between requests: a revoked token is refused by the next one', async () => {
      const other = await db.run(async () =>
        issueToken(auth, (await auth.User.objects.get({ username: 'ada' })) as { id: number }),
      );
      const use = () =>
        app.inject({ url: '/api/whoami/', headers: { authorization: `Token ${other}` } });
      assert.equal((await use()).statusCode, 200);
      await db.kysely
        .deleteFrom(auth.Token.table)
        .where('digest', '=', tokenDigest(other))
        .execute();
      assert.equal((await use()).statusCode, 401, 'deleted with raw SQL: refused at once');
    });
  });
}
