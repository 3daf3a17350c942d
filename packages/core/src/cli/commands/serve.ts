/**
 * `serve`: runs the config's app in production, with `--workers N` processes on one port, a
 * crashed worker restarted, and a graceful stop on SIGTERM (see `server/serve.ts`).
 * @module
 */
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import { serve as runServer } from '../../server/serve.ts';
import { type Command, UsageError } from '../command.ts';

/** A whole number from an option or the environment, or `undefined` when neither is set. */
function wholeNumber(name: string, text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^\d{1,9}$/.test(text))
    throw new UsageError(`${name} must be a whole number, got "${text}".`);
  return Number(text);
}

export const serve: Command = {
  name: 'serve',
  summary: 'Runs the app: N worker processes, crashed ones restarted, graceful stop on SIGTERM.',
  usage:
    'serve [--workers N] [--host HOST] [--port PORT] [--drain-timeout MS] [--metrics-port PORT]',
  options: {
    workers: { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    'drain-timeout': { type: 'string' },
    'metrics-port': { type: 'string' },
  },
  async run(context) {
    const { values } = context;
    // Read before the config, so that a mistake in the command line is a usage error.
    const workers = wholeNumber(
      '--workers',
      (values.workers as string) ?? process.env.WEB_CONCURRENCY,
    );
    const port = wholeNumber('--port', (values.port as string) ?? process.env.PORT);
    const drainTimeoutMs = wholeNumber('--drain-timeout', values['drain-timeout'] as string);
    const metricsPort = wholeNumber('--metrics-port', values['metrics-port'] as string);
    const host = (values.host as string | undefined) ?? (process.env.HOST || undefined);
    const config = await context.config();
    if (!config.createApp) {
      throw new ImproperlyConfigured(
        'REST_ERR_SERVE',
        `${config.file}: serve needs createApp, a function that builds the Fastify app without ` +
          'listening (export default defineConfig({ ..., createApp: () => buildApp() })).',
      );
    }
    return runServer({
      createApp: config.createApp,
      ...(workers !== undefined ? { workers } : {}),
      ...(port !== undefined ? { port } : {}),
      ...(host !== undefined ? { host } : {}),
      ...(drainTimeoutMs !== undefined ? { drainTimeoutMs } : {}),
      ...(metricsPort !== undefined ? { metricsPort } : {}),
      log: context.out,
    });
  },
};
