/**
 * DjangoModelPermissions and DjangoModelPermissionsOrAnonReadOnly: a table of callers (anonymous,
 * no permissions, a direct `change_note`, `add_note` through a group, a superuser, an inactive
 * user's token) × methods, each answered as DRF answers (401 for anonymous callers with a token
 * scheme, 403 for authenticated ones without the permission); composition with `or` and `not`
 * through HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createAuth,
  Database,
  DefaultRouter,
  DjangoModelPermissions,
  DjangoModelPermissionsOrAnonReadOnly,
  defineModel,
  IsAdminUser,
  issueToken,
  ModelSerializer,
  ModelViewSet,
  models,
  not,
  or,
  PasswordHashers,
  type PermissionClass,
  restFramework,
  ScryptPasswordHasher,
  TokenAuthentication,
} from '@restframework/core';
import Fastify, { type FastifyInstance } from 'fastify';

const auth = createAuth({
  hashers: new PasswordHashers([new ScryptPasswordHasher({ workFactor: 2 ** 10 })]),
});
const Note = defineModel({
  name: 'Note',
  appLabel: 'notes',
  fields: { text: models.CharField({ maxLength: 50 }) },
});
class NoteSerializer extends ModelSerializer.with({ model: Note, fields: ['id', 'text'] }) {}

class NoteViewSet extends ModelViewSet {
  override queryset = Note.objects.all();
  override serializerClass = NoteSerializer;
  override authenticationClasses = [TokenAuthentication];
  override permissionClasses: readonly PermissionClass[] = [DjangoModelPermissions];
}
class AnonReadViewSet extends NoteViewSet {
  override permissionClasses = [DjangoModelPermissionsOrAnonReadOnly];
}
class StaffOrModelViewSet extends NoteViewSet {
  override permissionClasses = [or(IsAdminUser, DjangoModelPermissions)];
}
class NotStaffViewSet extends NoteViewSet {
  override permissionClasses = [not(IsAdminUser)];
}

describe('DjangoModelPermissions', () => {
  let db: Database;
  let app: FastifyInstance;
  const tokens: Record<string, string> = {};

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate([...auth.models, Note]);
    await db.run(async () => {
      await auth.createPermissions([Note]);
      await Note.objects.create({ text: 'first' });
      const users = {
        plain: await auth.createUser({ username: 'plain' }),
        editor: await auth.createUser({ username: 'editor' }),
        member: await auth.createUser({ username: 'member' }),
        root: await auth.createUser({ username: 'root', is_superuser: true }),
        staff: await auth.createUser({ username: 'staff', is_staff: true }),
        idle: await auth.createUser({ username: 'idle', is_active: false }),
      };
      await auth.grant(users.editor, 'notes.change_note');
      await auth.grant({ group: await auth.addToGroup(users.member, 'writers') }, 'notes.add_note');
      for (const [name, user] of Object.entries(users)) tokens[name] = await issueToken(auth, user);
    });
    app = Fastify();
    await app.register(restFramework, { database: db, settings: { AUTH: auth } });
    const router = new DefaultRouter()
      .register('notes', NoteViewSet)
      .register('anon-notes', AnonReadViewSet, { basename: 'anon-notes' })
      .register('staff-notes', StaffOrModelViewSet, { basename: 'staff-notes' })
      .register('not-staff', NotStaffViewSet, { basename: 'not-staff' });
    await app.register(router.plugin, { prefix: '/api' });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  const call = (user: string | null, method: string, url: string) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: user ? { authorization: `Token ${tokens[user]}` } : {},
      ...(method === 'POST' || method === 'PUT' || method === 'PATCH'
        ? { payload: { text: 'changed' } }
        : {}),
    });

  // [caller, method, url, status]
  const table: [string | null, string, string, number][] = [
    [null, 'GET', '/api/notes/', 401],
    ['plain', 'GET', '/api/notes/', 200],
    ['plain', 'POST', '/api/notes/', 403],
    ['plain', 'PATCH', '/api/notes/1/', 403],
    ['editor', 'PATCH', '/api/notes/1/', 200],
    ['editor', 'PUT', '/api/notes/1/', 200],
    ['editor', 'POST', '/api/notes/', 403],
    ['editor', 'DELETE', '/api/notes/1/', 403],
    ['member', 'POST', '/api/notes/', 201],
    ['member', 'PATCH', '/api/notes/1/', 403],
    ['root', 'PATCH', '/api/notes/1/', 200],
    ['idle', 'GET', '/api/notes/', 401],
    [null, 'GET', '/api/anon-notes/', 200],
    [null, 'POST', '/api/anon-notes/', 401],
    ['editor', 'PATCH', '/api/anon-notes/1/', 200],
    ['staff', 'POST', '/api/staff-notes/', 201],
    ['member', 'POST', '/api/staff-notes/', 201],
    ['plain', 'POST', '/api/staff-notes/', 403],
    ['staff', 'GET', '/api/not-staff/', 403],
    ['plain', 'GET', '/api/not-staff/', 200],
    ['root', 'DELETE', '/api/notes/2/', 204],
  ];
  for (const [user, method, url, status] of table) {
    it(`${user ?? 'anonymous'} ${method} ${url} → ${status}`, async () => {
      const response = await call(user, method, url);
      assert.equal(response.statusCode, status, response.body);
      if (status === 403)
        assert.deepEqual(response.json(), {
          detail: 'You do not have permission to perform this action.',
        });
      if (status === 401) assert.equal(response.headers['www-authenticate'], 'Token');
    });
  }
});
