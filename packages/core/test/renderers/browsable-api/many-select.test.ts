/**
 * The browsable API's `<select multiple>` for many relations (primary keys, slugs, links) and
 * multiple choice fields: the relation's rows up to DRF's `html_cutoff` (1000) with its
 * disabled "More than 1000 items..." option, the current values selected (those of the
 * record, or those a form sent before its 400), a current value the list does not hold kept
 * selected, read-only relations as text, and option texts escaped whatever a row's name holds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CharField,
  createFormInput,
  Database,
  defineModel,
  HyperlinkedRelatedField,
  MultipleChoiceField,
  models,
  PrimaryKeyRelatedField,
  type RequestLike,
  Serializer,
  SlugRelatedField,
} from '@restframework/core';
import { htmlForm, relatedOptions, valueLookup } from '@restframework/core/internal';
import fc from 'fast-check';

const Label = defineModel({
  name: 'Label',
  table: 'ms_label',
  fields: {
    name: models.CharField({ maxLength: 200 }),
    slug: models.SlugField({ maxLength: 50, unique: true }),
  },
  str: (label) => label.name,
});

/** A request that links `label-detail` rows as `/labels/<pk>/`. */
const request: RequestLike = {
  reverse: (_name, params = {}) => `http://testserver/labels/${String(params.pk)}/`,
  buildAbsoluteUri: (path) => `http://testserver${path}`,
};

class NoteSerializer extends Serializer.with({
  fields: {
    title: new CharField(),
    labels: PrimaryKeyRelatedField.many({ queryset: Label.objects.all() }),
    slugs: SlugRelatedField.many({
      slugField: 'slug',
      queryset: Label.objects.all(),
      required: false,
    }),
    links: HyperlinkedRelatedField.many({
      viewName: 'label-detail',
      queryset: Label.objects.all(),
      required: false,
    }),
    seen: PrimaryKeyRelatedField.many({ readOnly: true }),
    formats: new MultipleChoiceField({
      choices: [
        ['paper', 'Paper'],
        ['ebook', 'E-book'],
        ['audio', 'Audio'],
      ],
    }),
  },
}) {}

interface Option {
  readonly value: string;
  readonly text: string;
  readonly selected: boolean;
  readonly disabled: boolean;
}

function htmlText(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The `<select>` of the control `id`, its attributes and options. */
function select(out: string, id: string): { attributes: string; options: Option[] } {
  const match = new RegExp(`<select([^>]*\\bid="${id}"[^>]*)>(.*?)</select>`, 's').exec(out);
  assert.ok(match, `no select #${id} in ${out}`);
  const options = [...(match[2] as string).matchAll(/<option([^>]*)>([^<]*)<\/option>/g)].map(
    ([, attributes = '', text = '']) => ({
      value: htmlText(/value="([^"]*)"/.exec(attributes)?.[1] ?? ''),
      text: htmlText(text),
      selected: /\bselected\b/.test(attributes),
      disabled: /\bdisabled\b/.test(attributes),
    }),
  );
  return { attributes: match[1] as string, options };
}

