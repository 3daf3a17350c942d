/**
 * The toolkit contender: the bookstore (core + tricks) from its own `buildApp`, plus the
 * bench-only cursor route, on `BENCH_DATABASE_URL` at 127.0.0.1 (`PORT`, default a free one).
 * Prints `READY <port>` once it listens. SIGTERM closes it.
 * @module
 */
import { Database } from '@restframework/core';
import { buildApp } from '../../../examples/bookstore/src/app.ts';
import { registerBenchRoutes } from './bench-router.ts';

const db = Database.connect(process.env.BENCH_DATABASE_URL ?? 'sqlite:bookstore.sqlite3');
const app = await buildApp({ database: db });
await registerBenchRoutes(app);
app.addHook('onClose', () => db.close());
process.once('SIGTERM', () => {
  void app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
const address = app.server.address();
process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
