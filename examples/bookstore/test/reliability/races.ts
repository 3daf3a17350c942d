/**
 * Race scenarios, written against a `Client` so that the same checks run in one process
 * (`inject()`) and against several service processes on one database (HTTP).
 *
 * - 50 concurrent PATCHes of different groups and fields of one book lose no update.
 * - 20 concurrent POSTs with one isbn give exactly one 201 and nineteen 400s.
 * - 20 concurrent uploads with one file name keep every file, each with its own bytes.
 */
import assert from 'node:assert/strict';
import { multipart } from './arbitraries.ts';

/** One answer, whatever sent it. */
export interface Answer {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
}

/** Sends request number `i` (a client may pick a server by it). */
export type Client = (
  i: number,
  request: {
    readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    readonly url: string;
    readonly payload?: string | Buffer;
    readonly headers?: Record<string, string>;
  },
) => Promise<Answer>;

const json = (value: unknown) => ({
  payload: JSON.stringify(value),
  headers: { 'content-type': 'application/json' },
});

type Json = Record<string, any>;

/** The leaves of a book: how to read each, and the value every writer of it sends in round `n`. */
const LEAVES: readonly {
  readonly read: (book: Json) => unknown;
  readonly patch: (value: unknown) => Json;
  readonly value: (n: number, before: Json) => unknown;
}[] = [
  { read: (b) => b.title, patch: (v) => ({ title: v }), value: (n) => `Title ${n}` },
  {
    read: (b) => b.description,
    patch: (v) => ({ description: v }),
    value: (n) => `Description ${n}`,
  },
  { read: (b) => b.summary, patch: (v) => ({ summary: v }), value: (n) => `Summary ${n}` },
  {
    read: (b) => b.publishing_information.publication_date,
    patch: (v) => ({ publishing_information: { publication_date: v } }),
    value: (n) => `${1900 + n}-12-31`,
  },
  {
    read: (b) => b.publishing_information.isbn,
    patch: (v) => ({ publishing_information: { isbn: v } }),
    value: (n) => `RACE-${n}`,
  },
  {
    read: (b) => b.publishing_information.pages,
    patch: (v) => ({ publishing_information: { pages: v } }),
    value: (n) => 4000 + n,
  },
  {
    read: (b) => b.stock_information.stock_count,
    patch: (v) => ({ stock_information: { stock_count: v } }),
    value: (n) => 1000 + n,
  },
  {
    read: (b) => b.stock_information.price,
    patch: (v) => ({ stock_information: { price: v } }),
    value: (n) => `${4000 + n}.99`,
  },
  {
    read: (b) => b.stock_information.state,
    patch: (v) => ({ stock_information: { state: v } }),
    value: (_n, before) =>
      ['published', 'not_published', 'in_progress'].find(
        (s) => s !== before.stock_information.state,
      ),
  },
];

/**
 * 50 PATCHes at once, each of one field or one group's leaf, several per leaf (all writers of
 * a leaf send the same value, so the order they commit in does not matter): every PATCH is
 * answered 200 with its own value, and afterwards every leaf holds the value sent for it. A
 * write of the whole row from a stale read would put an old value back.
 */
export async function patchRace(client: Client, bookId: number, round: number): Promise<void> {
  const url = `/books/api/books/${bookId}/`;
  const before = JSON.parse((await client(0, { method: 'GET', url })).body) as Json;
  const values = LEAVES.map((leaf) => leaf.value(round, before));
  LEAVES.forEach((leaf, k) => {
    assert.notDeepEqual(
      leaf.read(before),
      values[k],
      'the book already holds a value the race sends',
    );
  });
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) => {
      const k = i % LEAVES.length;
      const leaf = LEAVES[k] as (typeof LEAVES)[number];
      return client(i, { method: 'PATCH', url, ...json(leaf.patch(values[k])) }).then((answer) => ({
        leaf,
        value: values[k],
        answer,
      }));
    }),
  );
  for (const { leaf, value, answer } of answers) {
    assert.equal(answer.status, 200, answer.body);
    assert.deepEqual(
      leaf.read(JSON.parse(answer.body)),
      value,
      `an answer lacks its own write: ${answer.body}`,
    );
  }
  const after = JSON.parse((await client(0, { method: 'GET', url })).body) as Json;
  LEAVES.forEach((leaf, k) => {
    assert.deepEqual(leaf.read(after), values[k], `a write was lost: ${JSON.stringify(after)}`);
  });
}

