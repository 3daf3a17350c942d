#!/usr/bin/env node
/**
 * `npm create restframework-app <folder>` (or `npx create-restframework-app <folder>`): writes a
 * new service there, then says the two commands to run.
 * @module
 */
import { parseArgs } from 'node:util';
import { createProject, StarterError } from './create-project.ts';

const USAGE = `Usage: create-restframework-app <folder> [--name <package-name>]

Writes a new JSON API project (a model, a serializer, a view set, an app, a test) into <folder>.`;

function main(argv: string[]): number {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  const [directory, ...extra] = parsed.positionals;
  if (directory === undefined || extra.length > 0) {
    console.error(USAGE);
    return 2;
  }
  try {
    const project = createProject({
      directory,
      ...(parsed.values.name === undefined ? {} : { name: parsed.values.name }),
    });
    console.log(`Created ${project.name} in ${project.directory}:`);
    for (const file of project.files) console.log(`  ${file}`);
    console.log(`\nNext:\n  cd ${directory}\n  npm install\n  npm start   # or: npm test`);
    return 0;
  } catch (error) {
    if (!(error instanceof StarterError)) throw error;
    console.error(error.message);
    return 1;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
}

process.exitCode = main(process.argv.slice(2));
