/**
 * The server of the authentication-cost benchmark (`src/auth-cost.ts`): the app of
 * `auth-cost-app.ts` listening on 127.0.0.1. `TOKEN_CACHE_SECONDS` sets the `Auth`'s token
 * cache (default 0, none). Prints `READY <port> <token key>`. SIGTERM closes it.
 * @module
 */
import { buildAuthCostApp } from './auth-cost-app.ts';

const { app, key } = await buildAuthCostApp(Number(process.env.TOKEN_CACHE_SECONDS ?? 0));
process.once('SIGTERM', () => {
  void app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0} ${key}\n`);
