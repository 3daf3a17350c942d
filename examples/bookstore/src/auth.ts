/**
 * The bookstore's users, groups, permissions, tokens and sessions, around its `User` model.
 * @module
 */
import { type Auth, createAuth, type SessionStore } from '@restframework/core';
import { User } from './models/user.ts';

export const auth = createAuth({ userModel: User });

/** The tables of `auth` besides `User` (which `ALL_MODELS` lists with the spec's models). */
export const AUTH_MODELS = auth.models.filter((model) => model !== User);

/**
 * `auth` with its sessions in `sessions` (Redis, shared by every process): the same users,
 * tables, hashers and permissions.
 *
 * @example
 * ```ts
 * const shared = bookstoreAuth({ sessions: new RedisSessionStore({ url: 'redis://127.0.0.1:6379' }) });
 * ```
 */
export function bookstoreAuth(options: { readonly sessions: SessionStore }): Auth {
  return createAuth({
    userModel: User,
    usernameField: auth.usernameField,
    hashers: auth.hashers,
    passwordValidators: auth.passwordValidators,
    session: { store: options.sessions },
  });
}
