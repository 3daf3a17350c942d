/**
 * The messages of a `ValidationError` as lines, for the commands that print them.
 * @module
 */
import { ValidationError } from '../../errors/api-exception.ts';

/** Every message of `error` (a `ValidationError`'s tree, flattened), else undefined. */
export function validationMessages(error: unknown): string[] | undefined {
  if (!(error instanceof ValidationError)) return undefined;
  const lines: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node && typeof node === 'object') for (const item of Object.values(node)) walk(item);
    else if (node !== undefined && node !== null) lines.push(String(node));
  };
  walk(error.detail);
  return lines;
}
