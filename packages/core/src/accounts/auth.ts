/**
 * `Auth`: an app's users, groups, permissions and tokens, around one user model (Django's
 * `AUTH_USER_MODEL` plus `ModelBackend`). `defaultAuth` uses {@link defineUserModel}'s
 * `User`; `createAuth({ userModel })` makes one around a model of your own. Give it to the app
 * with the `AUTH` setting; the authentication classes and `DjangoModelPermissions` read it from
 * there.
 *
 * @example
 * ```ts
 * const db = Database.connect('sqlite::memory:');
 * await db.migrate([...defaultAuth.models, Book]);
 * await db.run(async () => {
 *   await defaultAuth.createPermissions([Book]);
 *   const ada = await defaultAuth.createUser({ username: 'ada', password: 'a long passphrase' });
 *   await defaultAuth.grant(ada, 'books.change_book');
 * });
 * ```
 * @module
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { onTableWrite } from '../db/plan/table-writes.ts';
import { ValidationError } from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { RequestUser } from '../http/request.ts';
import { type AnyModel, defineModel, type Model } from '../models/model.ts';
import { models } from '../models/model-fields.ts';
import { BoundedCache } from '../utils/bounded-cache.ts';
import { unusableCharacter } from './credential-characters.ts';
import { Jwt, type JwtOptions } from './jwt.ts';
import { PasswordHashers, unusablePassword } from './password-hashers.ts';
import {
  defaultPasswordValidators,
  type PasswordValidator,
  validatePassword,
} from './password-validators.ts';
import {
  type ResolvedSessionOptions,
  resolveSessionOptions,
  type SessionOptions,
} from './sessions.ts';
import { TokenUserQuery } from './token-user-query.ts';
import { defineUserModel } from './user-model.ts';

/** Stops the table-write listener of an `Auth` once that `Auth` is collected. */
const stopListening = new FinalizationRegistry<() => void>((stop) => stop());

/** The most token lookups an `Auth` keeps (`tokenCacheSeconds`); the oldest goes first. */
const TOKEN_CACHE_SIZE = 10_000;

/** A stored user, as the user model's row. */
export type UserRow = Record<string, unknown> & {
  /** The user's primary key. */
  id: number;
  /** The password's hash (`scrypt$…`), or an unusable one (`!…`). */
  password: string;
};

/** The user a request carries once authenticated: the row without its password hash. */
export interface AuthenticatedUser extends RequestUser {
  /** Always true: the anonymous user has false. */
  readonly isAuthenticated: true;
  /** `is_staff`: may use the admin views (`IsAdminUser`). */
  readonly isStaff: boolean;
  /** `is_superuser`: has every permission. */
  readonly isSuperuser: boolean;
  /** `is_active`: an inactive user cannot log in and has no permission. */
  readonly isActive: boolean;
  /** The user row's primary key. */
  readonly id: number;
}

/** Options of {@link createAuth}. */
export interface AuthOptions {
  /** The user model (default: `defineUserModel()`, table `auth_user`). */
  readonly userModel?: AnyModel;
  /** The field users log in with (default `username`; `email` for e-mail logins). */
  readonly usernameField?: string;
  /** Accepted hashers, the first hashing new passwords (default scrypt, then PBKDF2-SHA256). */
  readonly hashers?: PasswordHashers;
  /** Validators of new passwords (default: Django's four). */
  readonly passwordValidators?: readonly PasswordValidator[];
  /** Sessions and their cookies (`SessionAuthentication`). */
  readonly session?: SessionOptions;
  /** JSON Web Tokens (`JWTAuthentication`); none by default. */
  readonly jwt?: JwtOptions;
  /**
   * Seconds a process keeps what `TokenAuthentication` found for a key (default 0: ask the
   * database on every request, as DRF does). A cache saves the lookup per request, at a
   * price: a token deleted, or a user made inactive, keeps working for up to this long in the
   * other processes, or after a change made with raw SQL. A change made through the query sets
   * (`delete`, `update`, `updateRow` of the user or token model) empties this process's cache
   * at once; `auth.forgetTokens()` empties it by hand. At most 10,000 keys are kept, the
   * oldest going first.
   */
  readonly tokenCacheSeconds?: number;
  /**
   * The secret token keys are made from (32 characters or more; every process of the app
   * the same, like Django's `SECRET_KEY`), so that the obtain-token view can answer a user's
   * existing token while only its digest is stored (see `auth/tokens.ts`). Default: a random
   * one per `Auth`, so that a login in another process, or after a restart, makes a new token
   * (the old ones keep working).
   */
  readonly tokenSecret?: string;
  /**
   * Seconds a token authenticates after it was made (default 0: for ever, as DRF). An older
   * token is refused with 401 "Invalid token." and replaced at the user's next login.
   */
  readonly tokenLifetimeSeconds?: number;
}

