/**
 * Before measuring: each scenario's request sent once to each contender (on its own fresh
 * copy of the data), the answers compared. Reads must be byte-identical (only the port in
 * absolute URLs may differ), writes must have the same status, headers and JSON structure.
 * @module
 */
import http from 'node:http';
import type { FloorAnswer } from '../floor/app.ts';
import type { RunningServer } from './contenders.ts';
import type { Scenario } from './scenarios.ts';

/** The headers that must match (Content-Type above all). */
const COMPARED_HEADERS = [
  'content-type',
  'allow',
  'vary',
  'location',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
];

/** One answer, with the server's port replaced by `PORT`. */
export interface Captured {
  readonly status: number;
  /** The compared headers (`COMPARED_HEADERS`), by name. */
  readonly headers: Readonly<Record<string, string>>;
  /** Every header in the order it was sent, but those Node.js writes itself. */
  readonly sent: readonly (readonly [string, string])[];
  readonly body: string;
}

/** Headers Node.js writes itself (or that differ by the moment, not by the server). */
const NODE_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

/** One request with node:http, which keeps the headers in the order they came. */
function send(
  origin: string,
  method: string,
  path: string,
  body: string | undefined,
): Promise<{ status: number; raw: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${origin}${path}`,
      {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            raw: response.rawHeaders,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Sends the check request (the n = 0 request) of every scenario, in order. */
export async function capture(
  server: RunningServer,
  scenarios: readonly Scenario[],
): Promise<Map<string, Captured>> {
  const answers = new Map<string, Captured>();
  const host = `127.0.0.1:${server.port}`;
  const normalize = (text: string) => text.replaceAll(host, '127.0.0.1:PORT');
  for (const scenario of scenarios) {
    const request = scenario.request(0);
    const response = await send(server.origin, scenario.method, request.path, request.body);
    const headers: Record<string, string> = {};
    const sent: [string, string][] = [];
    for (let i = 0; i < response.raw.length; i += 2) {
      const name = (response.raw[i] as string).toLowerCase();
      const value = normalize(response.raw[i + 1] as string);
      if ((COMPARED_HEADERS as readonly string[]).includes(name)) headers[name] = value;
      if (!NODE_HEADERS.has(name)) sent.push([name, value]);
    }
    answers.set(scenario.id, {
      status: response.status,
      headers,
      sent,
      body: normalize(response.body),
    });
  }
  return answers;
}

/** What the floor answers for each scenario: the answer `answers` recorded for it. */
export function floorAnswers(
  scenarios: readonly Scenario[],
  answers: ReadonlyMap<string, Captured>,
): FloorAnswer[] {
  const floor: FloorAnswer[] = [];
  for (const scenario of scenarios) {
    const answer = answers.get(scenario.id);
    if (!answer) continue;
    floor.push({
      method: scenario.method,
      path: scenario.request(0).path,
      status: answer.status,
      headers: answer.sent,
      body: answer.body,
    });
  }
  return floor;
}

/** The JSON structure of a value: keys in order and the type of every leaf. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).map(([k, v]) => [k, shape(v)]);
  return value === null ? 'null' : typeof value;
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 60);
  return `at byte ${i}: toolkit …${a.slice(from, i + 60)}… baseline …${b.slice(from, i + 60)}…`;
}

/** Null when the answers agree, else what differs. */
export function compareAnswers(
  scenario: Scenario,
  toolkit: Captured | undefined,
  baseline: Captured | undefined,
): string | null {
  if (!toolkit || !baseline) return 'no answer';
  if (toolkit.status !== baseline.status)
    return `status ${toolkit.status} (toolkit) vs ${baseline.status} (baseline)`;
  if (toolkit.status !== scenario.status)
    return `status ${toolkit.status}, expected ${scenario.status}: ${toolkit.body.slice(0, 300)}`;
  for (const name of COMPARED_HEADERS) {
    if (toolkit.headers[name] !== baseline.headers[name]) {
      return `header ${name}: ${toolkit.headers[name] ?? '(none)'} (toolkit) vs ${baseline.headers[name] ?? '(none)'} (baseline)`;
    }
  }
  if (scenario.compare === 'exact') {
    return toolkit.body === baseline.body ? null : firstDifference(toolkit.body, baseline.body);
  }
  let a: unknown;
  let b: unknown;
  try {
    a = JSON.parse(toolkit.body);
    b = JSON.parse(baseline.body);
  } catch {
    return 'a body is not JSON';
  }
  const left = JSON.stringify(shape(a));
  const right = JSON.stringify(shape(b));
  return left === right ? null : `structure ${firstDifference(left, right)}`;
}