describe('HTML forms: <select multiple> for many relations and multiple choices', () => {
  let db: Database;
  const ids: number[] = [];

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate([Label]);
    for (const name of ['fiction', 'history', 'poetry'])
      ids.push((await Label.objects.using(db).create({ name, slug: name.slice(0, 3) })).id);
  });
  after(async () => {
    await db?.close();
  });

  async function form(data: unknown, cutoff?: number): Promise<string> {
    const serializer = new NoteSerializer({ context: { request } });
    const fields = serializer.prepared.fields;
    const related = await db.run(() =>
      relatedOptions(
        fields,
        { partial: false, context: serializer.context, instance: undefined },
        cutoff,
      ),
    );
    return htmlForm({
      id: 'f',
      action: '/notes/',
      methods: ['PUT', 'PATCH'],
      fields,
      values: valueLookup(data),
      errors: undefined,
      needsScript: true,
      multipart: false,
      related,
    }).toString();
  }

  const cases: {
    name: string;
    data: () => unknown;
    id: string;
    name_: string;
    options: () => [value: string, text: string, selected: boolean][];
  }[] = [
    {
      name: 'primary keys: every row, the record’s selected',
      data: () => ({ labels: [ids[0], ids[2]] }),
      id: 'f-labels',
      name_: 'labels',
      options: () => [
        [String(ids[0]), 'fiction', true],
        [String(ids[1]), 'history', false],
        [String(ids[2]), 'poetry', true],
      ],
    },
    {
      name: 'slugs: the slug as the value, the row’s name as the text',
      data: () => ({ slugs: ['his'] }),
      id: 'f-slugs',
      name_: 'slugs',
      options: () => [
        ['fic', 'fiction', false],
        ['his', 'history', true],
        ['poe', 'poetry', false],
      ],
    },
    {
      name: 'links: the row’s URL as the value',
      data: () => ({ links: [`http://testserver/labels/${ids[1]}/`] }),
      id: 'f-links',
      name_: 'links',
      options: () =>
        ids.map((id, i) => [
          `http://testserver/labels/${id}/`,
          ['fiction', 'history', 'poetry'][i] as string,
          i === 1,
        ]),
    },
    {
      name: 'multiple choices: the choices, the record’s selected',
      data: () => ({ formats: ['audio', 'paper'] }),
      id: 'f-formats',
      name_: 'formats',
      options: () => [
        ['paper', 'Paper', true],
        ['ebook', 'E-book', false],
        ['audio', 'Audio', true],
      ],
    },
    {
      name: 'after a 400, what the form sent (a repeated key) is selected',
      data: () =>
        createFormInput([
          ['labels', String(ids[1])],
          ['labels', String(ids[2])],
          ['title', 'x'],
        ]),
      id: 'f-labels',
      name_: 'labels',
      options: () => [
        [String(ids[0]), 'fiction', false],
        [String(ids[1]), 'history', true],
        [String(ids[2]), 'poetry', true],
      ],
    },
    {
      name: 'after a 400, a form that chose nothing shows nothing selected',
      data: () => createFormInput([['title', 'x']]),
      id: 'f-formats',
      name_: 'formats',
      options: () => [
        ['paper', 'Paper', false],
        ['ebook', 'E-book', false],
        ['audio', 'Audio', false],
      ],
    },
    {
      name: 'a current key the list does not hold stays selected, so saving keeps it',
      data: () => ({ labels: [ids[0], 777] }),
      id: 'f-labels',
      name_: 'labels',
      options: () => [
        [String(ids[0]), 'fiction', true],
        [String(ids[1]), 'history', false],
        [String(ids[2]), 'poetry', false],
        ['777', '777', true],
      ],
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const out = await form(c.data());
      const { attributes, options } = select(out, c.id);
      assert.match(attributes, /\bmultiple\b/);
      assert.match(attributes, new RegExp(`name="${c.name_}"`));
      assert.doesNotMatch(attributes, /data-null/);
      // It says how to choose several, and is described by that help.
      assert.match(attributes, new RegExp(`aria-describedby="${c.id}-help"`));
      assert.match(out, new RegExp(`id="${c.id}-help">[^<]*Ctrl-click`));
      assert.deepEqual(
        options.map((o) => [o.value, o.text, o.selected]),
        c.options(),
      );
    });
  }

  it('lists at most the cutoff, then DRF’s disabled "More than N items..." option', async () => {
    for (const [cutoff, shown, more] of [
      [2, 2, true],
      [3, 3, false],
      [10, 3, false],
    ] as const) {
      const { options } = select(await form({}, cutoff), 'f-labels');
      assert.equal(options.filter((o) => !o.disabled).length, shown, `cutoff ${cutoff}`);
      const last = options.at(-1) as Option;
      if (more) {
        assert.deepEqual(last, {
          value: 'n/a',
          text: `More than ${cutoff} items...`,
          selected: false,
          disabled: true,
        });
      } else
        assert.equal(
          options.some((o) => o.disabled),
          false,
          `cutoff ${cutoff}`,
        );
    }
  });

  it('shows a read-only relation as text without a name, and refers a relation without rows to raw data', async () => {
    const out = await form({ seen: [ids[0], ids[1]] });
    assert.match(out, /<input[^>]*id="f-seen"[^>]*>/);
    assert.doesNotMatch(out, /name="seen"/);
    // A form rendered without the loaded rows (no `related` entry) leaves the relation to raw data.
    const bare = htmlForm({
      id: 'g',
      action: '/notes/',
      methods: ['POST'],
      fields: new NoteSerializer().prepared.fields,
      values: valueLookup({}),
      errors: undefined,
      needsScript: false,
      multipart: false,
    }).toString();
    assert.match(bare, /id="g-labels">Lists are not supported/);
  });

  it('escapes any row name in the options, and gets it back whole', async () => {
    const label = await Label.objects.using(db).create({ name: 'x', slug: 'escape-me' });
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.string({
            unit: fc.constantFrom(
              '<',
              '>',
              '&',
              '"',
              "'",
              '/',
              'a',
              ' ',
              'é',
              '</option>',
              '<script>',
            ),
            minLength: 1,
            maxLength: 20,
          }),
          async (name) => {
            await Label.objects.using(db).filter({ pk: label.id }).update({ name });
            const out = await form({ labels: [label.id] });
            assert.doesNotMatch(out, /<script>/);
            const { options } = select(out, 'f-labels');
            const mine = options.find((o) => o.value === String(label.id));
            assert.deepEqual(mine, {
              value: String(label.id),
              text: name,
              selected: true,
              disabled: false,
            });
          },
        ),
        { numRuns: 60, seed: 40 },
      );
    } finally {
      await Label.objects.using(db).filter({ pk: label.id }).delete();
    }
  });
});
