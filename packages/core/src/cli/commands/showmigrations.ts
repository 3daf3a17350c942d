/**
 * `showmigrations`: every migration of the project, `[X]` when the database applied it.
 * @module
 */
import { MigrationExecutor } from '../../migrations/migration-executor.ts';
import { type Command, checkApp, projectGraph, withDatabase } from '../command.ts';

export const showmigrations: Command = {
  name: 'showmigrations',
  summary: 'Lists the migrations, [X] for those the database applied.',
  usage: 'showmigrations [APP]',
  options: {},
  async run(context) {
    const config = await context.config();
    checkApp(config, context.positionals[0]);
    const graph = await projectGraph(config);
    return withDatabase(config, async (db) => {
      const status = await new MigrationExecutor(db, graph, config.app).status();
      context.out(config.app);
      if (status.length === 0) context.out(' (no migrations)');
      for (const { name, applied } of status) context.out(` [${applied ? 'X' : ' '}] ${name}`);
      return 0;
    });
  },
};
