/**
 * Case-insensitive matching gives the same rows on every database, checked with generated
 * words of mixed case, accents and several scripts: `iexact`, `icontains`, `istartswith` and
 * `iendswith` fold case as `foldCase` does (upper then lower, one character for one), keep
 * accents, and take `%`, `_` and `\` literally; the case-sensitive forms compare code points.
 * The `unaccent__*` lookups fold accents first (`foldAccents`) where the database can, and
 * name the capability where it cannot; PostgreSQL's `migrate` refuses a fold collation that
 * folds ASCII only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Database,
  defineModel,
  foldAccents,
  foldCase,
  models,
  PostgresAdapter,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';

const Word = defineModel({
  name: 'Word',
  table: 'parity_word',
  fields: { text: models.CharField({ maxLength: 60 }) },
  ordering: ['id'],
});

/**
 * Letters every database folds alike (Unicode up to version 14: later letters may fold on one
 * database and not on another, as docs/api/models-and-queries.md says), with the ones whose
 * case is special: `ß`/`ẞ`, Turkish `İ`/`ı`, final `ς`, the long `ſ`, the Kelvin sign; and the
 * LIKE wildcards and escape.
 */
const LETTERS = [
  ...'aAbBcCzZ09 ',
  ...'éÉèÈêÊëËàÀâÂäÄöÖüÜïÏîÎôÔçÇñÑåÅøØæÆœŒ',
  ...'ßẞıİiIſsSKk',
  ...'ĞğŞşŁłŠšŽžĐđ',
  ...'αΑσςΣωΩάΆέΈΐϊΪΰ',
  ...'жЖяЯёЁйЙіІїЇ',
  ...'ȺⱥǅǆǄꞫɜ',
  ...'%_\\*?[',
];
const letter = fc.constantFrom(...LETTERS);
const word = fc.array(letter, { minLength: 1, maxLength: 10 }).map((chars) => chars.join(''));

/** `text` with each character's case changed at random, as a client may type it. */
const recased = (text: string) =>
  fc
    .array(fc.constantFrom('upper', 'lower', 'same'), {
      minLength: [...text].length,
      maxLength: [...text].length,
    })
    .map((changes) =>
      [...text]
        .map((c, i) => {
          const changed =
            changes[i] === 'upper' ? c.toUpperCase() : changes[i] === 'lower' ? c.toLowerCase() : c;
          // Only one-for-one changes: `ß` upper-cased in full is `SS`, another word.
          return [...changed].length === 1 ? changed : c;
        })
        .join(''),
    );

/** A word of the corpus, cut and re-cased, or a new word: what a client searches for. */
const corpusAndNeedle = fc.uniqueArray(word, { minLength: 1, maxLength: 8 }).chain((words) =>
  fc.tuple(
    fc.constant(words),
    fc.oneof(
      fc
        .tuple(fc.constantFrom(...words), fc.nat(), fc.nat())
        .map(([w, a, b]) => {
          const chars = [...w];
          const from = a % chars.length;
          return chars.slice(from, from + 1 + (b % (chars.length - from))).join('');
        })
        .chain(recased),
      word,
    ),
  ),
);

const MATCHES: Record<string, (text: string, needle: string) => boolean> = {
  exact: (t, n) => t === n,
  contains: (t, n) => t.includes(n),
  startswith: (t, n) => t.startsWith(n),
  endswith: (t, n) => t.endsWith(n),
  iexact: (t, n) => foldCase(t) === foldCase(n),
  icontains: (t, n) => foldCase(t).includes(foldCase(n)),
  istartswith: (t, n) => foldCase(t).startsWith(foldCase(n)),
  iendswith: (t, n) => foldCase(t).endsWith(foldCase(n)),
};

const ACCENT_MATCHES: Record<string, (text: string, needle: string) => boolean> = {
  unaccent__exact: (t, n) => foldAccents(t) === foldAccents(n),
  unaccent__contains: (t, n) => foldAccents(t).includes(foldAccents(n)),
  unaccent__icontains: (t, n) => foldCase(foldAccents(t)).includes(foldCase(foldAccents(n))),
  unaccent__istartswith: (t, n) => foldCase(foldAccents(t)).startsWith(foldCase(foldAccents(n))),
  unaccent__iendswith: (t, n) => foldCase(foldAccents(t)).endsWith(foldCase(foldAccents(n))),
  unaccent__iexact: (t, n) => foldCase(foldAccents(t)) === foldCase(foldAccents(n)),
};

