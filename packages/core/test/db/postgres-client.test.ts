import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { testPostgresUrl } from '@restframework/core/testing';
import pg from 'pg';
import { postgresClients } from '../../src/db/dialect/postgres/postgres-client.ts';

const url = testPostgresUrl();

const { CallbackQueryClient, NamedStatementClient } = postgresClients(pg);

for (const Client of [CallbackQueryClient, NamedStatementClient]) {
  describe(`${Client.name} on PostgreSQL`, {
    skip: url ? false : 'TEST_POSTGRES_URL is not set: PostgreSQL tests skipped',
  }, () => {
    let client: pg.Client;
    before(async () => {
      client = new Client({ connectionString: url });
      await client.connect();
    });
    after(() => client.end());

    it('answers query(text, values) with a promise of the result', async () => {
      const result = (await client.query('select $1::int as n, $2::text as s', [
        7,
        'é',
      ])) as pg.QueryResult;
      assert.deepEqual(result.rows, [{ n: 7, s: 'é' }]);
      assert.equal(result.command, 'SELECT');
      // The same text again: a named statement is reused, not prepared twice.
      const again = (await client.query('select $1::int as n, $2::text as s', [
        8,
        'x',
      ])) as pg.QueryResult;
      assert.deepEqual(again.rows, [{ n: 8, s: 'x' }]);
    });

    it('rejects with the server error, and the connection stays usable', async () => {
      await assert.rejects(client.query('select 1 / $1::int as n', [0]), {
        code: '22012',
      });
      const result = (await client.query('select 2 as n', [])) as pg.QueryResult;
      assert.deepEqual(result.rows, [{ n: 2 }]);
    });

    it('leaves the other forms of query as pg has them', async () => {
      const text = (await client.query('select 3 as n')) as pg.QueryResult;
      assert.deepEqual(text.rows, [{ n: 3 }]);
      const config = (await client.query({
        text: 'select $1::int as n',
        values: [4],
      })) as pg.QueryResult;
      assert.deepEqual(config.rows, [{ n: 4 }]);
      const viaCallback = await new Promise<pg.QueryResult>((resolve, reject) =>
        client.query('select $1::int as n', [5], (error: Error | undefined, result) =>
          error ? reject(error) : resolve(result),
        ),
      );
      assert.deepEqual(viaCallback.rows, [{ n: 5 }]);
    });
  });
}

describe('rows read through CallbackQueryClient on PostgreSQL', {
  skip: url ? false : 'TEST_POSTGRES_URL is not set: PostgreSQL tests skipped',
}, () => {
  it('die young: few of the bytes of parsed rows outlive a young-generation collection', () => {
    // Measured in a fresh process (see the fixture). When this test was written, pg's own
    // promise form kept about 20 KB per query of 100 rows on Node 24 and on Node 22, this
    // client 0.4 to 3 KB. The bytes sampled in all vary more (9 to 35 KB per query: V8's
    // optimised code folds allocations, which the sampler then sees as fewer), so the bound
    // is on the surviving bytes.
    const script = fileURLToPath(new URL('../fixtures/row-survival.ts', import.meta.url));
    const output = execFileSync(process.execPath, [script, url as string, 'callback'], {
      encoding: 'utf8',
    });
    const { surviving, allocated } = JSON.parse(output) as {
      surviving: number;
      allocated: number;
    };
    const message = `${Math.round(surviving)} of ${Math.round(allocated)} bytes per query survived`;
    // The sampler saw the rows being parsed at all: the bound below would otherwise say nothing.
    assert.ok(allocated > 2000, message);
    assert.ok(surviving < 8000, message);
  });
});