/** What {@link Auth.createUser} takes: the model's fields, and the raw password. */
export type NewUser = Record<string, unknown> & {
  /** The raw password, hashed before it is stored; null or absent gives an unusable one. */
  password?: string | null;
};

/** The standard per-model actions (Django's default permissions). */
export const MODEL_ACTIONS = ['add', 'change', 'delete', 'view'] as const;

/**
 * `books.change_book` for a model and an action: the model's app label, a dot, the action
 * and the model's name in lower case, as Django's `has_perm` takes permission names.
 */
export function permissionCodename(model: AnyModel, action: string): string {
  return `${model.appLabel}.${action}_${model.name.toLowerCase()}`;
}

/**
 * Users, groups and permissions around one user model (see the module).
 *
 * @example
 * ```ts
 * const auth = createAuth({ userModel: User, passwordValidators: [new MinimumLengthValidator(12)] });
 * await app.register(restFramework, { database: db, settings: { AUTH: auth } });
 * const ada = await auth.createUser({ username: 'ada', password: 'a long passphrase' });
 * await auth.authenticate('ada', 'a long passphrase'); // ada's row; null for a wrong password
 * ```
 */
export class Auth {
  /**
   * The user model (`userModel`, default `defineUserModel()`). Typed loosely, as the `AUTH`
   * setting holds any project's `Auth`: query through your own constant from
   * `defineUserModel` for the typed rows.
   */
  readonly User: AnyModel;
  /** The field users log in with (`usernameField`, default `username`; unique). */
  readonly usernameField: string;
  /** Hashes and checks passwords (`hashers`, default scrypt first, Django's others after). */
  readonly hashers: PasswordHashers;
  /** Checked by `validatePassword` (`passwordValidators`, default Django's four). */
  readonly passwordValidators: readonly PasswordValidator[];
  /** The session options with their defaults filled in (cookie names, lifetime, store). */
  readonly session: ResolvedSessionOptions;
  /** JWT signing and verification, when `jwt` options were given. */
  readonly jwt: Jwt | null;
  /** Groups of users (`auth_group`), Django's `Group`. */
  readonly Group;
  /** Permissions (`auth_permission`: `name`, `codename`, `model`), Django's `Permission`. */
  readonly Permission;
  /** Which user is in which group (`auth_user_groups`). */
  readonly UserGroup;
  /** The permissions given to a user directly (`auth_user_user_permissions`). */
  readonly UserPermission;
  /** The permissions of a group (`auth_group_permissions`). */
  readonly GroupPermission;
  /** API tokens (`TokenAuthentication`): a digest of each key, never the key itself. */
  readonly Token;
  /** Server-side sessions (`SessionAuthentication`): a digest of each session key. */
  readonly Session;
  /** Refresh tokens that were used or revoked (JWT rotation and logout). */
  readonly BlacklistedToken;
  /** See {@link AuthOptions.tokenCacheSeconds}. */
  readonly tokenCacheSeconds: number;
  /** Token digest → what it authenticated, until it expires (empty unless tokenCacheSeconds). */
  readonly #tokenCache = new BoundedCache<string, { value: unknown; expires: number }>(
    'token lookups',
    TOKEN_CACHE_SIZE,
  );
  /** Bumped by each {@link forgetTokens}: a lookup begun before it must not be cached. */
  #tokenEpoch = 0;
  readonly #tokenQueries = new WeakMap<Database, TokenUserQuery>();
  /** See {@link AuthOptions.tokenLifetimeSeconds}. */
  readonly tokenLifetimeSeconds: number;
  readonly #tokenSecret: Buffer;

  constructor(options: AuthOptions = {}) {
    const User = (options.userModel ?? defineUserModel()) as Model;
    this.User = User;
    this.usernameField = options.usernameField ?? 'username';
    if (!User.fields[this.usernameField] || !User.fields.password) {
      throw new ImproperlyConfigured(
        'REST_ERR_AUTH_CONFIG',
        `createAuth: the user model ${User.name} must have a "password" field and the username field "${this.usernameField}" (make it with defineUserModel()).`,
      );
    }
    if (User.fields[this.usernameField]?.options.unique !== true) {
      throw new ImproperlyConfigured(
        'REST_ERR_AUTH_CONFIG',
        `createAuth: ${User.name}.${this.usernameField} logs users in, so it must be unique: declare it with { unique: true }.`,
      );
    }
    this.hashers = options.hashers ?? new PasswordHashers();
    this.passwordValidators = options.passwordValidators ?? defaultPasswordValidators();
    this.session = resolveSessionOptions(options.session);
    this.jwt = options.jwt ? new Jwt(this, options.jwt) : null;
    this.tokenCacheSeconds = options.tokenCacheSeconds ?? 0;
    if (!Number.isFinite(this.tokenCacheSeconds) || this.tokenCacheSeconds < 0) {
      throw new ImproperlyConfigured(
        'REST_ERR_AUTH_CONFIG',
        `createAuth: tokenCacheSeconds must be 0 or more, got ${options.tokenCacheSeconds}.`,
      );
    }
    this.tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? 0;
    if (!Number.isFinite(this.tokenLifetimeSeconds) || this.tokenLifetimeSeconds < 0) {
      throw new ImproperlyConfigured(
        'REST_ERR_AUTH_CONFIG',
        `createAuth: tokenLifetimeSeconds must be 0 (no expiry) or more, got ${options.tokenLifetimeSeconds}.`,
      );
    }
    if (options.tokenSecret !== undefined && options.tokenSecret.length < 32) {
      throw new ImproperlyConfigured(
        'REST_ERR_AUTH_CONFIG',
        'createAuth: tokenSecret must have 32 characters or more (a random secret, e.g. from crypto.randomBytes(32).toString("hex")).',
      );
    }
    this.#tokenSecret =
      options.tokenSecret !== undefined ? Buffer.from(options.tokenSecret) : randomBytes(32);
    const Group = defineModel({
      name: 'Group',
      table: 'auth_group',
      fields: {
        /** The group's name, unique (`editors`). */
        name: models.CharField({ maxLength: 150, unique: true }),
      },
    });
    const Permission = defineModel({
      name: 'Permission',
      table: 'auth_permission',
      fields: {
        /** What people read (`Can change book`). */
        name: models.CharField({ maxLength: 255 }),
        /** The name `hasPerm` takes, unique (`books.change_book`). */
        codename: models.CharField({ maxLength: 100, unique: true }),
        /** The model it is about (`Book`). */
        model: models.CharField({ maxLength: 100 }),
      },
    });
    this.Group = Group;
    this.Permission = Permission;
    this.UserGroup = defineModel({
      name: 'UserGroup',
      table: 'auth_user_groups',
      fields: {
        /** The member. */
        user: models.ForeignKey(User, { onDelete: 'CASCADE' }),
        /** The group. */
        group: models.ForeignKey(Group, { onDelete: 'CASCADE' }),
      },
    });
    this.UserPermission = defineModel({
      name: 'UserPermission',
      table: 'auth_user_user_permissions',
      fields: {
        /** The user who has the permission. */
        user: models.ForeignKey(User, { onDelete: 'CASCADE' }),
        /** The permission. */
        permission: models.ForeignKey(Permission, { onDelete: 'CASCADE' }),
      },
    });
    this.GroupPermission = defineModel({
      name: 'GroupPermission',
      table: 'auth_group_permissions',
      fields: {
        /** The group whose members have the permission. */
        group: models.ForeignKey(Group, { onDelete: 'CASCADE' }),
        /** The permission. */
        permission: models.ForeignKey(Permission, { onDelete: 'CASCADE' }),
      },
    });
    this.Token = defineModel({
      name: 'Token',
      table: 'authtoken_token',
      fields: {
        /** The SHA-256 digest of the key (hex); the key itself is never stored. */
        digest: models.CharField({ maxLength: 64, unique: true }),
        /** The user the token authenticates. */
        user: models.ForeignKey(User, { onDelete: 'CASCADE' }),
        /** When it was made. */
        created: models.DateTimeField({ autoNowAdd: true }),
      },
    });
    this.Session = defineModel({
      name: 'Session',
      table: 'auth_session',
      fields: {
        /** The SHA-256 digest of the session key (hex); the key is only in the cookie. */
        digest: models.CharField({ maxLength: 64, unique: true }),
        /** The logged-in user. */
        user: models.ForeignKey(User, { onDelete: 'CASCADE' }),
        /** The secret the session's CSRF tokens are masked from. */
        csrf_secret: models.CharField({ maxLength: 64 }),
        /** When the session ends. */
        expires_at: models.DateTimeField(),
      },
    });
    this.BlacklistedToken = defineModel({
      name: 'BlacklistedToken',
      table: 'auth_blacklisted_token',
      fields: {
        /** The refused refresh token's id (its `jti` claim). */
        jti: models.CharField({ maxLength: 64, unique: true }),
        /** When the token expires anyway: the row is useless after it. */
        expires_at: models.DateTimeField(),
      },
    });
    if (this.tokenCacheSeconds > 0) this.#forgetTokensOnWrites();
  }

  /**
   * Empties the token cache whenever the toolkit changes or deletes rows of the user or token
   * table (a token deleted, a user saved, deactivated or deleted, which cascades to its
   * tokens), and again when the transaction of that write commits: a request that read the
   * old rows in between must not keep them. Held weakly: an `Auth` no longer used goes.
   */
  #forgetTokensOnWrites(): void {
    const self = new WeakRef(this);
    const stop = onTableWrite([this.User.table, this.Token.table], (db) => {
      const auth = self.deref();
      if (!auth) return;
      auth.forgetTokens();
      if (db.inTransaction) void db.onCommit(() => self.deref()?.forgetTokens());
    });
    stopListening.register(this, stop);
  }

  /** What was cached for a token digest and has not expired (see `tokenCacheSeconds`). */
  cachedToken<T>(digest: string): T | undefined {
    const entry = this.#tokenCache.get(digest);
    if (!entry) return undefined;
    if (entry.expires > Date.now()) return entry.value as T;
    this.#tokenCache.delete(digest);
    return undefined;
  }

  /**
   * Where the token cache stands: pass it, read before the lookup, to {@link cacheToken}, so
   * that what a lookup found is not kept when the cache was emptied while it ran (a token
   * deleted meanwhile).
   */
  get tokenCacheEpoch(): number {
    return this.#tokenEpoch;
  }

  /**
   * Keeps what a token digest authenticated, when `tokenCacheSeconds` allows and the cache was
   * not emptied since `epoch` ({@link tokenCacheEpoch} before the lookup; omitted: now).
   */
  cacheToken(digest: string, value: unknown, epoch = this.#tokenEpoch): void {
    if (this.tokenCacheSeconds === 0 || epoch !== this.#tokenEpoch) return;
    // Bounded (oldest first): clients sending many valid tokens cannot make it grow past it.
    this.#tokenCache.set(digest, { value, expires: Date.now() + this.tokenCacheSeconds * 1000 });
  }

  /**
   * The compiled token → user lookup of `TokenAuthentication` on `db`: built on its first use
   * and only bound afterwards.
   */
  tokenUserQuery(db: Database): TokenUserQuery {
    let query = this.#tokenQueries.get(db);
    if (!query) {
      query = new TokenUserQuery(db, this.User, this.Token);
      this.#tokenQueries.set(db, query);
    }
    return query;
  }

  /**
   * The key of a token row: an HMAC of its id and user under `tokenSecret`, 40 hex digits as
   * DRF's keys (see `auth/tokens.ts`). Only the digest of it is stored.
   */
  tokenKey(row: { readonly id: number; readonly user_id: number }): string {
    return createHmac('sha256', this.#tokenSecret)
      .update(`authtoken:${row.user_id}:${row.id}`)
      .digest('hex')
      .slice(0, 40);
  }

  /** True when a token made at `created` is older than `tokenLifetimeSeconds` (if set). */
  tokenExpired(created: unknown): boolean {
    if (this.tokenLifetimeSeconds === 0) return false;
    const made = created instanceof Date ? created.getTime() : Date.parse(String(created));
    // An unreadable time is not trusted as fresh.
    return !(made + this.tokenLifetimeSeconds * 1000 > Date.now());
  }

  /**
   * Forgets every cached token of this process. Writes through the toolkit to the user and
   * token tables call it; call it yourself after changing them another way (raw SQL).
   */
  forgetTokens(): void {
    this.#tokenEpoch++;
    this.#tokenCache.clear();
  }

  /** Every model of this `Auth`, for `db.migrate()`. */
  get models(): AnyModel[] {
    return [
      this.User,
      this.Group,
      this.Permission,
      this.UserGroup,
      this.UserPermission,
      this.GroupPermission,
      this.Token,
      this.Session,
      this.BlacklistedToken,
    ];
  }

  /** The user whose username field is `username`, or undefined. */
  async findUser(username: string): Promise<UserRow | undefined> {
    return (await this.User.objects.filter({ [this.usernameField]: username }).first()) as
      | UserRow
      | undefined;
  }

  /** The user with this id, or undefined. */
  async userById(id: unknown): Promise<UserRow | undefined> {
    return (await this.User.objects.filter({ id }).first()) as UserRow | undefined;
  }

  /**
   * The active user with these credentials, or null. A missing user, or credentials holding a
   * character no credential may hold, cost a password hash as a wrong password does, so neither the answer nor its time tells them apart; a valid password
   * stored with an older hasher or cost is stored again with the preferred one.
   */
  async authenticate(username: unknown, password: unknown): Promise<UserRow | null> {
    const name = typeof username === 'string' ? username : '';
    const text = typeof password === 'string' ? password : '';
    const maxLength = this.User.fields[this.usernameField]?.extra.maxLength;
    // A name no user can have (too long, or holding NUL, a lone surrogate or a control
    // character) is not looked up, and the password is hashed as for an unknown user.
    const findable =
      name !== '' &&
      (typeof maxLength !== 'number' || name.length <= maxLength) &&
      unusableCharacter(name) === null &&
      unusableCharacter(text) === null;
    const user = findable ? await this.findUser(name) : undefined;
    if (!user) {
      await this.hashers.hashDummy(text);
      return null;
    }
    const { valid, mustUpdate } = await this.hashers.check(text, user.password);
    if (!valid || user.is_active === false) return null;
    if (mustUpdate) {
      const password = await this.hashers.make(text);
      return (await this.User.objects.updateRow(user, { password })) as UserRow;
    }
    return user;
  }

  /** Checks a new password against the validators (400 under `field` when it fails). */
  validatePassword(password: string, user?: Record<string, unknown>, field = 'password'): void {
    // Before the validators: a password holding NUL or a control character could never be
    // typed at a login, which refuses them.
    const unusable = unusableCharacter(password);
    if (unusable) throw new ValidationError({ [field]: [unusable] });
    validatePassword(password, user, this.passwordValidators, field);
  }

  /**
   * Creates a user; `password` is hashed (null or missing: an unusable password). The
   * password is not validated here (scripts may set any): call {@link validatePassword} first
   * where a person chose it.
   */
  async createUser(fields: NewUser): Promise<UserRow> {
    const { password, ...rest } = fields;
    const encoded =
      typeof password === 'string' ? await this.hashers.make(password) : unusablePassword();
    return (await this.User.objects.create({ ...rest, password: encoded })) as UserRow;
  }

  /** Stores a new password for `user` (hashed with the preferred hasher). */
  async setPassword(user: UserRow, password: string): Promise<UserRow> {
    const encoded = await this.hashers.make(password);
    return (await this.User.objects.updateRow(user, { password: encoded })) as UserRow;
  }

  /** The user a request carries: the row without `password`, with the flags permissions read. */
  requestUser(row: UserRow): AuthenticatedUser {
    const { password: _hash, ...fields } = row;
    return Object.freeze({
      ...fields,
      isAuthenticated: true as const,
      isStaff: row.is_staff === true,
      isSuperuser: row.is_superuser === true,
      isActive: row.is_active !== false,
      id: row.id,
    });
  }

  /**
   * Creates the add/change/delete/view permissions of each model that lacks them (Django's
   * `post_migrate` signal): run it after migrating. A permission stored by an earlier version
   * under its unlabelled name (`change_book`) is renamed to its labelled one
   * (`books.change_book`) in place, so that users and groups keep it.
   */
  async createPermissions(forModels: readonly AnyModel[]): Promise<void> {
    for (const model of forModels) {
      for (const action of MODEL_ACTIONS) {
        const codename = permissionCodename(model, action);
        if (await this.Permission.objects.filter({ codename }).exists()) continue;
        const unlabelled = codename.slice(model.appLabel.length + 1);
        const renamed = await this.Permission.objects
          .filter({ codename: unlabelled, model: model.name.toLowerCase() })
          .update({ codename });
        if (renamed) continue;
        await this.Permission.objects.create({
          codename,
          name: `Can ${action} ${model.verboseName}`,
          model: model.name.toLowerCase(),
        });
      }
    }
  }

  async #permission(codename: string) {
    const permission = await this.Permission.objects.filter({ codename }).first();
    if (!permission) {
      const hint = codename.includes('.')
        ? ''
        : ' Permission names carry their app label, as Django\'s has_perm takes them ("books.change_book").';
      throw new ImproperlyConfigured(
        'REST_ERR_AUTH_CONFIG',
        `No permission "${codename}": create it with auth.createPermissions([Model]) first.${hint}`,
      );
    }
    return permission;
  }

  /** Gives a user (or, with `{ group }`, a group) a permission by name (`books.change_book`). */
  async grant(target: { id: number } | { group: { id: number } }, codename: string): Promise<void> {
    const permission = await this.#permission(codename);
    if ('group' in target) {
      const row = { group_id: target.group.id, permission_id: permission.id };
      if (!(await this.GroupPermission.objects.filter(row).exists()))
        await this.GroupPermission.objects.create(row);
      return;
    }
    const row = { user_id: target.id, permission_id: permission.id };
    if (!(await this.UserPermission.objects.filter(row).exists()))
      await this.UserPermission.objects.create(row);
  }

  /** Puts a user in a group (created when missing); returns the group. */
  async addToGroup(
    user: { id: number },
    name: string,
  ): Promise<{
    /** The group's primary key. */
    id: number;
    /** The group's name. */
    name: string;
  }> {
    const group =
      (await this.Group.objects.filter({ name }).first()) ??
      (await this.Group.objects.create({ name }));
    const row = { user_id: user.id, group_id: group.id };
    if (!(await this.UserGroup.objects.filter(row).exists()))
      await this.UserGroup.objects.create(row);
    return group;
  }

  /**
   * The permission names (`books.change_book`) a user has, directly and through groups, read
   * when a permission class asks (`hasPerms`; `DjangoModelPermissions` asks once per request).
   * Each call reads them: nothing is kept in this long-lived `Auth` (a map keyed by the user
   * objects of requests would keep each request's user alive past it), so a grant or a
   * revocation counts from the next request on.
   */
  getAllPermissions(user: { id: number }): Promise<ReadonlySet<string>> {
    return this.#loadPermissions(user.id);
  }

  async #loadPermissions(userId: number): Promise<ReadonlySet<string>> {
    const direct = await this.UserPermission.objects.filter({ user_id: userId }).execute();
    const groups = await this.UserGroup.objects.filter({ user_id: userId }).execute();
    const viaGroups = groups.length
      ? await this.GroupPermission.objects
          .filter({ group_id__in: groups.map((row) => row.group_id) })
          .execute()
      : [];
    const ids = [...direct, ...viaGroups].map((row) => row.permission_id);
    if (ids.length === 0) return new Set();
    const rows = await this.Permission.objects.filter({ id__in: ids }).execute();
    return new Set(rows.map((row) => row.codename));
  }

  /**
   * True when an active user has every permission (superusers have all), by labelled name
   * (`books.change_book`), as Django's `has_perms`: an unlabelled name matches nothing.
   */
  async hasPerms(user: RequestUser, codenames: readonly string[]): Promise<boolean> {
    if (!user.isAuthenticated || user.isActive === false) return false;
    if (user.isSuperuser === true) return true;
    if (codenames.length === 0) return true;
    const held = await this.getAllPermissions(user as unknown as { id: number });
    return codenames.every((codename) => held.has(codename));
  }
}

