/**
 * Random keys for tokens, sessions and CSRF.
 * @module
 */
import { randomBytes } from 'node:crypto';

/** A random key of `bytes` bytes (default 20, DRF's token size), as hexadecimal. */
export function randomKey(bytes = 20): string {
  return randomBytes(bytes).toString('hex');
}
