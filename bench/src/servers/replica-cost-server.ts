/**
 * The server of the replica benchmark (`src/replica-cost.ts`): the bookstore's Book view set
 * at `/bench/books/` on `PRIMARY_URL` alone, or, with `REPLICA_URL`, on `Databases` with a
 * `PrimaryReplicaRouter` sending its reads to that replica. Prints `READY <port>` once the
 * replica counts as fit (or at once without one). SIGTERM closes it.
 * @module
 */
import {
  Database,
  Databases,
  DefaultRouter,
  PrimaryReplicaRouter,
  restFramework,
} from '@restframework/core';
import Fastify from 'fastify';
import { BookViewSet } from '../../../examples/bookstore/src/viewsets/book-viewsets.ts';

const primary = Database.connect(process.env.PRIMARY_URL as string, { poolSize: 4 });
const replicaUrl = process.env.REPLICA_URL;
const app = Fastify({ logger: false });
let databases: Databases | undefined;
if (replicaUrl) {
  const router = new PrimaryReplicaRouter({ replicas: ['replica'] });
  databases = new Databases(
    { default: primary, replica: Database.connect(replicaUrl, { poolSize: 4 }) },
    [router],
  );
  const [status] = await router.checkReplicas();
  if (status?.state !== 'ok') throw new Error(`the replica is not fit: ${JSON.stringify(status)}`);
  await app.register(restFramework, { databases });
} else {
  await app.register(restFramework, { database: primary });
}
await app.register(new DefaultRouter().register('books', BookViewSet).plugin, { prefix: '/bench' });
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => (databases ?? primary).close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
