/**
 * Figures to markdown: medians over rounds, the ratio toolkit/baseline from the same run,
 * the machine, and the section of `bench/RESULTS.md` the harness owns.
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import BetterSqlite3 from 'better-sqlite3';

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export const fmt = {
  rps: (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–'),
  ms: (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–'),
  us: (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–'),
  mb: (bytes: number) => (bytes > 0 ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : '–'),
  ratio: (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '–'),
};

/** A markdown table, its columns padded as the project's formatter (Biome) writes them. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const length = (text: string) => [...text].length;
  const widths = header.map((h, i) =>
    Math.max(3, length(h), ...rows.map((row) => length(row[i] ?? ''))),
  );
  const line = (cells: readonly string[]) =>
    `| ${widths.map((w, i) => `${cells[i] ?? ''}${' '.repeat(w - length(cells[i] ?? ''))}`).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Cores, CPU model, Node.js and database versions. */
export function machine(vendor: string, databaseVersion?: string): string {
  const list = cpus();
  const sqlite = (() => {
    const db = new BetterSqlite3(':memory:');
    try {
      return (db.prepare('select sqlite_version() as v').get() as { v: string }).v;
    } finally {
      db.close();
    }
  })();
  const database =
    vendor === 'sqlite'
      ? `SQLite ${sqlite} (better-sqlite3)`
      : vendor === 'mysql'
        ? `MySQL/MariaDB ${databaseVersion ?? '?'} (mysql2)`
        : `PostgreSQL ${databaseVersion ?? '?'} (pg)`;
  return `${list.length} cores, ${list[0]?.model.trim() ?? 'unknown CPU'}, Node.js ${process.version}, ${database}, ${process.platform} ${process.arch}`;
}

/**
 * Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` in RESULTS.md
 * (appends the section when it is not there), leaving every other section as it is.
 */
export function writeSection(file: string, name: string, content: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${content.trim()}\n${end}`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  const next =
    from !== -1 && to > from
      ? text.slice(0, from) + block + text.slice(to + end.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}
