/**
 * The service's configuration, from the environment.
 * @module
 */

/** What `npm start` reads. */
export interface BookstoreConfig {
  readonly host: string;
  readonly port: number;
  readonly databaseUrl: string;
  readonly mediaRoot: string;
  readonly allowedHosts: readonly string[] | undefined;
  /** Throttle counts and sessions shared by every process, when set (see `redis.ts`). */
  readonly redisUrl: string | undefined;
  /** Prefix of the bookstore's Redis keys (default `bookstore:`). */
  readonly redisKeyPrefix: string;
}

/**
 * `HOST` (127.0.0.1), `PORT` (8000), `DATABASE_URL` (`sqlite:bookstore.sqlite3` in the
 * current folder), `MEDIA_ROOT` (`media`), `ALLOWED_HOSTS` (comma-separated), `REDIS_URL`
 * (none: each process counts its own limits and sessions live in the database) and
 * `REDIS_KEY_PREFIX` (`bookstore:`).
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): BookstoreConfig {
  const port = Number(env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got ${JSON.stringify(env.PORT)}.`);
  }
  return {
    host: env.HOST || '127.0.0.1',
    port,
    databaseUrl: env.DATABASE_URL || 'sqlite:bookstore.sqlite3',
    mediaRoot: env.MEDIA_ROOT || 'media',
    allowedHosts: env.ALLOWED_HOSTS
      ? env.ALLOWED_HOSTS.split(',')
          .map((h) => h.trim())
          .filter(Boolean)
      : undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'bookstore:',
  };
}
