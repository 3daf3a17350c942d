/**
 * Starts the baseline on `BENCH_DATABASE_URL` at 127.0.0.1 (`PORT`, default a free one) and
 * prints `READY <port>` once it listens. SIGTERM closes it.
 * @module
 */
import { buildBaseline } from './app.ts';

const app = await buildBaseline(process.env.BENCH_DATABASE_URL ?? 'sqlite:bookstore.sqlite3');
process.once('SIGTERM', () => {
  void app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
const address = app.server.address();
process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
