/**
 * The messages of a `ValidationError` as lines, for the commands that print them.
 * @module
 */
import type { Auth } from '../../accounts/auth.ts';
import { ValidationError } from '../../errors/api-exception.ts';
import { flattenMessages } from '../../fields/field.ts';

/** Every message of `error` (a `ValidationError`'s tree, flattened), else undefined. */
export function validationMessages(error: unknown): string[] | undefined {
  return error instanceof ValidationError ? flattenMessages(error.detail) : undefined;
}

/**
 * What the password validators of `auth` say of `password` for `user` (none when it passes);
 * any other error is thrown on.
 */
export function passwordProblems(
  auth: Auth,
  password: string,
  user: Record<string, unknown>,
): string[] {
  try {
    auth.validatePassword(password, user);
    return [];
  } catch (error) {
    const messages = validationMessages(error);
    if (!messages) throw error;
    return messages;
  }
}
