/**
 * Where the time goes in a `.cpuprofile` (from `npm run bench -- --profile DIR`): self time
 * by part of the stack (toolkit core, tricks, Fastify, Kysely, the driver, Node.js, GC) and
 * the functions with the most self time.
 *
 *   node bench/src/profile-summary.ts DIR/toolkit-round1-123.cpuprofile [--top 30]
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
  readonly parent?: number;
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The part of the stack a frame belongs to. */
export function partOf(frame: CallFrame): string {
  const url = frame.url;
  if (!url) {
    if (frame.functionName === '(garbage collector)') return 'GC';
    if (frame.functionName === '(idle)') return 'idle';
    if (frame.functionName === '(program)') return 'program (native, unattributed)';
    return 'native';
  }
  if (url.includes('/packages/core/')) return 'toolkit: core';
  if (url.includes('/packages/tricks/')) return 'toolkit: tricks';
  if (url.includes('/examples/bookstore/')) return 'bookstore';
  if (url.includes('/bench/baseline/')) return 'baseline';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) {
    const name = pkg[1] as string;
    if (
      name === 'fastify' ||
      name.startsWith('@fastify/') ||
      name === 'find-my-way' ||
      name === 'light-my-request' ||
      name === 'avvio'
    )
      return 'fastify';
    return name;
  }
  if (url.startsWith('node:')) return 'node';
  return url;
}

function frameName(frame: CallFrame): string {
  const file = frame.url.replace(/^.*\/(packages|node_modules|examples|bench)\//, '$1/');
  return `${frame.functionName || '(anonymous)'} ${file ? `${file}:${frame.lineNumber + 1}` : ''}`.trim();
}

/**
 * Self time (ms) by part and by function, and inclusive time (the function and what it
 * calls) of the toolkit's and Kysely's functions.
 */
export function summarize(profile: Profile): {
  total: number;
  parts: Map<string, number>;
  functions: Map<string, number>;
  inclusive: Map<string, number>;
} {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const part = partOf(node.callFrame);
    if (part === 'idle') continue;
    total += ms;
    parts.set(part, (parts.get(part) ?? 0) + ms);
    const name = frameName(node.callFrame);
    functions.set(name, (functions.get(name) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = (byId.get(at) as ProfileNode).callFrame;
      const part = partOf(frame);
      if (!part.startsWith('toolkit') && part !== 'kysely') continue;
      const key = frameName(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  }
  return { total, parts, functions, inclusive };
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string' } },
  });
  const top = Number(values.top ?? 30);
  for (const file of positionals) {
    const { total, parts, functions, inclusive } = summarize(
      JSON.parse(readFileSync(file, 'utf8')),
    );
    const pct = (ms: number) => `${((100 * ms) / total).toFixed(1)} %`;
    console.log(`\n## ${file}\n\nBusy (non-idle) time: ${(total / 1000).toFixed(1)} s\n`);
    console.log('| part | self time | share |\n| --- | --- | --- |');
    for (const [part, ms] of [...parts].sort((a, b) => b[1] - a[1]))
      console.log(`| ${part} | ${(ms / 1000).toFixed(2)} s | ${pct(ms)} |`);
    console.log('\n| function | self time | share |\n| --- | --- | --- |');
    for (const [name, ms] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`| \`${name}\` | ${ms.toFixed(0)} ms | ${pct(ms)} |`);
    console.log('\n| toolkit or Kysely function | inclusive time | share |\n| --- | --- | --- |');
    for (const [name, ms] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`| \`${name}\` | ${ms.toFixed(0)} ms | ${pct(ms)} |`);
  }
}