/** 20 POSTs of books with one isbn at once: one 201, nineteen 400s at the isbn, one row. */
export async function isbnRace(client: Client, isbn: string): Promise<void> {
  const body = {
    title: 'Race',
    publishing_information: { publication_date: '2020-02-02', isbn },
    stock_information: { price: '10.00' },
  };
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      client(i, { method: 'POST', url: '/books/api/books/', ...json(body) }),
    ),
  );
  const statuses = answers.map((a) => a.status).sort();
  assert.deepEqual(
    statuses,
    [201, ...Array(19).fill(400)],
    answers.map((a) => `${a.status} ${a.body}`).join('\n'),
  );
  for (const answer of answers.filter((a) => a.status === 400)) {
    assert.equal(
      answer.body,
      '{"publishing_information":{"isbn":["book with this isbn already exists."]}}',
    );
  }
  const list = await client(0, { method: 'GET', url: '/books/api/proxy-books/?ordering=-id' });
  const rows = (JSON.parse(list.body) as { results: Json[] }).results.filter(
    (b) => b.publishing_information.isbn === isbn,
  );
  assert.equal(rows.length, 1);
}

/** 20 uploads of one file name at once: twenty 201s, twenty stored names, each file its own bytes. */
export async function uploadRace(client: Client, filename: string): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      client(i, {
        method: 'POST',
        url: '/api/upload/',
        ...multipart([
          { name: 'username', value: `racer${i}` },
          { name: 'resume', filename, content: `resume number ${i}\n`.repeat(100 + i) },
        ]),
      }).then((answer) => ({ i, answer })),
    ),
  );
  const names = new Set<string>();
  for (const { i, answer } of answers) {
    assert.equal(answer.status, 201, answer.body);
    const resume = (JSON.parse(answer.body) as { resume: string }).resume;
    names.add(resume);
    const file = await client(i + 1, { method: 'GET', url: new URL(resume).pathname });
    assert.equal(file.status, 200, `${resume}: ${file.status}`);
    assert.equal(
      file.body,
      `resume number ${i}\n`.repeat(100 + i),
      `${resume} holds another upload's bytes`,
    );
  }
  assert.equal(names.size, 20, [...names].join('\n'));
}

/** What three writers of one book got, e.g. `PUT 200, PATCH 404, DELETE 204`, counted. */
export type RowRaceTally = Record<string, number>;

/**
 * A PUT (a new title and isbn), a PATCH (a new title) and a DELETE of one book at once, for
 * each of `bookIds` at once: the DELETE is 204, the PUT and the PATCH are 200 with their own
 * values or 404 (the book was gone when they read it), never another answer (a deadlock the
 * database broke is run again, not answered 503), and every book is gone afterwards. The
 * same answers PostgreSQL and SQLite give, whatever the order the writers went in.
 */
export async function sameRowRace(
  client: Client,
  bookIds: readonly number[],
): Promise<RowRaceTally> {
  const tally: RowRaceTally = {};
  await Promise.all(
    bookIds.map(async (id) => {
      const url = `/books/api/books/${id}/`;
      const before = await client(0, { method: 'GET', url });
      assert.equal(before.status, 200, before.body);
      const book = JSON.parse(before.body) as Json;
      const put = {
        title: `Put ${id}`,
        description: book.description,
        summary: book.summary,
        publishing_information: { ...book.publishing_information, isbn: `ROW-${id}` },
        stock_information: book.stock_information,
      };
      const [putAnswer, patchAnswer, deleteAnswer] = await Promise.all([
        client(id, { method: 'PUT', url, ...json(put) }),
        client(id + 1, { method: 'PATCH', url, ...json({ title: `Patch ${id}` }) }),
        client(id + 2, { method: 'DELETE', url }),
      ]);
      const answers = [
        ['PUT', putAnswer, `Put ${id}`],
        ['PATCH', patchAnswer, `Patch ${id}`],
      ] as const;
      assert.equal(deleteAnswer.status, 204, `DELETE ${url}: ${deleteAnswer.body}`);
      for (const [method, answer, title] of answers) {
        assert.ok(
          answer.status === 200 || answer.status === 404,
          `${method} ${url}: ${answer.status} ${answer.body}`,
        );
        if (answer.status === 200) assert.equal((JSON.parse(answer.body) as Json).title, title);
      }
      const after = await client(0, { method: 'GET', url });
      assert.equal(after.status, 404, `${url} outlived its DELETE: ${after.body}`);
      const key = `PUT ${putAnswer.status}, PATCH ${patchAnswer.status}, DELETE 204`;
      tally[key] = (tally[key] ?? 0) + 1;
    }),
  );
  return tally;
}