/**
 * What {@link createAuth} returns for `options`: an `Auth` whose `jwt` is a `Jwt`, not
 * `Jwt | null`, when the options give `jwt` (so `auth.jwt.pair(user)` needs no `!`).
 */
export type AuthFor<O extends AuthOptions> = O extends {
  /** The JWT options given to `createAuth`. */
  readonly jwt: JwtOptions;
}
  ? Auth & {
      /** JWT signing and verification, made from the options' `jwt`. */
      readonly jwt: Jwt;
    }
  : Auth;

/**
 * An `Auth` around a user model of your own (see the module).
 *
 * @example
 * ```ts
 * const auth = createAuth({ jwt: { algorithm: 'HS256', signingKey: 'x'.repeat(32) } });
 * const { access, refresh } = await auth.jwt.pair({ id: 1 }); // a Jwt: options gave `jwt`
 * ```
 */
export function createAuth<O extends AuthOptions = AuthOptions>(options: O = {} as O): AuthFor<O> {
  // The type follows the options: `jwt` is made exactly when they give it.
  return new Auth(options) as AuthFor<O>;
}

/** The `Auth` of apps whose `AUTH` setting is null: the standard `User` in `auth_user`. */
export const defaultAuth: Auth = new Auth();

/** Options of {@link createSuperuser}. */
export interface CreateSuperuserOptions {
  /** The new user's username. */
  readonly username: string;
  /** The new user's e-mail address (checked as an e-mail address); default empty. */
  readonly email?: string;
  /** The raw password; null gives an unusable one (Django's `--noinput` without a password). */
  readonly password: string | null;
  /** Other fields of a custom user model. */
  readonly fields?: Record<string, unknown>;
  /** Run the password validators (default true; a script may pass false, as Django's `--no-input`). */
  readonly validate?: boolean;
}

