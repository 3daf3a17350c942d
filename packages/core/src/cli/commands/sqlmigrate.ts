/**
 * `sqlmigrate APP NAME [--backwards]`: the SQL a migration runs on the configured database's
 * dialect, without running it.
 * @module
 */
import { MigrationExecutor } from '../../migrations/migration-executor.ts';
import { type Command, checkApp, projectGraph, UsageError, withDatabase } from '../command.ts';

export const sqlmigrate: Command = {
  name: 'sqlmigrate',
  summary: 'Prints the SQL of a migration for the configured database, without running it.',
  usage: 'sqlmigrate APP NAME [--backwards]',
  options: { backwards: { type: 'boolean' } },
  async run(context) {
    const config = await context.config();
    const [app, name] = context.positionals;
    if (!app || !name)
      throw new UsageError('sqlmigrate needs an app and a migration name: sqlmigrate APP NAME.');
    checkApp(config, app);
    const graph = await projectGraph(config);
    return withDatabase(config, async (db) => {
      const executor = new MigrationExecutor(db, graph, config.app);
      for (const statement of await executor.sqlFor(name, context.values.backwards === true)) {
        context.out(statement);
      }
      return 0;
    });
  },
};
