/**
 * `RunCode`: a data migration, code that runs in the migration's transaction with the models
 * as the migration history has them at that point (not today's declarations).
 * @module
 */
import type { Database } from '../../db/database.ts';
import type { AnyModel } from '../../models/model.ts';
import { type OperationContext, type OperationKind, StateError } from './operation.ts';

/** What a data migration receives. */
export interface RunCodeContext {
  /** The database; every query made through it, or through `models`, joins the transaction. */
  readonly db: Database;
  /** The models of the history at this point, by name (`models.Book.objects...`). */
  readonly models: Readonly<Record<string, AnyModel>>;
}

/** `{ op: 'RunCode', code, reverseCode?, description? }`. */
export interface RunCodeOperation {
  readonly op: 'RunCode';
  readonly code: (context: RunCodeContext) => Promise<void>;
  /** Undoes `code`; without it the operation is irreversible. */
  readonly reverseCode?: (context: RunCodeContext) => Promise<void>;
  /** A line for `showmigrations`/`sqlmigrate`. */
  readonly description?: string;
}

async function run(
  code: RunCodeOperation['code'],
  models: Record<string, AnyModel>,
  operation: RunCodeOperation,
  { editor, db }: OperationContext,
): Promise<void> {
  editor.note(`RunCode: ${RunCode.describe(operation)} (code, no SQL to show)`);
  // One step of the migration's progress (see SchemaEditor.step): a resumed migration does
  // not run it twice.
  await editor.step(() => db.run(() => code({ db, models })));
}

export const RunCode: OperationKind<RunCodeOperation> = {
  stateForwards(operation) {
    if (typeof operation.code !== 'function') throw new StateError('code must be a function.');
    if (operation.reverseCode !== undefined && typeof operation.reverseCode !== 'function') {
      throw new StateError('reverseCode must be a function.');
    }
  },
  databaseForwards: (o, context) => run(o.code, context.after.renderAll(), o, context),
  databaseBackwards: (o, context) =>
    run(o.reverseCode as RunCodeOperation['code'], context.before.renderAll(), o, context),
  reversible: (operation) => operation.reverseCode !== undefined,
  describe: (operation) => operation.description ?? 'Run code',
};
