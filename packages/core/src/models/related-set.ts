/**
 * The rows a relation holds for one row (Django's related managers): `article.tags`,
 * `tag.articles`, `author.books`, `user.profile`. Read them as a query set; change them with
 * `add`, `remove`, `set` and `clear`.
 * @module
 */
import { canonicalUuid } from '../db/column-values.ts';
import type { Database } from '../db/database.ts';
import { PrefetchedQuerySet } from '../db/prefetched-query-set.ts';
import type { QuerySet } from '../db/query-set.ts';
import type { Filter } from '../db/query-state.ts';
import type { TypedFilter } from '../db/typed-filter.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyManyToManyField } from './many-to-many-field.ts';
import type { AnyModel, Row } from './model.ts';
import type { AnyModelField } from './model-field.ts';
import { clearPrefetched, getPrefetched } from './prefetched-rows.ts';

/** A row of the set, or its primary key. */
export type RowOrKey<M extends AnyModel> = Row<M> | string | number;

/** How a set is stored: through a join table, or in a foreign key of its rows. */
export type RelatedSetPlan =
  | {
      /** Rows joined through the relation's join table. */
      readonly kind: 'many_to_many';
      /** The many-to-many field, on the model that declares it. */
      readonly relation: AnyManyToManyField;
      /** True when the owner is the relation's target (`tag.articles`). */
      readonly reverse: boolean;
    }
  | {
      /** Rows whose foreign key (or one-to-one key) names the owner. */
      readonly kind: 'foreign_key' | 'one_to_one';
      /** That key, on the rows' model. */
      readonly field: AnyModelField;
    };

/** Where a set's prefetched rows are kept: the owner's row, and the relation's name on it. */
export interface PrefetchSource {
  readonly row: object;
  readonly name: string;
}

/** A key as its column holds it (a UUID in its one form). */
function keyValue(model: AnyModel, value: unknown): unknown {
  if (model.pk.kind === 'uuid' && typeof value === 'string') return canonicalUuid(value) ?? value;
  return value;
}

/**
 * The rows related to one row through one relation. Query methods (`all`, `filter`,
 * `count`, ...) read them; `add`, `remove`, `set` and `clear` change which rows are in the set
 * (the join table's rows for a many-to-many, the rows' foreign key for a reverse foreign key).
 * Get one with `Model.related(row, name)`.
 *
 * @example
 * ```ts-fragment
 * const tags = Article.related(article, 'tags');
 * await tags.add(python, web); // rows or keys; a row already there is not added twice
 * const names = (await tags.orderBy('name').execute()).map((t) => t.name);
 * await tags.set([python]); // web removed
 * await Tag.related(python, 'articles').count(); // 1
 * ```
 */
export class RelatedSet<M extends AnyModel = AnyModel> {
  /** The model of the rows in the set. */
  readonly model: M;
  /** The row whose set this is (its model and key). */
  readonly owner: AnyModel;
  /** The owner row's primary key (a UUID in its canonical form). */
  readonly ownerKey: unknown;
  /** How the set is stored: through a join table, or in a foreign key of its rows. */
  readonly plan: RelatedSetPlan;
  readonly #db: Database | undefined;
  /** The owner's row and the relation's name on it, where its prefetched rows are kept. */
  readonly #source: PrefetchSource | undefined;

