/**
 * The usual primary and replicas policy, as a router an app opts into: reads go to the
 * replicas in turn, and to the primary when they would not see what they must (writes, reads in
 * a transaction, reads of a request that already wrote) or when no replica is fit. A replica is
 * fit when it answered its last check with a lag within `maxLagSeconds`; the checks run on a
 * timer every `checkIntervalSeconds`, never per statement.
 *
 * @example
 * ```ts
 * import { Database, Databases, PrimaryReplicaRouter } from '@restframework/core';
 *
 * const router = new PrimaryReplicaRouter({ replicas: ['replica1', 'replica2'], maxLagSeconds: 5 });
 * const databases = new Databases(
 *   {
 *     default: Database.connect(process.env.DATABASE_URL!),
 *     replica1: Database.connect(process.env.REPLICA1_URL!),
 *     replica2: Database.connect(process.env.REPLICA2_URL!),
 *   },
 *   [router],
 * );
 * await router.checkReplicas(); // optional: route to replicas from the first request on
 * ```
 * @module
 */
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import type { AnyModel } from '../../models/model.ts';
import type { Database } from '../database.ts';
import type { DatabaseRouter, DatabaseSet, RouterHints } from './database-router.ts';
import { replicationLagSeconds } from './replication-lag.ts';

/** Options of {@link PrimaryReplicaRouter}. */
export interface PrimaryReplicaRouterOptions {
  /** The alias of the primary (default `'default'`): writes and the reads that must see them. */
  readonly primary?: string;
  /** The aliases of the replicas, read in turn (round robin). */
  readonly replicas: readonly string[];
  /** A replica further behind than this, in seconds, is skipped (default 10). */
  readonly maxLagSeconds?: number;
  /** How often the replicas are checked, in seconds (default 5). */
  readonly checkIntervalSeconds?: number;
  /** How long one check may take before the replica counts as down, in ms (default 2000). */
  readonly checkTimeoutMs?: number;
  /**
   * How a replica's lag is measured, in seconds (default: {@link replicationLagSeconds}, which
   * asks the server); rejecting means the replica is down.
   */
  readonly measureLag?: (db: Database) => Promise<number>;
}

/** What the last check found of one replica. */
export interface ReplicaStatus {
  /** Its alias. */
  readonly alias: string;
  /** `ok` (reads go there), `lagging` (behind more than the bound), `down`, or `unchecked`. */
  readonly state: 'ok' | 'lagging' | 'down' | 'unchecked';
  /** Its lag in seconds at the last check, when it answered. */
  readonly lagSeconds?: number;
}

/**
 * The router of the primary and replicas policy (see the module).
 *
 * @example
 * ```ts
 * import { Database, PrimaryReplicaRouter, restFramework } from '@restframework/core';
 *
 * await app.register(restFramework, {
 *   databases: {
 *     default: Database.connect('postgres://app@primary:5432/shop'),
 *     replica1: Database.connect('postgres://app@replica1:5432/shop'),
 *   },
 *   databaseRouters: [new PrimaryReplicaRouter({ replicas: ['replica1'], maxLagSeconds: 5 })],
 * });
 * ```
 */
export class PrimaryReplicaRouter implements DatabaseRouter {
  /** The primary's alias. */
  readonly primary: string;
  /** The replicas' aliases. */
  readonly replicas: readonly string[];
  readonly #maxLagSeconds: number;
  readonly #intervalMs: number;
  readonly #timeoutMs: number;
  readonly #measureLag: (db: Database) => Promise<number>;
  /** The replicas fit for reads since the last check: what a read chooses from. */
  #fit: readonly string[] = [];
  #statuses: readonly ReplicaStatus[];
  #turn = 0;
  #databases: DatabaseSet | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #checking: Promise<readonly ReplicaStatus[]> | undefined;

