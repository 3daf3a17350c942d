/**
 * Before measuring: each scenario's request sent once to each contender (on its own fresh
 * copy of the data), the answers compared. Reads must be byte-identical (only the port in
 * absolute URLs may differ), writes must have the same status, headers and JSON structure.
 * @module
 */
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
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
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
    const response = await fetch(server.origin + request.path, {
      method: scenario.method,
      ...(request.body !== undefined
        ? { body: request.body, headers: { 'content-type': 'application/json' } }
        : {}),
    });
    const headers: Record<string, string> = {};
    for (const name of COMPARED_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = normalize(value);
    }
    answers.set(scenario.id, {
      status: response.status,
      headers,
      body: normalize(await response.text()),
    });
  }
  return answers;
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
