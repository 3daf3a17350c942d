/**
 * values(), valuesList() and bulkCreate(), the same on every database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Count,
  type Database,
  defineModel,
  ImproperlyConfigured,
  models,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';

const Author = defineModel({
  name: 'Author',
  table: 'val_author',
  fields: { name: models.CharField({ maxLength: 20 }) },
});

const Post = defineModel({
  name: 'Post',
  table: 'val_post',
  fields: {
    title: models.CharField({ maxLength: 20 }),
    words: models.IntegerField({ default: 100 }),
    published: models.BooleanField({ default: false }),
    author: models.ForeignKey(Author, { onDelete: 'CASCADE', relatedName: 'posts' }),
  },
});

for (const dialect of testDialects()) {
  describe(`values and bulkCreate on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    const posts = () => Post.objects.using(db);

    before(async () => {
      db = await dialect.create();
      await db.migrate([Author, Post]);
    });
    after(() => dialect.drop(db));

    it('inserts many rows in one statement per batch, with defaults, and returns them', async () => {
      const [ann, bob] = await Author.objects
        .using(db)
        .bulkCreate([{ name: 'ann' }, { name: 'bob' }]);
      const authors = await Author.objects.using(db).orderBy('name').execute();
      if (db.adapter.returning) assert.deepEqual([ann, bob], authors);
      else assert.deepEqual([ann?.name, bob?.name], ['ann', 'bob']);
      const statements: string[] = [];
      const stop = db.onQuery((event) => statements.push(event.sql));
      const stored = await posts().bulkCreate(
        [
          { title: 'a', words: 10, author_id: authors[0]!.id },
          { title: 'b', author_id: authors[0]!.id, published: true },
          { title: 'c', words: 30, author: authors[1]! },
        ],
        { batchSize: 2 },
      );
      stop();
      assert.equal(statements.filter((s) => /^insert/i.test(s)).length, 2);
      assert.deepEqual(
        stored.map((p) => [p.title, p.words, p.published]),
        [
          ['a', 10, false],
          ['b', 100, true],
          ['c', 30, false],
        ],
      );
      if (db.adapter.returning) assert.ok(stored.every((p) => typeof p.id === 'number'));
      assert.deepEqual(await posts().bulkCreate([]), []);
      await assert.rejects(
        // @ts-expect-error: Post has no field nope (a type error too)
        posts().bulkCreate([{ title: 'x', author_id: 1, nope: 1 }]),
        ImproperlyConfigured,
      );
    });

    it('reads some fields as records or lists, across a foreign key and with annotations', async () => {
      assert.deepEqual(await posts().orderBy('title').values('title', 'words'), [
        { title: 'a', words: 10 },
        { title: 'b', words: 100 },
        { title: 'c', words: 30 },
      ]);
      assert.deepEqual(
        await posts().filter({ published: true }).values('title', 'published', 'author__name'),
        [{ title: 'b', published: true, author__name: 'ann' }],
      );
      assert.deepEqual(await posts().orderBy('-words').valuesList(['title', 'words']), [
        ['b', 100],
        ['c', 30],
        ['a', 10],
      ]);
      assert.deepEqual(await posts().orderBy('title').valuesList(['title'], { flat: true }), [
        'a',
        'b',
        'c',
      ]);
      assert.deepEqual(
        await Author.objects
          .using(db)
          .annotate({ n: Count('posts') })
          .orderBy('name')
          .values('name', 'n'),
        [
          { name: 'ann', n: 2 },
          { name: 'bob', n: 1 },
        ],
      );
      await assert.rejects(posts().values('nope' as 'title'), ImproperlyConfigured);
      await assert.rejects(
        posts().valuesList(['title', 'words'], { flat: true } as never),
        ImproperlyConfigured,
      );
    });
  });
}
