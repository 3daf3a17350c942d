/**
 * Writes a new project from the template: the files under `template/`, a `package.json` made
 * for the project's name, and `.gitignore` (stored as `gitignore`: npm drops files named
 * `.gitignore` from tarballs).
 *
 * @example
 * ```ts
 * const project = createProject({ directory: 'my-service' });
 * console.log(project.files); // ['.gitignore', 'README.md', 'package.json', ...]
 * ```
 * @module
 */
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import validateName from 'validate-npm-package-name';
import { projectPackageJson } from './project-package-json.ts';

/** What {@link createProject} needs. */
export interface CreateProjectOptions {
  /** The folder to create (or an empty one to fill). */
  readonly directory: string;
  /** The package name (default: the folder's name). */
  readonly name?: string;
}

/** What {@link createProject} wrote. */
export interface CreatedProject {
  readonly directory: string;
  readonly name: string;
  /** The files written, relative to the folder, sorted. */
  readonly files: readonly string[];
}

/** A mistake in the command's arguments: the message says what to change. */
export class StarterError extends Error {
  override readonly name = 'StarterError';
}

const TEMPLATE = join(import.meta.dirname, '..', 'template');

/** Writes the project; throws {@link StarterError} for a bad name or a folder in use. */
export function createProject(options: CreateProjectOptions): CreatedProject {
  const directory = resolve(options.directory);
  const name = options.name ?? basename(directory);
  const check = validateName(name);
  if (!check.validForNewPackages) {
    const reasons = [...(check.errors ?? []), ...(check.warnings ?? [])].join('; ');
    throw new StarterError(
      `"${name}" cannot be a package name (${reasons}): pass --name with a lower-case name such as my-service.`,
    );
  }
  if (existsSync(directory) && readdirSync(directory).length > 0) {
    throw new StarterError(
      `${directory} is not empty: choose a new folder, or empty this one first.`,
    );
  }
  cpSync(TEMPLATE, directory, { recursive: true });
  renameSync(join(directory, 'gitignore'), join(directory, '.gitignore'));
  const readme = join(directory, 'README.md');
  writeFileSync(readme, readFileSync(readme, 'utf8').replaceAll('{{name}}', name));
  writeFileSync(
    join(directory, 'package.json'),
    `${JSON.stringify(projectPackageJson(name), null, 2)}\n`,
  );
  return { directory, name, files: listFiles(directory) };
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listFiles(join(dir, entry.name), `${prefix}${entry.name}/`)
        : [`${prefix}${entry.name}`],
    )
    .sort();
}
