/**
 * Where sessions live (Django's `SESSION_ENGINE`): the database by default
 * ({@link DatabaseSessionStore}, the `auth_session` table), or Redis
 * (`RedisSessionStore`, expiry by Redis's TTL). A store keeps, by the digest of the session key
 * (never the key itself), the user's id and the session's CSRF token, until the session
 * expires or is deleted.
 *
 * @example
 * ```ts
 * const auth = createAuth({ session: { store: new DatabaseSessionStore() } }); // the default
 * ```
 * @module
 */
import type { Auth, UserRow } from './auth.ts';

/** What a store keeps of a session. */
export interface StoredSession {
  /** The store's id of the session (`request.auth.sessionId`). */
  readonly id: number | string;
  /** The primary key of the session's user. */
  readonly user_id: number;
  /** The session's CSRF secret, which the CSRF token of each answer is masked from. */
  readonly csrf_secret: string;
  /** The user's row, when the store read it along (the database store's join). */
  readonly user?: UserRow;
}

/** A session store (see the module). */
export interface SessionStore {
  /** Keeps a new session for `maxAgeSeconds`. */
  create(
    auth: Auth,
    digest: string,
    session: { readonly user_id: number; readonly csrf_secret: string },
    maxAgeSeconds: number,
  ): Promise<void>;
  /** The unexpired session of this digest, or undefined. */
  find(auth: Auth, digest: string): Promise<StoredSession | undefined>;
  /** Deletes the session of this digest (nothing when there is none). */
  delete(auth: Auth, digest: string): Promise<void>;
  /** Deletes expired sessions and answers how many (0 for a store whose entries expire alone). */
  clearExpired(auth: Auth): Promise<number>;
}

/**
 * Sessions in the `auth_session` table (the default store).
 *
 * @example
 * ```ts
 * const auth = createAuth({ session: { store: new DatabaseSessionStore() } }); // the default
 * await db.migrate(auth.models); // auth_session among the tables
 * ```
 */
export class DatabaseSessionStore implements SessionStore {
  async create(
    auth: Auth,
    digest: string,
    session: { readonly user_id: number; readonly csrf_secret: string },
    maxAgeSeconds: number,
  ): Promise<void> {
    await auth.Session.objects.create({
      digest,
      user_id: session.user_id,
      csrf_secret: session.csrf_secret,
      expires_at: new Date(Date.now() + maxAgeSeconds * 1000).toISOString(),
    });
  }

  async find(auth: Auth, digest: string): Promise<StoredSession | undefined> {
    // One query: the session and its user, joined.
    const row = (await auth.Session.objects.selectRelated('user').filter({ digest }).first()) as
      | (StoredSession & { expires_at: string; id: number })
      | undefined;
    if (!row || Date.parse(row.expires_at) <= Date.now()) return undefined;
    return row;
  }

  async delete(auth: Auth, digest: string): Promise<void> {
    await auth.Session.objects.filter({ digest }).delete();
  }

  clearExpired(auth: Auth): Promise<number> {
    return auth.Session.objects.filter({ expires_at__lt: new Date().toISOString() }).delete();
  }
}
