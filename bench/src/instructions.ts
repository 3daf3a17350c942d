/**
 * Instructions per request, counted by valgrind's callgrind: the same for the same build and
 * inputs whatever else the machine is doing, where times on this VM drift by tens of percent.
 * Each checkout's contender serves `--requests` requests after `--warmup` others, twice (the
 * second run twice as long), and the difference of the two counts divided by `--requests` is
 * the cost of one request with start-up and warm-up taken out. The client runs in the same
 * process (`servers/instruction-client.ts`), so the figure includes it: compare figures,
 * never read one alone. Kernel work (the socket writes) is not counted.
 *
 *   npm run bench:instructions -- --a /tmp/before --b . --path /books/api/books/1/
 *   npm run bench:instructions -- --a . --contenders toolkit,baseline
 *
 * The default warm-up is long (15,000 requests) because V8 keeps compiling for a while: after
 * 3,000 requests of GET one book, Turbofan still took 164,000 of the toolkit's 546,000
 * instructions per request of the next 3,000, against 10,600 of 338,000 after 15,000.
 *
 * Needs valgrind (`apt-get install -y valgrind`); takes about six minutes per contender.
 * @module
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from '@restframework/core';
import { ALL_MODELS } from '../../examples/bookstore/src/models/index.ts';
import { seed } from '../../examples/bookstore/src/seed.ts';

const HELP = `Options:
  --a DIR             a checkout (default .)
  --b DIR             another checkout to compare with the first (optional)
  --contenders a,b    toolkit and/or baseline (default toolkit)
  --path P            the request's path (default /books/api/books/1/)
  --method M          its method (default GET)
  --body JSON         its JSON body; UNIQUE in it changes with every request
  --warmup N          requests before the counted ones (default 15000)
  --requests N        requests counted (default 3000)`;

const { values } = parseArgs({
  options: {
    a: { type: 'string', default: '.' },
    b: { type: 'string' },
    contenders: { type: 'string', default: 'toolkit' },
    path: { type: 'string', default: '/books/api/books/1/' },
    method: { type: 'string', default: 'GET' },
    body: { type: 'string' },
    warmup: { type: 'string', default: '15000' },
    requests: { type: 'string', default: '3000' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const warmup = Number(values.warmup);
const requests = Number(values.requests);
if (!Number.isSafeInteger(warmup) || warmup < 1 || !Number.isSafeInteger(requests) || requests < 1)
  throw new Error('--warmup and --requests must be positive integers');
const contenders = values.contenders.split(',');
for (const c of contenders) {
  if (c !== 'toolkit' && c !== 'baseline') throw new Error(`unknown contender "${c}"`);
}
const checkouts = [values.a, ...(values.b ? [values.b] : [])].map((dir) => resolve(dir));
const client = join(import.meta.dirname, 'servers', 'instruction-client.ts');

const work = mkdtempSync(join(tmpdir(), 'rf-instructions-'));
const template = join(work, 'template.sqlite3');
const db = Database.connect(`sqlite:${template}`);
await db.migrate(ALL_MODELS);
await seed(db);
await db.close();

/** Total instructions of one run of `count` requests (callgrind's "summary" line). */
function count(checkout: string, contender: string, total: number, tag: string): Promise<number> {
  const file = join(work, `${tag}.sqlite3`);
  rmSync(file, { force: true });
  copyFileSync(template, file);
  const out = join(work, `${tag}.callgrind`);
  const args = [
    '--tool=callgrind',
    `--callgrind-out-file=${out}`,
    // V8 writes and rewrites its machine code.
    '--smc-check=all-non-file',
    process.execPath,
    // No compiler or GC threads, no time-based heuristics: the same run every time.
    '--single-threaded',
    '--predictable',
    '--expose-gc',
    client,
    checkout,
    contender,
    file,
    values.path,
    String(total),
    values.method,
    ...(values.body ? [values.body] : []),
  ];
  return new Promise((done, fail) => {
    execFile('valgrind', args, { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error)
        return fail(
          new Error(`valgrind failed (${checkout}, ${contender}): ${stderr.slice(-2000)}`),
        );
      const summary = /^summary: (\d+)$/m.exec(readFileSync(out, 'utf8'));
      if (!summary) return fail(new Error(`no summary in ${out}`));
      done(Number(summary[1]));
    });
  });
}

const rows: { checkout: string; contender: string; perRequest: number }[] = [];
try {
  for (const checkout of checkouts) {
    for (const contender of contenders) {
      const tag = `${rows.length}`;
      // Both runs at once: each is single-threaded, and counts do not depend on timing.
      const [short, long] = await Promise.all([
        count(checkout, contender, warmup, `${tag}-short`),
        count(checkout, contender, warmup + requests, `${tag}-long`),
      ]);
      const perRequest = Math.round((long - short) / requests);
      rows.push({ checkout, contender, perRequest });
      console.log(
        `${checkout} ${contender}: ${perRequest.toLocaleString('en')} instructions per request`,
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const first = rows[0];
if (first && rows.length > 1) {
  console.log(`\n${values.method} ${values.path}`);
  for (const row of rows) {
    console.log(
      `${row.checkout} ${row.contender}: ${row.perRequest.toLocaleString('en')} (${(row.perRequest / first.perRequest).toFixed(3)} of the first)`,
    );
  }
}
