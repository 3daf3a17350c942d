/**
 * Starts the floor (`app.ts`) on 127.0.0.1 (`PORT`, default a free one) with the answers of
 * the JSON file named by `BENCH_FLOOR_ANSWERS`, and prints `READY <port>` once it listens.
 * SIGTERM closes it.
 * @module
 */
import { readFileSync } from 'node:fs';
import { buildFloor, type FloorAnswer } from './app.ts';

const file = process.env.BENCH_FLOOR_ANSWERS;
if (!file) throw new Error('BENCH_FLOOR_ANSWERS must name the recorded answers (a JSON file)');
const answers = JSON.parse(readFileSync(file, 'utf8')) as FloorAnswer[];
const { app, answerWith } = buildFloor(answers);
process.once('SIGTERM', () => {
  void app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
answerWith(port);
process.stdout.write(`READY ${port}\n`);
