/**
 * Deterministic demo data: 1000 books, 50 authors, 200 users with profiles. The same on every
 * run and every database, so examples and benchmarks can rely on it.
 * @module
 */
import type { Database } from '@restframework/core';
import { Author, Book, Profile, User } from './models/index.ts';

/** A small seeded generator (mulberry32): the same numbers on every run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'River',
  'Ember',
  'Glass',
  'Orbit',
  'Harbor',
  'Falcon',
  'Signal',
  'Winter',
  'Empire',
  'Garden',
  'Silent',
  'Copper',
  'Northern',
  'Paper',
  'Hollow',
  'Lantern',
];
const FIRST = [
  'Alice',
  'Bob',
  'Carol',
  'Dave',
  'Erin',
  'Frank',
  'Grace',
  'Heidi',
  'Ivan',
  'Judy',
  'Mallory',
  'Niaj',
  'Olivia',
  'Peggy',
  'Rupert',
  'Sybil',
  'Trent',
  'Victor',
  'Walter',
  'Zoë',
];
const LAST = [
  'Smith',
  'Jones',
  'Garcia',
  'Hughes',
  'Owens',
  'Vargas',
  'King',
  'Davis',
  'Müller',
  'Nakamura',
  'Okafor',
  'Silva',
];
const HOBBIES = [
  'chess',
  'climbing',
  'cooking',
  'golf',
  'reading',
  'running',
  'sailing',
  'painting',
];
const STATES = ['published', 'not_published', 'in_progress'] as const;
const DOMAINS = ['example.org', 'mail.test', 'example.com'];

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;

/** The books: isbn order unlike id order; varied states, prices, dates and blanks. */
export function* bookRows(count = 1000, seed = 1): Generator<Record<string, unknown>> {
  const rnd = random(seed);
  for (let i = 1; i <= count; i++) {
    const day = new Date(Date.UTC(1990, 0, 1) + Math.floor(rnd() * 12_000) * 86_400_000);
    yield {
      title: `${pick(WORDS, Math.floor(rnd() * 97))} ${pick(WORDS, Math.floor(rnd() * 89))} ${i}`,
      description: i % 7 === 0 ? null : `Description of book ${i}.`,
      summary: i % 3 === 0 ? '' : i % 3 === 1 ? null : `Summary ${i}`,
      publication_date: day.toISOString().slice(0, 10),
      state: pick(STATES, Math.floor(rnd() * 3)),
      // A permutation of 0..9999999: unique, and unrelated to the id.
      isbn: `978${String((i * 7_919_993) % 10_000_000).padStart(7, '0')}`,
      price: (Math.floor(rnd() * 100_000) / 100).toFixed(2),
      pages: 40 + Math.floor(rnd() * 960),
      stock_count: Math.floor(rnd() * 100),
    };
  }
}

/** Fills an empty database; does nothing when books exist. Returns what it created. */
export async function seed(
  db: Database,
  counts = { books: 1000, authors: 50, users: 200 },
): Promise<Record<string, number>> {
  return db.run(() =>
    db.transaction(async () => {
      if (await Book.objects.exists()) return { books: 0, authors: 0, users: 0 };
      for (const row of bookRows(counts.books)) await Book.objects.create(row);
      for (let i = 1; i <= counts.authors; i++) {
        const first = pick(FIRST, i * 3);
        const last = pick(LAST, i * 5);
        await Author.objects.create({
          salutation: pick(['Ms.', 'Dr.', 'Mr.', 'Prof.'], i),
          name: `${first} ${last}`,
          birth_date: `${1940 + (i % 60)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
          biography: `Author ${i} biography.`,
          email: `${first.toLowerCase()}.${i}@authors.test`,
          phone_number: `+1-555-${String(100 + i).padStart(4, '0')}`,
          website: `https://author${i}.example.com/`,
          ...(i % 2 === 1
            ? {
                company: `Company ${i}`,
                company_email: `office${i}@company.test`,
                company_phone_number: `+1-555-${String(200 + i).padStart(4, '0')}`,
                company_website: `https://company${i}.example.com/`,
              }
            : {}),
        });
      }
      for (let i = 1; i <= counts.users; i++) {
        const first = i % 25 === 0 ? '' : pick(FIRST, i * 7);
        const last = i % 25 === 0 ? '' : pick(LAST, i * 11);
        const base = first ? `${first}.${last}`.toLowerCase() : `user`;
        // Some usernames start upper case: byte order sorts them before every lower-case one.
        const username =
          i % 10 === 3 ? `${base.charAt(0).toUpperCase()}${base.slice(1)}${i}` : `${base}${i}`;
        const user = await User.objects.create({
          username,
          first_name: first,
          last_name: last,
          email: `${(first || 'user').toLowerCase()}${i}@${pick(DOMAINS, i)}`,
        });
        await Profile.objects.create({
          user_id: user.id,
          biography: `Biography of ${`${first} ${last}`.trim() || username} (#${i}).`,
          hobbies: pick(HOBBIES, i * 3),
        });
      }
      return { books: counts.books, authors: counts.authors, users: counts.users };
    }),
  );
}