/**
 * For generated words and searches, each lookup of `matches` finds on `db` the words its
 * function (what the lookup means, in JavaScript) keeps.
 */
async function sameRowsAs(
  db: () => Database,
  matches: Record<string, (text: string, needle: string) => boolean>,
  numRuns: number,
): Promise<void> {
  const words = () => Word.objects.using(db());
  await fc.assert(
    fc.asyncProperty(corpusAndNeedle, async ([corpus, needle]) => {
      await words().delete();
      for (const text of corpus) await words().create({ text });
      for (const [lookup, match] of Object.entries(matches)) {
        const found = await words()
          .filter({ [`text__${lookup}`]: needle })
          .execute();
        assert.deepEqual(
          found.map((row) => row.text),
          corpus.filter((text) => match(text, needle)),
          `${lookup} ${JSON.stringify(needle)} in ${JSON.stringify(corpus)}`,
        );
      }
    }),
    { numRuns },
  );
}

for (const dialect of testDialects()) {
  describe(`case-insensitive matching on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    const words = () => Word.objects.using(db);
    const texts = async (filter: Record<string, unknown>) =>
      (await words().filter(filter).execute()).map((row) => row.text);

    before(async () => {
      db = await dialect.create();
      await db.migrate([Word]);
    });
    after(() => dialect.drop(db));

    it('finds the same rows as foldCase for generated words and searches', async () => {
      await sameRowsAs(() => db, MATCHES, 40);
    });

    it('folds every letter of the Latin, Greek and Cyrillic blocks as foldCase does', async () => {
      const letters: string[] = [];
      for (const [from, to] of [
        [0x41, 0x24f],
        [0x370, 0x3ff],
        [0x400, 0x52f],
        [0x1e00, 0x1fff],
        [0x2c60, 0x2c7f],
        [0xa720, 0xa7ca],
      ] as const) {
        for (let cp = from; cp <= to; cp++) {
          const c = String.fromCodePoint(cp);
          if (/\p{L}/u.test(c)) letters.push(c);
        }
      }
      await words().delete();
      for (let i = 0; i < letters.length; i += 200) {
        const chunk = letters.slice(i, i + 200);
        await db.kysely
          .insertInto('parity_word')
          .values(chunk.map((text) => ({ text })))
          .execute();
      }
      const rows = await db.kysely
        .selectFrom('parity_word')
        .select((eb) => ['text', db.adapter.foldCase(eb.ref('text')).as('folded')])
        .orderBy('id')
        .execute();
      const wrong = rows.filter((row) => row.folded !== foldCase(row.text));
      assert.deepEqual(
        wrong.map((row) => `${row.text} U+${row.text.codePointAt(0).toString(16)}: ${row.folded}`),
        [],
      );
      assert.equal(rows.length, letters.length);
    });

    it('CAFÉ finds café and Café but not cafe; accents and special letters as documented', async () => {
      await words().delete();
      const corpus = [
        'café',
        'ho Café',
        'cafe',
        'naïve',
        'NAIVE',
        'äöü',
        'οδος',
        'ΟΔΟΣ',
        'straße',
        'STRASSE',
        'İstanbul',
        'ılık',
        'Москва',
        '100% pure',
        '100 pure',
        'a_b',
        'a*b',
        'a\\b',
      ];
      for (const text of corpus) await words().create({ text });
      const cases: [string, string, string[]][] = [
        ['icontains', 'CAFÉ', ['café', 'ho Café']],
        ['icontains', 'CAFE', ['cafe']],
        ['iexact', 'NAÏVE', ['naïve']],
        ['iexact', 'ÄÖÜ', ['äöü']],
        ['iexact', 'οδοσ', ['οδος', 'ΟΔΟΣ']],
        ['iexact', 'ΟΔΟς', ['οδος', 'ΟΔΟΣ']],
        ['icontains', 'STRAẞE', ['straße']],
        ['icontains', 'ss', ['STRASSE']],
        ['istartswith', 'ISTANBUL', ['İstanbul']],
        ['istartswith', 'ILIK', ['ılık']],
        ['iendswith', 'МОСКВА', ['Москва']],
        ['icontains', '100%', ['100% pure']],
        ['icontains', 'A_B', ['a_b']],
        ['iendswith', '_b', ['a_b']],
        ['icontains', 'a\\', ['a\\b']],
        ['istartswith', '%', []],
        ['iendswith', '*b', ['a*b']],
        ['endswith', 'B', []],
      ];
      for (const [lookup, value, expected] of cases) {
        assert.deepEqual(
          await texts({ [`text__${lookup}`]: value }),
          expected,
          `${lookup} ${value}`,
        );
      }
    });

    it('folds accents then case where the database can, else names the capability', async () => {
      if (!db.adapter.capabilities.accentFolding) {
        assert.throws(
          () => words().filter({ text__unaccent__icontains: 'cafe' }).compile(),
          (error: Error & { code?: string }) =>
            error.code === 'REST_ERR_QUERY_LOOKUP' &&
            /the "unaccent__icontains" lookup folds accents, which mysql cannot/.test(
              error.message,
            ),
        );
        return;
      }
      await words().delete();
      const corpus = [
        'café',
        'ho Café',
        'cafe',
        'CAFÉ',
        'naïve',
        'Øresund',
        'Ångström',
        'йод',
        'ёж',
        'Straße',
        'Ελλάδα',
      ];
      for (const text of corpus) await words().create({ text });
      const cases: [string, string, string[]][] = [
        ['text__unaccent__icontains', 'CAFE', ['café', 'ho Café', 'cafe', 'CAFÉ']],
        ['text__unaccent', 'cafe', ['café', 'cafe']],
        ['text__unaccent__exact', 'cafe', ['café', 'cafe']],
        ['text__unaccent__iexact', 'NAIVE', ['naïve']],
        ['text__unaccent__icontains', 'oresund', []],
        ['text__unaccent__istartswith', 'angst', ['Ångström']],
        ['text__unaccent__iexact', 'ИОД', ['йод']],
        ['text__unaccent__iendswith', 'еж', ['ёж']],
        ['text__unaccent__icontains', 'ελλαδα', ['Ελλάδα']],
        ['text__unaccent__icontains', 'strasse', []],
        ['text__icontains', 'CAFE', ['cafe']],
      ];
      for (const [key, value, expected] of cases) {
        assert.deepEqual(await texts({ [key]: value }), expected, `${key} ${value}`);
      }
    });

    it('finds the same rows as foldAccents and foldCase for generated words', async () => {
      if (!db.adapter.capabilities.accentFolding) return;
      await sameRowsAs(() => db, ACCENT_MATCHES, 25);
    });
  });
}

const postgres = testDialects().find((d) => d.name === 'postgres');

describe('the case fold of PostgreSQL', { skip: postgres?.skip }, () => {
  it('fails at migrate when the fold collation folds ASCII only, or does not exist', async () => {
    const { url, drop } = await (postgres as NonNullable<typeof postgres>).createUrl();
    try {
      for (const [collation, message] of [
        ['C', /the collation "C" folds "ÀÉÎÕÜ ΑΣΩ ЖЯ" to "ÀÉÎÕÜ ΑΣΩ ЖЯ" \(ASCII letters only\)/],
        ['no_such_collation', /the collation "no_such_collation" does not exist in this database/],
      ] as const) {
        const db = new Database(
          new PostgresAdapter({ connectionString: url, caseFoldCollation: collation }),
        );
        try {
          await assert.rejects(db.migrate([Word]), (error: Error & { code?: string }) => {
            assert.equal(error.code, 'REST_ERR_DIALECT_LIMIT');
            assert.match(error.message, message);
            assert.match(error.message, /caseFoldCollation/);
            return true;
          });
        } finally {
          await db.close();
        }
      }
      // A libc UTF-8 collation named outright folds as the database's own (where the server
      // has one: initdb lists the locales of its machine).
      const probe = Database.connect(url);
      const [found] = (await probe.query(
        "select collname from pg_collation where collprovider = 'c' and collname ilike '%.utf%8' order by collname limit 1",
        [],
      )) as { collname: string }[];
      await probe.close();
      if (!found) return;
      // Named through the database options, as an app's settings would.
      const named = Database.connect(url, { caseFoldCollation: found.collname });
      try {
        await named.migrate([Word]);
        await Word.objects.using(named).create({ text: 'Café' });
        assert.equal(await Word.objects.using(named).filter({ text__iexact: 'CAFÉ' }).count(), 1);
      } finally {
        await named.close();
      }
    } finally {
      await drop();
    }
  });

  it('refuses a caseFoldCollation that names nothing', () => {
    for (const collation of ['', 5]) {
      assert.throws(
        () =>
          new PostgresAdapter({
            connectionString: 'postgres://x@127.0.0.1/x',
            caseFoldCollation: collation as string,
          }),
        /REST_ERR_DATABASE_OPTION|caseFoldCollation must name a collation/,
      );
    }
  });
});
