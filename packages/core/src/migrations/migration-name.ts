/**
 * The name `makemigrations` gives a migration from its operations (Django's suggested names).
 * @module
 */
import type { Operation } from './operations/operation-registry.ts';

/** What a migration name may hold after its number. */
export const MIGRATION_NAME = /^\d{4}_[A-Za-z0-9_]+$/;

/**
 * `initial` for the first migration; for one operation a name saying what it does
 * (`book_pages`, `remove_book_summary`); else `auto_<date>_<time>`.
 *
 * @example
 * ```ts
 * migrationName([{ op: 'RemoveField', model: 'Book', name: 'summary' }], false); // 'remove_book_summary'
 * ```
 */
export function migrationName(
  operations: readonly Operation[],
  first: boolean,
  now = new Date(),
): string {
  if (first) return 'initial';
  if (operations.length === 1) {
    const o = operations[0] as Operation;
    const lower = (text: string) => text.toLowerCase();
    switch (o.op) {
      case 'CreateModel':
        return lower(o.name);
      case 'DeleteModel':
        return `delete_${lower(o.name)}`;
      case 'RenameModel':
        return `rename_${lower(o.from)}_${lower(o.to)}`;
      case 'AddField':
        return `${lower(o.model)}_${o.name}`;
      case 'RemoveField':
        return `remove_${lower(o.model)}_${o.name}`;
      case 'AlterField':
        return `alter_${lower(o.model)}_${o.name}`;
      case 'RenameField':
        return `rename_${o.from}_${lower(o.model)}_${o.to}`;
      case 'AddIndex':
        return o.index.name;
      case 'AddUniqueConstraint':
        return o.constraint.name;
      default:
        break;
    }
  }
  const stamp = now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '_');
  return `auto_${stamp}`;
}
