/**
 * Sessions in Redis (Django's cache session engine): one key per session, named by the digest
 * of the session key, holding the user's id and the CSRF token, and expiring by Redis's own TTL
 * (nothing to clear). Several processes or machines then share the sessions without a table.
 * Needs the optional `ioredis` package. A Redis that does not answer makes the request 503:
 * a session that cannot be checked is never taken as valid.
 *
 * @example
 * ```ts
 * const auth = createAuth({
 *   session: { store: new RedisSessionStore({ url: 'redis://127.0.0.1:6379', keyPrefix: 'shop:session:' }) },
 * });
 * ```
 * @module
 */
import type { Redis as IORedis } from 'ioredis';
import { ServiceUnavailable } from '../errors/api-exception.ts';
import { redisConnection } from '../utils/redis-connection.ts';
import type { Auth } from './auth.ts';
import type { SessionStore, StoredSession } from './session-store.ts';

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** `redis://[user:password@]host:port/db`; or give `client`. */
  readonly url?: string;
  /** A client of your own (an `ioredis` `Redis`); it is not closed with the store. */
  readonly client?: unknown;
  /** Prefix of every key (default `session:`): keeps apps sharing a Redis apart. */
  readonly keyPrefix?: string;
  /** How long a command may take before Redis counts as unavailable (default 500 ms). */
  readonly timeoutMs?: number;
}

/**
 * Sessions in Redis (see the module).
 *
 * @example
 * ```ts
 * const auth = createAuth({ session: { store: new RedisSessionStore({ url: 'redis://127.0.0.1:6379' }) } });
 * ```
 */
export class RedisSessionStore implements SessionStore {
  readonly #client: IORedis;
  readonly #ownsClient: boolean;
  readonly #prefix: string;

  constructor(options: RedisSessionStoreOptions) {
    this.#prefix = options.keyPrefix ?? 'session:';
    const { client, owned } = redisConnection(options, {
      owner: 'RedisSessionStore',
      code: 'REST_ERR_SESSION_STORE',
      timeoutMs: options.timeoutMs ?? 500,
    });
    this.#ownsClient = owned;
    this.#client = client;
  }

  async #call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch {
      // The reason stays here: it may name the server, and the client can do nothing with it.
      throw new ServiceUnavailable();
    }
  }

  async create(
    _auth: Auth,
    digest: string,
    session: { readonly user_id: number; readonly csrf_secret: string },
    maxAgeSeconds: number,
  ): Promise<void> {
    const value = JSON.stringify({ user_id: session.user_id, csrf_secret: session.csrf_secret });
    const ttl = Math.max(1, Math.ceil(maxAgeSeconds));
    await this.#call(() => this.#client.set(this.#prefix + digest, value, 'EX', ttl));
  }

  async find(_auth: Auth, digest: string): Promise<StoredSession | undefined> {
    const value = await this.#call(() => this.#client.get(this.#prefix + digest));
    if (value === null) return undefined;
    let parsed: { user_id?: unknown; csrf_secret?: unknown };
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
    if (!Number.isInteger(parsed.user_id) || typeof parsed.csrf_secret !== 'string')
      return undefined;
    return { id: digest, user_id: parsed.user_id as number, csrf_secret: parsed.csrf_secret };
  }

  async delete(_auth: Auth, digest: string): Promise<void> {
    await this.#call(() => this.#client.del(this.#prefix + digest));
  }

  /** Nothing to do: Redis expires each session by its TTL. */
  async clearExpired(): Promise<number> {
    return 0;
  }

  /** Waits until the client is connected (at most its command timeout). */
  async ready(): Promise<void> {
    if (this.#client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#client.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, 1000);
      this.#client.once('ready', done);
    });
  }

  /** Disconnects the client the store made (not one given as `client`). */
  async close(): Promise<void> {
    if (this.#ownsClient) this.#client.disconnect();
  }
}
