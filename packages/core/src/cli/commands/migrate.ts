/**
 * `migrate [app] [target]`: applies the pending migrations, or rolls back to `target`
 * (`zero` rolls back every migration).
 * @module
 */
import { MigrationExecutor } from '../../migrations/migration-executor.ts';
import { type Command, checkApp, projectGraph, withDatabase } from '../command.ts';

export const migrate: Command = {
  name: 'migrate',
  summary:
    'Applies pending migrations, or rolls back to a target (migrate APP NAME, migrate APP zero).',
  usage: 'migrate [APP] [NAME|zero] [--fake-initial]',
  options: { 'fake-initial': { type: 'boolean' } },
  async run(context) {
    const config = await context.config();
    const [app, target] = context.positionals;
    checkApp(config, app);
    const graph = await projectGraph(config);
    return withDatabase(config, async (db) => {
      const executor = new MigrationExecutor(db, graph, config.app);
      context.out('Running migrations:');
      const result = await executor.migrate({
        ...(target !== undefined ? { target } : {}),
        fakeInitial: context.values['fake-initial'] === true,
        log: (line) => {
          if (!line.endsWith('...')) context.out(line);
        },
      });
      if (result.applied.length + result.unapplied.length === 0)
        context.out('  No migrations to apply.');
      return 0;
    });
  },
};