/**
 * Creates a superuser (staff, every permission), for the `createsuperuser` command. The
 * password is validated unless `validate: false`; a taken username is a `ValidationError`.
 */
export async function createSuperuser(
  db: Database,
  options: CreateSuperuserOptions,
  auth: Auth = defaultAuth,
): Promise<UserRow> {
  return db.run(() =>
    db.transaction(async () => {
      const fields: Record<string, unknown> = {
        ...options.fields,
        [auth.usernameField]: options.username,
        ...(options.email !== undefined ? { email: options.email } : {}),
      };
      if (await auth.findUser(options.username)) {
        throw new ValidationError({
          [auth.usernameField]: [`A user with that ${auth.usernameField} already exists.`],
        });
      }
      if (options.validate !== false && options.password !== null)
        auth.validatePassword(options.password, fields);
      return auth.createUser({
        ...fields,
        password: options.password,
        is_staff: true,
        is_superuser: true,
      });
    }),
  );
}

/**
 * Sets a user's password, for the `changepassword` command; validated unless
 * `validate: false`. `DoesNotExist` when no user has that username.
 */
export async function changePassword(
  db: Database,
  username: string,
  password: string,
  options: { readonly validate?: boolean } = {},
  auth: Auth = defaultAuth,
): Promise<UserRow> {
  return db.run(async () => {
    const user = (await auth.User.objects.get({ [auth.usernameField]: username })) as UserRow;
    if (options.validate !== false) auth.validatePassword(password, user);
    return auth.setPassword(user, password);
  });
}