  constructor(
    model: M,
    owner: AnyModel,
    ownerKey: unknown,
    plan: RelatedSetPlan,
    db?: Database,
    source?: PrefetchSource,
  ) {
    if (ownerKey === null || ownerKey === undefined) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_RELATION',
        `${owner.name}: a row without a primary key has no related rows; save it first.`,
      );
    }
    this.model = model;
    this.owner = owner;
    this.ownerKey = keyValue(owner, ownerKey);
    this.plan = plan;
    this.#db = db;
    this.#source = source;
  }

  /** The same set on `db`. */
  using(db: Database): RelatedSet<M> {
    return new RelatedSet(this.model, this.owner, this.ownerKey, this.plan, db, this.#source);
  }

  /** The rows `prefetchRelated` loaded for the owner's row, or undefined. */
  #prefetched(): readonly unknown[] | undefined {
    const source = this.#source;
    return source && getPrefetched(source.row, source.name);
  }

  /** The set changed: what was prefetched for it is stale. */
  #forget(): void {
    const source = this.#source;
    if (source) clearPrefetched(source.row, source.name);
  }

  #objects<T extends AnyModel>(model: T): QuerySet<T> {
    return this.#db ? model.objects.using(this.#db) : model.objects;
  }

  /** The join model's keys, from the owner's side to the set's. */
  #joinKeys(): { own: AnyModelField; other: AnyModelField; relation: AnyManyToManyField } {
    const plan = this.plan as Extract<RelatedSetPlan, { kind: 'many_to_many' }>;
    const { relation, reverse } = plan;
    return reverse
      ? { own: relation.targetField, other: relation.sourceField, relation }
      : { own: relation.sourceField, other: relation.targetField, relation };
  }

  /**
   * The rows of the set, as a query set. After `prefetchRelated` loaded them for the owner's
   * row, reading it (`execute`, `count`, `exists`, iterating) answers those rows without a
   * statement; a query set made from it (`filter`, `orderBy`...) queries, as Django's.
   */
  all(): QuerySet<M> {
    const prefetched = this.#prefetched();
    const query = this.#query();
    return prefetched ? new PrefetchedQuerySet(query, prefetched as Row<M>[]) : query;
  }

  /** The query of the set's rows. */
  #query(): QuerySet<M> {
    const objects = this.#objects(this.model);
    if (this.plan.kind !== 'many_to_many')
      return objects.filter({ [this.plan.field.name]: this.ownerKey });
    const { own, other, relation } = this.#joinKeys();
    const table = relation.through.table;
    const ownColumn = `${table}.${own.column}`;
    const otherColumn = `${table}.${other.column}`;
    return objects.where(
      (eb, ref, [key]) =>
        eb(ref('pk'), 'in', eb.selectFrom(table).select(otherColumn).where(ownColumn, '=', key)),
      { key: `related:${table}:${own.column}:${other.column}`, parameters: [this.ownerKey] },
    );
  }

  /** The rows of the set matching `filter` (its keys and values checked as `QuerySet.filter`'s). */
  filter<T extends Filter>(filter: TypedFilter<M, {}, T>): QuerySet<M> {
    return this.#query().filter(filter as Filter);
  }

  /**
   * The rows of the set not matching `filter` (its keys and values checked as
   * `QuerySet.exclude`'s).
   */
  exclude<T extends Filter>(filter: TypedFilter<M, {}, T>): QuerySet<M> {
    return this.#query().exclude(filter as Filter);
  }

  /**
   * The rows of the set in the order of `terms` (paths, `-` for descending), as `QuerySet.orderBy`.
   */
  orderBy(...terms: string[]): QuerySet<M> {
    return this.#query().orderBy(...terms);
  }

  /** The rows of the set: those `prefetchRelated` loaded for the owner's row when it did (no query). */
  execute(): Promise<Row<M>[]> {
    const prefetched = this.#prefetched();
    if (prefetched) return Promise.resolve([...prefetched] as Row<M>[]);
    return this.all().execute();
  }

  /** How many rows the set has (the prefetched rows' number when there are some). */
  count(): Promise<number> {
    const prefetched = this.#prefetched();
    if (prefetched) return Promise.resolve(prefetched.length);
    return this.all().count();
  }

  /** Whether the set has a row (matching `filter`, when given), as `QuerySet.exists`. */
  exists<T extends Filter>(filter?: TypedFilter<M, {}, T>): Promise<boolean> {
    return this.all().exists(filter as Filter | undefined);
  }

  /** The one row of the set matching `filter` (a one-to-one's row without one). */
  get<T extends Filter>(filter?: TypedFilter<M, {}, T>): Promise<Row<M>> {
    return this.all().get(filter as Filter | undefined);
  }

  #keys(items: readonly RowOrKey<M>[]): unknown[] {
    const pk = this.model.pk;
    return [
      ...new Set(
        items.map((item) =>
          keyValue(
            this.model,
            item !== null && typeof item === 'object'
              ? (item as Record<string, unknown>)[pk.attname]
              : item,
          ),
        ),
      ),
    ];
  }

  /** Runs `fn` in a transaction of the set's database (one write either way). */
  #atomic<T>(fn: () => Promise<T>): Promise<T> {
    const db = this.#db ?? this.model.objects.db;
    return db.inTransaction ? fn() : db.transaction(fn);
  }

  /**
   * Puts rows into the set. A many-to-many adds the join rows it lacks (a row already in the
   * set is not added twice; a symmetrical one adds the way back too); a reverse foreign key
   * points the rows' key at the owner.
   */
  async add(...items: RowOrKey<M>[]): Promise<void> {
    this.#forget();
    const keys = this.#keys(items);
    if (keys.length === 0) return;
    if (this.plan.kind !== 'many_to_many') {
      const field = this.plan.field;
      await this.#objects(this.model)
        .filter({ pk__in: keys } as Filter)
        .update({ [field.attname]: this.ownerKey } as never);
      return;
    }
    const { own, other, relation } = this.#joinKeys();
    await this.#atomic(async () => {
      await this.#addPairs(own, other, keys);
      // The pairs the other way round too: a symmetrical relation holds both.
      if (relation.symmetrical) await this.#addPairs(other, own, keys);
    });
  }

  async #addPairs(
    own: AnyModelField,
    other: AnyModelField,
    keys: readonly unknown[],
  ): Promise<void> {
    const join = this.#objects(this.#joinKeys().relation.through);
    const present = new Set(
      (await join.filter({ [own.name]: this.ownerKey, [`${other.name}__in`]: keys }).execute()).map(
        (row) => String((row as Record<string, unknown>)[other.attname]),
      ),
    );
    for (const key of keys) {
      if (present.has(String(key))) continue;
      await join.create({ [own.attname]: this.ownerKey, [other.attname]: key } as never);
    }
  }

  /**
   * Takes rows out of the set: a many-to-many deletes their join rows (both ways when
   * symmetrical); a reverse foreign key sets the rows' key to NULL, which it must allow.
   */
  async remove(...items: RowOrKey<M>[]): Promise<void> {
    this.#forget();
    const keys = this.#keys(items);
    if (keys.length === 0) return;
    if (this.plan.kind !== 'many_to_many') {
      const field = this.#nullableKey('remove');
      await this.#objects(this.model)
        .filter({ pk__in: keys, [field.name]: this.ownerKey } as Filter)
        .update({ [field.attname]: null } as never);
      return;
    }
    const { own, other, relation } = this.#joinKeys();
    const join = this.#objects(relation.through);
    await this.#atomic(async () => {
      await join.filter({ [own.name]: this.ownerKey, [`${other.name}__in`]: keys }).delete();
      if (relation.symmetrical)
        await join.filter({ [other.name]: this.ownerKey, [`${own.name}__in`]: keys }).delete();
    });
  }

  /** Empties the set (see {@link remove}). */
  async clear(): Promise<void> {
    this.#forget();
    if (this.plan.kind !== 'many_to_many') {
      const field = this.#nullableKey('clear');
      await this.#objects(this.model)
        .filter({ [field.name]: this.ownerKey })
        .update({ [field.attname]: null } as never);
      return;
    }
    const { own, other, relation } = this.#joinKeys();
    const join = this.#objects(relation.through);
    await this.#atomic(async () => {
      await join.filter({ [own.name]: this.ownerKey }).delete();
      if (relation.symmetrical) await join.filter({ [other.name]: this.ownerKey }).delete();
    });
  }

  /** Makes the set exactly `items`: what is missing is added, what is not listed removed. */
  async set(items: readonly RowOrKey<M>[]): Promise<void> {
    this.#forget();
    const wanted = this.#keys(items);
    await this.#atomic(async () => {
      const current = (await this.#query().execute()).map((row) =>
        keyValue(this.model, (row as Record<string, unknown>)[this.model.pk.attname]),
      );
      const keep = new Set(wanted.map(String));
      const gone = current.filter((key) => !keep.has(String(key)));
      const have = new Set(current.map(String));
      const fresh = wanted.filter((key) => !have.has(String(key)));
      if (gone.length) await this.remove(...(gone as RowOrKey<M>[]));
      if (fresh.length) await this.add(...(fresh as RowOrKey<M>[]));
    });
  }

  #nullableKey(method: string): AnyModelField {
    const field = (this.plan as { field: AnyModelField }).field;
    if (!field.nullable) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_RELATION',
        `${this.owner.name}: ${method}() would set ${field.model.name}.${field.name} to NULL, which it does not allow. ` +
          `Delete the rows instead, or declare ${field.name} with null: true.`,
      );
    }
    return field;
  }
}
