/**
 * The unavailable log writes one warning per kind of outage per interval, whatever the number
 * of failures, each with the kind, the driver's code and message, no stack, and the count of
 * the failures of its kind it left out.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DatabaseUnavailableError,
  UNAVAILABLE_KINDS,
  type UnavailableKind,
} from '@restframework/core';
import { logUnavailable, UNAVAILABLE_LOG_INTERVAL_MS } from '@restframework/core/internal';
import fc from 'fast-check';

interface Line {
  readonly details: Record<string, unknown>;
  readonly message: string;
}

function recorder(): {
  lines: Line[];
  warn(details: Record<string, unknown>, message: string): void;
} {
  const lines: Line[] = [];
  return { lines, warn: (details, message) => lines.push({ details, message }) };
}

/** An error of `kind` with a driver error behind it. */
function failure(kind: UnavailableKind): DatabaseUnavailableError {
  const cause = Object.assign(new Error(`driver says ${kind}`), { code: `CODE_${kind}` });
  return new DatabaseUnavailableError(undefined, { kind, cause });
}

/** Each test starts past every earlier test's interval: the log's state is the process's. */
let clock = 0;
function laterClock(): number {
  clock += 100 * UNAVAILABLE_LOG_INTERVAL_MS;
  return clock;
}

describe('the unavailable log', () => {
  it('writes one line per kind per interval, whatever the failures and their order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: fc.constantFrom(...UNAVAILABLE_KINDS),
            at: fc.integer({ min: 0, max: 3 * UNAVAILABLE_LOG_INTERVAL_MS - 1 }),
          }),
          { maxLength: 200 },
        ),
        (failures) => {
          const start = laterClock();
          // Lines an interval before, so that no kind carries failures left out earlier.
          for (const kind of UNAVAILABLE_KINDS)
            logUnavailable(recorder(), failure(kind), start - UNAVAILABLE_LOG_INTERVAL_MS);
          const log = recorder();
          const sorted = [...failures].sort((a, b) => a.at - b.at);
          for (const { kind, at } of sorted) logUnavailable(log, failure(kind), start + at);
          // Per kind, the lines the interval allows: the first failure, then the first one at
          // least an interval after the last line.
          const expected: Line[] = [];
          for (const kind of UNAVAILABLE_KINDS) {
            let last = Number.NEGATIVE_INFINITY;
            let skipped = 0;
            for (const { at } of sorted.filter((f) => f.kind === kind)) {
              if (at - last < UNAVAILABLE_LOG_INTERVAL_MS) {
                skipped++;
                continue;
              }
              expected.push({
                details: {
                  kind,
                  code: `CODE_${kind}`,
                  errno: undefined,
                  cause: `driver says ${kind}`,
                  unloggedSinceLast: skipped,
                },
                message: `database unavailable (${kind}), answering 503: ${failure(kind).message}`,
              });
              last = at;
              skipped = 0;
            }
          }
          const byKind = (lines: Line[]) =>
            [...lines].sort((a, b) => String(a.details.kind).localeCompare(String(b.details.kind)));
          // Lines of one kind keep their order (a stable sort).
          assert.deepEqual(byKind(log.lines), byKind(expected));
        },
      ),
      { seed: 20260137, numRuns: 100 },
    );
  });

  it('keeps a lock timeout from hiding missing tables, and the other way round', () => {
    const start = laterClock();
    const log = recorder();
    for (let i = 0; i < 100; i++) {
      logUnavailable(log, failure('locked'), start + i);
      logUnavailable(log, failure('schema-missing'), start + i);
    }
    assert.deepEqual(
      log.lines.map((line) => line.details.kind),
      ['locked', 'schema-missing'],
    );
    logUnavailable(log, failure('locked'), start + UNAVAILABLE_LOG_INTERVAL_MS);
    assert.equal(log.lines.at(-1)?.details.unloggedSinceLast, 99);
  });

  it('logs no stack and no connection string', () => {
    const log = recorder();
    const cause = Object.assign(new Error('password authentication failed for user "app"'), {
      code: '28P01',
      stack: 'Error: at postgres://app:secret@db/shop',
    });
    logUnavailable(
      log,
      new DatabaseUnavailableError(undefined, { kind: 'unreachable', cause }),
      laterClock(),
    );
    assert.equal(log.lines.length, 1);
    assert.doesNotMatch(JSON.stringify(log.lines), /secret|postgres:\/\//);
  });
});
