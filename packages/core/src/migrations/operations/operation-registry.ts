/**
 * Every operation a migration file may hold, by its `op` name.
 * @module
 */
import { AddField, type AddFieldOperation } from './add-field.ts';
import { AlterField, type AlterFieldOperation } from './alter-field.ts';
import { CreateModel, type CreateModelOperation } from './create-model.ts';
import { DeleteModel, type DeleteModelOperation } from './delete-model.ts';
import {
  AddIndex,
  type AddIndexOperation,
  AddUniqueConstraint,
  type AddUniqueConstraintOperation,
  RemoveIndex,
  type RemoveIndexOperation,
  RemoveUniqueConstraint,
  type RemoveUniqueConstraintOperation,
} from './index-operations.ts';
import type { OperationKind } from './operation.ts';
import { RemoveField, type RemoveFieldOperation } from './remove-field.ts';
import { RenameField, type RenameFieldOperation } from './rename-field.ts';
import { RenameModel, type RenameModelOperation } from './rename-model.ts';
import { RunCode, type RunCodeOperation } from './run-code.ts';
import { RunSQL, type RunSqlOperation } from './run-sql.ts';

/** Any operation of a migration file. */
export type Operation =
  | CreateModelOperation
  | DeleteModelOperation
  | RenameModelOperation
  | AddFieldOperation
  | RemoveFieldOperation
  | AlterFieldOperation
  | RenameFieldOperation
  | AddIndexOperation
  | RemoveIndexOperation
  | AddUniqueConstraintOperation
  | RemoveUniqueConstraintOperation
  | RunSqlOperation
  | RunCodeOperation;

/** The behaviour of each operation, by `op`. */
export const OPERATIONS: Readonly<Record<Operation['op'], OperationKind<any>>> = {
  CreateModel,
  DeleteModel,
  RenameModel,
  AddField,
  RemoveField,
  AlterField,
  RenameField,
  AddIndex,
  RemoveIndex,
  AddUniqueConstraint,
  RemoveUniqueConstraint,
  RunSQL,
  RunCode,
};

/** The kind of an operation, or undefined for an unknown `op`. */
export function operationKind(operation: unknown): OperationKind<Operation> | undefined {
  const op = (operation as { op?: unknown } | null)?.op;
  return typeof op === 'string' && Object.hasOwn(OPERATIONS, op)
    ? (OPERATIONS[op as Operation['op']] as OperationKind<Operation>)
    : undefined;
}