  constructor(options: PrimaryReplicaRouterOptions) {
    const replicas = options?.replicas;
    if (!Array.isArray(replicas) || replicas.some((alias) => typeof alias !== 'string')) {
      throw new ImproperlyConfigured(
        'REST_ERR_DATABASE_ROUTING',
        "PrimaryReplicaRouter needs `replicas`, the aliases of its replicas: { replicas: ['replica1'] }.",
      );
    }
    this.primary = options.primary ?? 'default';
    if (replicas.includes(this.primary)) {
      throw new ImproperlyConfigured(
        'REST_ERR_DATABASE_ROUTING',
        `PrimaryReplicaRouter: "${this.primary}" is both the primary and a replica.`,
      );
    }
    this.replicas = Object.freeze([...new Set(replicas)]);
    this.#maxLagSeconds = positive('maxLagSeconds', options.maxLagSeconds, 10);
    this.#intervalMs = positive('checkIntervalSeconds', options.checkIntervalSeconds, 5) * 1000;
    this.#timeoutMs = positive('checkTimeoutMs', options.checkTimeoutMs, 2000);
    this.#measureLag = options.measureLag ?? replicationLagSeconds;
    this.#statuses = this.replicas.map((alias) => ({ alias, state: 'unchecked' as const }));
  }

  /** A read: the next fit replica, or the primary when the read must see writes or none is fit. */
  dbForRead(_model: AnyModel, hints: RouterHints): string {
    if (hints.inTransaction || hints.wroteInRequest) return this.primary;
    const fit = this.#fit;
    if (fit.length === 0) return this.primary;
    const turn = this.#turn;
    this.#turn = turn + 1 >= fit.length ? 0 : turn + 1;
    return fit[turn % fit.length] as string;
  }

  /** A write: always the primary. */
  dbForWrite(): string {
    return this.primary;
  }

  /**
   * Checks the aliases against the databases and starts the checks: the first at once, then
   * one every `checkIntervalSeconds` (on a timer that does not keep the process alive).
   */
  attach(databases: DatabaseSet): void {
    for (const alias of [this.primary, ...this.replicas]) databases.get(alias);
    this.#databases = databases;
    this.checkReplicas().catch(() => {});
    this.#timer = setInterval(() => {
      this.checkReplicas().catch(() => {});
    }, this.#intervalMs);
    this.#timer.unref?.();
  }

  /** Stops the checks. */
  detach(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** What the last check found of each replica. */
  get statuses(): readonly ReplicaStatus[] {
    return this.#statuses;
  }

  /**
   * Checks every replica now (one check at a time: a call during a check waits for it) and
   * resolves to what it found; reads use the fit replicas from then on.
   *
   * @example
   * ```ts
   * import { PrimaryReplicaRouter } from '@restframework/core';
   *
   * const replicas = new PrimaryReplicaRouter({ replicas: ['replica1'] });
   * const statuses = await replicas.checkReplicas(); // [{ alias: 'replica1', state: 'ok', lagSeconds: 0 }]
   * ```
   */
  checkReplicas(): Promise<readonly ReplicaStatus[]> {
    const databases = this.#databases;
    if (databases === undefined) return Promise.resolve(this.#statuses);
    if (this.#checking !== undefined) return this.#checking;
    const checking = Promise.all(
      this.replicas.map((alias) => this.#check(alias, databases.get(alias))),
    ).then((statuses) => {
      this.#statuses = Object.freeze(statuses);
      this.#fit = Object.freeze(statuses.filter((s) => s.state === 'ok').map((s) => s.alias));
      this.#checking = undefined;
      return this.#statuses;
    });
    this.#checking = checking;
    return checking;
  }

  async #check(alias: string, db: Database): Promise<ReplicaStatus> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), this.#timeoutMs);
    });
    try {
      const lag = await Promise.race([this.#measureLag(db), timeout]);
      const lagSeconds = Number(lag);
      if (!(lagSeconds <= this.#maxLagSeconds)) return { alias, state: 'lagging', lagSeconds };
      return { alias, state: 'ok', lagSeconds };
    } catch {
      return { alias, state: 'down' };
    } finally {
      clearTimeout(timer);
    }
  }
}

function positive(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw new ImproperlyConfigured(
    'REST_ERR_DATABASE_ROUTING',
    `PrimaryReplicaRouter: ${name} must be a number above 0; got ${JSON.stringify(value)}.`,
  );
}
