/**
 * Builds the package in the current folder to `dist/`: ESM JavaScript, declarations, source
 * maps (with the sources inlined) and declaration maps, from `tsconfig.build.json`; copies the
 * files under `src/` that are not TypeScript (static assets) beside them. `npm pack` runs it
 * (each package's `prepack`), so a tarball always holds a fresh build.
 *
 *   node ../../scripts/build-package.ts          (from a package folder)
 *   node ../../scripts/build-package.ts --clean  (removes dist/: each package's `postpack`)
 *
 * `dist/` lives only while a package is packed: a stale build left in the repository would be
 * picked silently by any process started without the source condition. Packages build
 * against each other's sources (the build's tsconfig keeps the condition), so the order of the
 * builds does not matter; the packaging tests check the declarations as a consumer sees them.
 *
 * Inside the repository nothing needs a build: the `@restframework/source` export condition
 * (set by `.npmrc`, `scripts/run-tests.ts` and `tsconfig.json`) points at the sources.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const pkg = process.cwd();
const dist = join(pkg, 'dist');
const src = join(pkg, 'src');

rmSync(dist, { recursive: true, force: true });
if (process.argv.includes('--clean')) process.exit(0);
const tsc = spawnSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], {
  cwd: pkg,
  stdio: 'inherit',
});
if (tsc.status !== 0) {
  console.error(`build-package: tsc failed in ${relative(root, pkg)}`);
  process.exit(1);
}

for (const file of walk(src)) {
  if (file.endsWith('.ts')) continue;
  cpSync(file, join(dist, relative(src, file)));
}

// tsc keeps the `.ts` of relative imports in declarations (it rewrites them only in the
// JavaScript); a consumer's declaration files should name the files that are there.
const TS_SPECIFIER = /((?:from |import\()\s*['"]\.{1,2}\/[^'"]*?)\.ts(['"])/g;
for (const file of walk(dist)) {
  if (!file.endsWith('.d.ts')) continue;
  const text = readFileSync(file, 'utf8');
  const fixed = text.replace(TS_SPECIFIER, '$1.js$2');
  if (fixed !== text) writeFileSync(file, fixed);
}
console.log(`build-package: ${relative(root, dist)} built`);

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}
