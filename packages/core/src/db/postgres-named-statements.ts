/**
 * PostgreSQL connections that prepare each query once. Kysely sends every query as an
 * unnamed statement, which the server parses and plans on every run; a named one is parsed
 * once per connection and then only bound and executed. The toolkit's queries come from a
 * bounded set of texts (values always travel as parameters), so naming them is safe.
 * @module
 */
import pg from 'pg';

/** Past this many distinct texts, further ones run unnamed: the server's memory stays bounded. */
const MAX_NAMED_STATEMENTS = 2000;

/** Only data statements are named; transaction control and DDL run as they are. */
const NAMEABLE = /^\s*(?:select|insert|update|delete|with)\b/i;

/** One name per text, shared by every connection (each prepares it on first use). */
const names = new Map<string, string>();

/**
 * The statement name of a query text (`rf12`), or undefined for a text that is not named:
 * not a data statement, or past the limit.
 */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMED_STATEMENTS || !NAMEABLE.test(text)) return undefined;
    name = `rf${names.size}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A `pg.Client` that runs `query(text, values)` as the named statement of its text (see
 * {@link statementName}); every other form of `query` is left as it is.
 *
 * @example
 * ```ts
 * const pool = new pg.Pool({ connectionString, Client: NamedStatementClient });
 * ```
 */
export class NamedStatementClient extends pg.Client {
  // pg's overloads, as one signature: the named form is one of them.
  override query(...args: any[]): any {
    const [text, values, callback] = args;
    if (typeof text === 'string' && Array.isArray(values) && callback === undefined) {
      const name = statementName(text);
      if (name !== undefined) return super.query({ name, text, values });
    }
    return (super.query as (...rest: unknown[]) => unknown)(...args);
  }
}
