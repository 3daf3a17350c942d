/**
 * Races in one process, on SQLite, PostgreSQL and MySQL/MariaDB: concurrent PATCHes of one book
 * lose no update, concurrent creates with one isbn give one 201, concurrent uploads with one
 * file name keep every file, and a PUT, a PATCH and a DELETE of one book at once get the same
 * answers on every database. (scale-out.test.ts runs the first three across two service
 * processes.)
 */
import { after, before, describe, it } from 'node:test';
import { testDialects } from '@restframework/core/testing';
import { type Client, isbnRace, patchRace, sameRowRace, uploadRace } from './races.ts';
import { type Bookstore, send, startBookstore } from './support.ts';

for (const dialect of testDialects()) {
  describe(`races on ${dialect.name}`, { skip: dialect.skip }, () => {
    let store: Bookstore;
    let client: Client;

    before(async () => {
      store = await startBookstore(dialect);
      client = async (_i, request) => {
        const response = await send(store.app, request);
        return { status: response.statusCode, body: response.body, headers: response.headers };
      };
    });
    after(() => store?.close());

    it('50 concurrent PATCHes of different groups of one book lose no update', async () => {
      await patchRace(client, 1, 1);
      await patchRace(client, 1, 2);
    });

    it('20 concurrent POSTs with one isbn give exactly one 201 and the rest 400', async () => {
      await isbnRace(client, 'RACE-ISBN-1');
    });

    it('20 concurrent uploads with one file name keep every file', async () => {
      await uploadRace(client, 'resume.txt');
    });

    it('a PUT, a PATCH and a DELETE of one book at once, for 19 books at once, get the same answers on every database', async (t) => {
      const tally = await sameRowRace(
        client,
        Array.from({ length: 19 }, (_, i) => i + 2),
      );
      t.diagnostic(JSON.stringify(tally));
    });
  });
}
