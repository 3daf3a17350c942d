/**
 * Turns schema changes (a table to create, a column to alter) into SQL for the database's
 * dialect, and runs it, or collects it for `sqlmigrate`. What differs between databases comes
 * from the dialect adapter's declared capabilities: a dialect that cannot alter a column in
 * place (SQLite) gets the table rebuilt (create, copy, drop, rename) from the migration state.
 * @module
 */
import {
  type CompiledQuery,
  type CreateTableBuilder,
  type Kysely,
  type RawBuilder,
  sql,
} from 'kysely';
import type { Database } from '../db/database.ts';
import { ManyToManyField } from '../models/many-to-many-field.ts';
import type { AnyModel } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';
import { alterJoinTable, createJoinTable, dropJoinTable } from './join-tables.ts';
import { checkName, foreignKeyName, modelIndexes, type SchemaIndex } from './schema-index.ts';

const ON_DELETE = {
  CASCADE: 'cascade',
  SET_NULL: 'set null',
  RESTRICT: 'restrict',
  PROTECT: 'restrict',
  NO_ACTION: 'no action',
} as const;

/**
 * Where a migration that ran part of its steps before it failed goes on (dialects whose DDL
 * commits at once, see `DialectAdapter.supportsTransactionalDdl`).
 *
 * @example
 * ```ts
 * const editor = new SchemaEditor(db, {
 *   progress: { done: 2, stepDone: async (done) => console.log(`${done} steps done`) },
 * });
 * await editor.createModel(Book); // its first two statements are skipped
 * ```
 */
export interface SchemaProgress {
  /** The steps (statements, RunCode) that ran already: they are not run again. */
  readonly done: number;
  /** Called after each step that ran, with the number of steps done so far. */
  readonly stepDone: (done: number) => Promise<void>;
}

/**
 * Runs schema changes on a database, or (with `collect`) only records their SQL.
 *
 * @example
 * ```ts
 * const editor = new SchemaEditor(db, { collect: true });
 * await editor.createModel(Book);
 * editor.statements; // ['create table "books_book" (...)', 'create unique index ...']
 * ```
 */
export class SchemaEditor {
  /** The database changed. */
  readonly db: Database;
  /** True when it only records the SQL in {@link statements}, running nothing (`sqlmigrate`). */
  readonly collect: boolean;
  /** The SQL run (or to run), one statement each, parameters shown after it. */
  readonly statements: string[] = [];
  readonly #progress: SchemaProgress | undefined;
  /** The steps met so far, run or skipped. */
  #steps = 0;
  #prepared = false;

  constructor(
    db: Database,
    options: { collect?: boolean; progress?: SchemaProgress | undefined } = {},
  ) {
    this.db = db;
    this.collect = options.collect === true;
    this.#progress = options.progress;
  }

