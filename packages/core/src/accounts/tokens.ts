/**
 * API tokens (DRF's `authtoken`): made by {@link issueToken}, and by {@link obtainToken} for
 * the obtain-token view, which answers the user's existing token as DRF's
 * `Token.objects.get_or_create(user=user)` does.
 *
 * Only a SHA-256 digest of each key is stored, so a copy of the database holds no usable key.
 * To answer an existing token all the same, a key is not random: it is an HMAC of the token
 * row's id under the `Auth`'s `tokenSecret`, which never enters the database. A process that
 * knows the secret can make the key of a row again, and checks it against the stored digest.
 * Without a configured secret, each `Auth` draws one at start: tokens keep authenticating
 * everywhere (by digest), but only the process that made a token can answer it again, so a
 * login elsewhere makes another token. Give every process the same `tokenSecret` for one
 * token per user, as DRF.
 *
 * @example
 * ```ts
 * const auth = createAuth({
 *   tokenSecret: process.env.TOKEN_SECRET ?? 'a development secret of 32+ characters!',
 *   tokenLifetimeSeconds: 86_400,
 * });
 * const ada = await auth.createUser({ username: 'ada', password: 'a long passphrase' });
 * const key = await obtainToken(auth, ada); // the same key at the next call, for a day
 * ```
 * @module
 */
import { hash } from 'node:crypto';
import type { Auth } from './auth.ts';
import { randomKey } from './random-key.ts';

/** The stored form of a key (one-shot hashing: a `Hash` object costs twice as much). */
export function tokenDigest(key: string): string {
  return hash('sha256', key, 'hex');
}

/**
 * Makes a new token for `user` and returns its key (only its digest is kept). Two statements:
 * the row, then its digest, since the key is made from the row's id.
 */
export async function issueToken(auth: Auth, user: { id: number }): Promise<string> {
  // A random placeholder until the id is known: a digest no key is known to have.
  const row = await auth.Token.objects.create({ digest: randomKey(32), user_id: user.id });
  const key = auth.tokenKey(row as { id: number; user_id: number });
  await auth.Token.objects.filter({ id: row.id }).update({ digest: tokenDigest(key) });
  return key;
}

/**
 * The key of `user`'s newest unexpired token this `Auth` can make again, or of a new token
 * when there is none (DRF's `get_or_create`); the user's expired tokens are deleted on the way
 * (see `tokenLifetimeSeconds`).
 */
export async function obtainToken(auth: Auth, user: { id: number }): Promise<string> {
  const rows = (await auth.Token.objects.filter({ user_id: user.id }).orderBy('-id').execute()) as {
    id: number;
    user_id: number;
    digest: string;
    created: unknown;
  }[];
  const expired: number[] = [];
  let key: string | undefined;
  for (const row of rows) {
    if (auth.tokenExpired(row.created)) expired.push(row.id);
    else if (key === undefined && tokenDigest(auth.tokenKey(row)) === row.digest)
      key = auth.tokenKey(row);
  }
  if (expired.length) await auth.Token.objects.filter({ id__in: expired }).delete();
  return key ?? issueToken(auth, user);
}