  /**
   * Lets the adapter look up what its column types need (MySQL's collation); every method that
   * writes a column type calls it first. {@link createTableBuilder}, which is synchronous,
   * needs it called before.
   */
  async prepare(): Promise<void> {
    if (this.#prepared) return;
    await this.db.adapter.prepareSchema(this.db.kysely);
    this.#prepared = true;
  }

  /**
   * Runs one step of a migration (a statement, a RunCode), unless the progress says it ran
   * before, and reports it done.
   */
  async step(run: () => Promise<unknown>): Promise<void> {
    this.#steps += 1;
    if (this.collect || this.#steps <= (this.#progress?.done ?? 0)) return;
    await run();
    await this.#progress?.stepDone(this.#steps);
  }

  /** Runs one statement (or records it). */
  async execute(query: CompiledQuery | { compile(db: Kysely<any>): CompiledQuery }): Promise<void> {
    const compiled = 'compile' in query ? query.compile(this.db.kysely) : query;
    const shown = compiled.parameters.length
      ? `${compiled.sql}; -- parameters: ${JSON.stringify(compiled.parameters)}`
      : `${compiled.sql};`;
    this.statements.push(shown);
    await this.step(() => this.db.query(compiled.sql, compiled.parameters));
  }

  /** Notes something that runs without SQL (a data migration), for `sqlmigrate`. */
  note(text: string): void {
    this.statements.push(`-- ${text}`);
  }

  /** Creates a model's table (under `table` when given) and, unless told not to, its indexes. */
  async createModel(model: AnyModel, table = model.table, withIndexes = true): Promise<void> {
    await this.prepare();
    await this.execute(this.createTableBuilder(model, table, false));
    if (withIndexes) for (const index of modelIndexes(model)) await this.createIndex(table, index);
    // The join tables of its many-to-manys (not while a table is rebuilt: they stay).
    if (withIndexes && table === model.table)
      for (const relation of Object.values(model.manyToMany)) await createJoinTable(this, relation);
  }

  /** The CREATE TABLE of a model: columns, primary key, named foreign keys and checks. */
  createTableBuilder(
    model: AnyModel,
    table: string,
    ifNotExists: boolean,
  ): CreateTableBuilder<string, string> {
    const adapter = this.db.adapter;
    let builder = this.db.kysely.schema.createTable(table);
    if (ifNotExists) builder = builder.ifNotExists();
    for (const field of model.fieldList) {
      builder = builder.addColumn(field.column, sql.raw(adapter.columnType(field)), (col) => {
        if (field.isPrimaryKey) {
          const pk = col.primaryKey().notNull();
          return field.kind === 'auto' ? adapter.autoIncrement(pk) : pk;
        }
        return field.nullable ? col : col.notNull();
      });
      if (field.isRelation) {
        const related = field.relatedModel;
        builder = builder.addForeignKeyConstraint(
          foreignKeyName(table, field.column),
          [field.column] as never[],
          related.table,
          [related.pk.column],
          (fk) => fk.onDelete(ON_DELETE[field.extra.onDelete ?? 'CASCADE']),
        );
      }
      if (field.isPositive) {
        builder = builder.addCheckConstraint(
          checkName(table, field.column),
          sql`${sql.ref(field.column)} >= 0`,
        );
      }
    }
    return builder;
  }

  /**
   * Creates an index (unique or not) on `table`; with `ifNotExists`, none when one of that name is
   * there.
   */
  async createIndex(table: string, index: SchemaIndex, ifNotExists = false): Promise<void> {
    let builder = this.db.kysely.schema
      .createIndex(index.name)
      .on(table)
      .columns([...index.columns]);
    if (index.unique) builder = builder.unique();
    if (ifNotExists) builder = builder.ifNotExists();
    await this.execute(builder.compile());
  }

  /** Drops the index `name` of `table`, in the dialect's own statement. */
  async dropIndex(table: string, name: string): Promise<void> {
    await this.execute(this.db.adapter.dropIndex(table, name));
  }

  /** Drops the model's table, and the join tables of its many-to-manys first. */
  async deleteModel(model: AnyModel): Promise<void> {
    for (const relation of Object.values(model.manyToMany)) await dropJoinTable(this, relation);
    await this.execute(this.db.kysely.schema.dropTable(model.table).compile());
  }

  /**
   * Renames a table and the field-level indexes and constraints named after it; the join
   * tables of its many-to-manys follow (their names and key columns come from the model's).
   */
  async renameModel(before: AnyModel, after: AnyModel): Promise<void> {
    if (before.table !== after.table) {
      await this.execute(
        this.db.kysely.schema.alterTable(before.table).renameTo(after.table).compile(),
      );
      for (const field of before.fieldList) {
        await this.#renameFieldNames(after.table, before, field, after, after.fields[field.name]!);
      }
    }
    for (const [name, relation] of Object.entries(before.manyToMany)) {
      const renamed = after.manyToMany[name];
      if (renamed) await alterJoinTable(this, relation, renamed);
    }
  }

  /** Adds a column; `fill` is the value existing rows get (a NOT NULL column needs one). */
  async addField(
    before: AnyModel,
    after: AnyModel,
    field: AnyModelField | ManyToManyField,
    fill: unknown,
  ): Promise<void> {
    await this.prepare();
    if (field instanceof ManyToManyField) return createJoinTable(this, field);
    const adapter = this.db.adapter;
    // Existing rows get the value (as in Django, a nullable field with a default too).
    const needsFill = fill !== undefined && fill !== null;
    const simple = field.nullable && !needsFill && !field.isRelation && !field.isPositive;
    if (!adapter.canAlterColumns && !simple) {
      const expressions = new Map<string, RawBuilder<unknown>>();
      expressions.set(field.column, this.#literal(field, fill));
      await this.rebuild(before, after, expressions);
      return;
    }
    const type = sql.raw(adapter.columnType(field));
    const table = sql.id(after.table);
    const column = sql.id(field.column);
    const notNull = field.nullable ? sql`` : sql` not null`;
    const filled = needsFill ? sql` default ${this.#literal(field, fill)}` : sql``;
    await this.execute(sql`alter table ${table} add column ${column} ${type}${notNull}${filled}`);
    // The default only filled the existing rows: new rows get the model's default, as in a
    // table created from scratch.
    if (needsFill)
      await this.execute(sql`alter table ${table} alter column ${column} drop default`);
    if (field.isRelation) await this.#addForeignKey(after.table, field);
    if (field.isPositive) await this.#addCheck(after.table, field);
    for (const index of modelIndexes(after, field)) await this.createIndex(after.table, index);
  }

  /**
   * Drops a column (with its foreign key where the database keeps it), or a many-to-many's join
   * table; SQLite rebuilds the table.
   */
  async removeField(
    before: AnyModel,
    after: AnyModel,
    field: AnyModelField | ManyToManyField,
  ): Promise<void> {
    if (field instanceof ManyToManyField) return dropJoinTable(this, field);
    if (!this.db.adapter.canAlterColumns) {
      await this.rebuild(before, after, new Map());
      return;
    }
    if (field.isRelation && !this.db.adapter.dropsForeignKeysWithColumn) {
      const name = foreignKeyName(before.table, field.column);
      await this.execute(this.db.adapter.dropConstraint(before.table, name, 'foreign_key'));
    }
    await this.execute(
      this.db.kysely.schema.alterTable(before.table).dropColumn(field.column).compile(),
    );
  }

  /**
   * Changes a column to match `newField` (same name): type, NULL, relation, check, indexes.
   * `fill` replaces NULL in existing rows when the column becomes NOT NULL.
   */
  async alterField(
    before: AnyModel,
    after: AnyModel,
    oldField: AnyModelField | ManyToManyField,
    newField: AnyModelField | ManyToManyField,
    fill: unknown,
  ): Promise<void> {
    await this.prepare();
    if (oldField instanceof ManyToManyField || newField instanceof ManyToManyField) {
      // A column that becomes a many-to-many (or back): one goes, the other comes.
      if (!(oldField instanceof ManyToManyField)) {
        await this.removeField(before, after, oldField);
        return this.addField(before, after, newField, fill);
      }
      if (!(newField instanceof ManyToManyField)) {
        await this.removeField(before, after, oldField);
        return this.addField(before, after, newField, fill);
      }
      return alterJoinTable(
        this,
        oldField,
        newField,
        oldField.relatedModel.name !== newField.relatedModel.name,
      );
    }
    const adapter = this.db.adapter;
    const renamed = oldField.column !== newField.column;
    const columnChanged =
      renamed ||
      adapter.columnType(oldField) !== adapter.columnType(newField) ||
      oldField.nullable !== newField.nullable ||
      oldField.kind !== newField.kind ||
      this.#relationTarget(oldField) !== this.#relationTarget(newField) ||
      oldField.extra.onDelete !== newField.extra.onDelete;
    const fills = oldField.nullable && !newField.nullable && fill !== undefined && fill !== null;
    if (columnChanged && !adapter.canAlterColumns) {
      const expressions = new Map<string, RawBuilder<unknown>>();
      const old = sql.ref(oldField.column);
      // A new column name (dbColumn) takes the old column's values.
      if (fills)
        expressions.set(newField.column, sql`coalesce(${old}, ${this.#literal(newField, fill)})`);
      else if (renamed) expressions.set(newField.column, old);
      await this.rebuild(before, after, expressions);
      return;
    }
    const table = sql.id(after.table);
    const column = sql.id(newField.column);
    const oldIndexes = modelIndexes(before, oldField);
    const newIndexes = modelIndexes(after, newField);
    // The constraints go before the indexes: MySQL refuses to drop an index a foreign key uses.
    if (columnChanged) {
      if (oldField.isRelation) {
        const name = foreignKeyName(after.table, oldField.column);
        await this.execute(adapter.dropConstraint(after.table, name, 'foreign_key'));
      }
      if (oldField.isPositive) {
        const name = checkName(after.table, oldField.column);
        await this.execute(adapter.dropConstraint(after.table, name, 'check'));
      }
    }
    const dropOld = async () => {
      for (const index of oldIndexes) {
        if (!newIndexes.some((n) => sameIndex(n, index)))
          await this.dropIndex(after.table, index.name);
      }
    };
    // A foreign key that stays needs an index all along (MySQL refuses to drop its only one):
    // the new index comes first then. Else the old ones go first, so that a unique one does
    // not refuse the rows the changes below write.
    const keepsForeignKey = !columnChanged && newField.isRelation;
    if (!keepsForeignKey) await dropOld();
    if (columnChanged) {
      if (renamed) {
        await this.execute(
          this.db.kysely.schema
            .alterTable(after.table)
            .renameColumn(oldField.column, newField.column)
            .compile(),
        );
      }
      const oldType = adapter.columnType(oldField);
      const newType = adapter.columnType(newField);
      // NULL stays as it was until the rows are filled (below).
      if (oldType !== newType)
        await this.execute(adapter.alterColumnType(after.table, newField, oldField.nullable));
      if (oldField.nullable && !newField.nullable) {
        if (fills) {
          await this.execute(
            sql`update ${table} set ${column} = ${this.#literal(newField, fill)} where ${column} is null`,
          );
        }
        await this.execute(adapter.alterColumnNull(after.table, newField, false));
      } else if (!oldField.nullable && newField.nullable) {
        await this.execute(adapter.alterColumnNull(after.table, newField, true));
      }
      if (newField.isRelation) await this.#addForeignKey(after.table, newField);
      if (newField.isPositive) await this.#addCheck(after.table, newField);
    }
    for (const index of newIndexes) {
      if (!oldIndexes.some((o) => sameIndex(o, index))) await this.createIndex(after.table, index);
    }
    if (keepsForeignKey) await dropOld();
  }

  /** Renames a column, and the indexes and constraints named after it. */
  async renameField(
    before: AnyModel,
    after: AnyModel,
    oldField: AnyModelField | ManyToManyField,
    newField: AnyModelField | ManyToManyField,
  ): Promise<void> {
    if (oldField instanceof ManyToManyField || newField instanceof ManyToManyField) {
      if (oldField instanceof ManyToManyField && newField instanceof ManyToManyField)
        await alterJoinTable(this, oldField, newField);
      return;
    }
    if (oldField.column !== newField.column) {
      await this.execute(
        this.db.kysely.schema
          .alterTable(after.table)
          .renameColumn(oldField.column, newField.column)
          .compile(),
      );
    }
    await this.#renameFieldNames(after.table, before, oldField, after, newField);
  }

  /**
   * Rebuilds a table as `after` describes it (SQLite's way to alter it): creates the new table,
   * copies the rows (`expressions` gives a column's value where it is not the old column's),
   * drops the old table, renames the new one and creates the indexes again. Foreign keys are
   * off meanwhile (the adapter's migration session) and checked before the commit.
   */
  async rebuild(
    before: AnyModel,
    after: AnyModel,
    expressions: ReadonlyMap<string, RawBuilder<unknown>>,
  ): Promise<void> {
    await this.prepare();
    const temp = `new__${after.table}`.slice(0, 63);
    await this.createModel(after, temp, false);
    const oldColumns = new Set(before.fieldList.map((f) => f.column));
    const columns: string[] = [];
    const values: RawBuilder<unknown>[] = [];
    for (const field of after.fieldList) {
      const expression = expressions.get(field.column);
      if (expression) values.push(expression);
      else if (oldColumns.has(field.column)) values.push(sql.ref(field.column));
      else continue;
      columns.push(field.column);
    }
    await this.execute(
      sql`insert into ${sql.id(temp)} (${sql.join(columns.map((c) => sql.id(c)))}) select ${sql.join(values)} from ${sql.id(before.table)}`,
    );
    await this.execute(this.db.kysely.schema.dropTable(before.table).compile());
    await this.execute(this.db.kysely.schema.alterTable(temp).renameTo(after.table).compile());
    for (const index of modelIndexes(after)) await this.createIndex(after.table, index);
  }

  /** After a table or column rename: the field's indexes and named constraints follow. */
  async #renameFieldNames(
    table: string,
    before: AnyModel,
    oldField: AnyModelField,
    after: AnyModel,
    newField: AnyModelField,
  ): Promise<void> {
    const oldIndexes = modelIndexes(before, oldField);
    const newIndexes = modelIndexes(after, newField);
    for (const [i, index] of oldIndexes.entries()) {
      const renamed = newIndexes[i];
      if (!renamed || renamed.name === index.name) continue;
      // The new one first: MySQL refuses to drop the only index a foreign key can use.
      await this.createIndex(table, renamed);
      await this.dropIndex(table, index.name);
    }
    const adapter = this.db.adapter;
    if (!adapter.namedConstraints) return;
    const renames: [string, string, 'foreign_key' | 'check'][] = [];
    if (oldField.isRelation) {
      renames.push([
        foreignKeyName(before.table, oldField.column),
        foreignKeyName(after.table, newField.column),
        'foreign_key',
      ]);
    }
    if (oldField.isPositive) {
      renames.push([
        checkName(before.table, oldField.column),
        checkName(after.table, newField.column),
        'check',
      ]);
    }
    for (const [from, to, kind] of renames) {
      if (from === to) continue;
      if (adapter.renamesConstraints) {
        await this.execute(adapter.renameConstraint(table, from, to, kind));
        continue;
      }
      await this.execute(adapter.dropConstraint(table, from, kind));
      if (kind === 'foreign_key') await this.#addForeignKey(table, newField);
      else await this.#addCheck(table, newField);
    }
  }

  async #addForeignKey(table: string, field: AnyModelField): Promise<void> {
    const related = field.relatedModel;
    await this.execute(
      this.db.kysely.schema
        .alterTable(table)
        .addForeignKeyConstraint(
          foreignKeyName(table, field.column),
          [field.column],
          related.table,
          [related.pk.column],
          (fk) => fk.onDelete(ON_DELETE[field.extra.onDelete ?? 'CASCADE']),
        )
        .compile(),
    );
  }

  async #addCheck(table: string, field: AnyModelField): Promise<void> {
    await this.execute(
      this.db.kysely.schema
        .alterTable(table)
        .addCheckConstraint(checkName(table, field.column), sql`${sql.ref(field.column)} >= 0`)
        .compile(),
    );
  }

  #relationTarget(field: AnyModelField): string | undefined {
    return field.isRelation ? field.relatedModel.table : undefined;
  }

  /** A value written into the SQL as a literal (DDL takes no parameters). */
  #literal(field: AnyModelField, value: unknown): RawBuilder<unknown> {
    if (value === undefined || value === null) return sql`null`;
    return sql.lit(this.db.adapter.toDb(field, value));
  }
}

function sameIndex(a: SchemaIndex, b: SchemaIndex): boolean {
  return a.name === b.name && a.unique === b.unique && a.columns.join() === b.columns.join();
}
