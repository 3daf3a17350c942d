/**
 * Conditional requests (RFC 9110, section 13): the entity-tag lists of `If-Match` and
 * `If-None-Match`, HTTP dates, the strong and weak comparisons, and the order in which a server
 * evaluates the preconditions of one request. Pure functions of header texts and validators;
 * the views decide where the validators come from (`views/conditional-requests.ts`).
 *
 * @example
 * ```ts
 * const outcome = evaluatePreconditions(
 *   { 'if-none-match': 'W/"abc"' },
 *   'GET',
 *   { etag: 'W/"abc"', lastModified: null },
 * );
 * outcome.result; // 'not-modified'
 * ```
 * @module
 */

/** `*`, or the entity tags of a list as sent (`W/"x"`, `"y"`). */
export type EntityTagList = '*' | readonly string[];

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc = %x21 / %x23-7E / obs-text.
const ENTITY_TAG = /^(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/**
 * The tags of an `If-Match` or `If-None-Match` value: `*`, a list (empty elements and
 * optional whitespace allowed, as RFC 9110's `#` rule says), or null when the value does not
 * follow the grammar (an unquoted tag, `*` inside a list, an empty value).
 *
 * @example
 * ```ts
 * parseEntityTags('"a", W/"b"'); // ['"a"', 'W/"b"']
 * parseEntityTags('*');          // '*'
 * parseEntityTags('abc');        // null
 * ```
 */
export function parseEntityTags(value: string): EntityTagList | null {
  const text = value.trim();
  if (text === '*') return '*';
  const tags: string[] = [];
  // A tag may hold a comma: split by the grammar, not by commas.
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 44 || c === 32 || c === 9) {
      i++;
      continue;
    }
    const start = i;
    if (text.startsWith('W/', i)) i += 2;
    if (text.charCodeAt(i) !== 34) return null;
    const end = text.indexOf('"', i + 1);
    if (end === -1) return null;
    const tag = text.slice(start, end + 1);
    if (!ENTITY_TAG.test(tag)) return null;
    tags.push(tag);
    i = end + 1;
    // After a tag: whitespace, then a comma or the end.
    while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
    if (i < text.length && text.charCodeAt(i) !== 44) return null;
  }
  return tags.length === 0 ? null : tags;
}

/** True for a weak tag (`W/"x"`). */
export function isWeakTag(tag: string): boolean {
  return tag.charCodeAt(0) === 87;
}

function opaque(tag: string): string {
  return isWeakTag(tag) ? tag.slice(2) : tag;
}

/** RFC 9110, 8.8.3.2: equal, and neither is weak. */
export function strongMatch(a: string, b: string): boolean {
  return !isWeakTag(a) && !isWeakTag(b) && a === b;
}

/** RFC 9110, 8.8.3.2: equal once the weak mark is dropped. */
export function weakMatch(a: string, b: string): boolean {
  return opaque(a) === opaque(b);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

// IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
const IMF_FIXDATE =
  /^([A-Z][a-z]{2}), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
// rfc850-date: Sunday, 06-Nov-94 08:49:37 GMT
const RFC850_DATE =
  /^([A-Z][a-z]{5,8}), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
// asctime-date: Sun Nov  6 08:49:37 1994
const ASCTIME_DATE = /^([A-Z][a-z]{2}) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

/**
 * The time of an HTTP date in any of RFC 9110's three formats, in milliseconds, or null when
 * the text is not one (a recipient then ignores the header, RFC 9110 13.1.3 and 13.1.4).
 * A two-digit year of the obsolete RFC 850 format more than 50 years ahead is in the past.
 *
 * @example
 * ```ts
 * parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'); // 784111777000
 * parseHttpDate('yesterday');                     // null
 * ```
 */
export function parseHttpDate(text: string, now: number = Date.now()): number | null {
  const value = text.trim();
  let day: string;
  let month: string;
  let year: number;
  let time: [string, string, string];
  let weekday: string;
  let match = IMF_FIXDATE.exec(value);
  if (match) {
    [, weekday, day, month] = match as unknown as [string, string, string, string];
    year = Number(match[4]);
    time = [match[5], match[6], match[7]] as [string, string, string];
    if (!DAYS.includes(weekday)) return null;
  } else if ((match = RFC850_DATE.exec(value))) {
    [, weekday, day, month] = match as unknown as [string, string, string, string];
    if (!LONG_DAYS.includes(weekday)) return null;
    const short = Number(match[4]);
    const thisYear = new Date(now).getUTCFullYear();
    year = Math.floor(thisYear / 100) * 100 + short;
    if (year > thisYear + 50) year -= 100;
    time = [match[5], match[6], match[7]] as [string, string, string];
  } else if ((match = ASCTIME_DATE.exec(value))) {
    weekday = match[1] as string;
    month = match[2] as string;
    day = (match[3] as string).trim();
    year = Number(match[7]);
    time = [match[4], match[5], match[6]] as [string, string, string];
    if (!DAYS.includes(weekday)) return null;
  } else return null;
  const monthIndex = MONTHS.indexOf(month);
  const [h, m, s] = time.map(Number) as [number, number, number];
  const d = Number(day);
  if (monthIndex === -1 || d < 1 || d > 31 || h > 23 || m > 59 || s > 60) return null;
  const ms = Date.UTC(year, monthIndex, d, h, m, Math.min(s, 59));
  // 31 Feb rolls over into March: not a date.
  if (new Date(ms).getUTCDate() !== d) return null;
  return ms;
}

/**
 * An HTTP date (IMF-fixdate) of a time, to the second.
 *
 * @example
 * ```ts
 * formatHttpDate(new Date(784111777000)); // 'Sun, 06 Nov 1994 08:49:37 GMT'
 * ```
 */
export function formatHttpDate(date: Date): string {
  return date.toUTCString();
}

/** The validators of the selected representation; null where there is none. */
export interface Validators {
  /** The entity tag, with its quotes (`"7"`, `W/"Kx3…"`). */
  readonly etag: string | null;
  /** The modification time in milliseconds, to the second (HTTP dates have no finer unit). */
  readonly lastModified: number | null;
}

/** What evaluating the preconditions decided. */
export interface PreconditionOutcome {
  /**
   * `proceed`: run the method; `not-modified`: answer 304 (GET, HEAD); `failed`: answer 412;
   * `malformed`: answer 400 (an `If-Match`, or an `If-None-Match` of a write, that does not
   * follow the grammar: ignoring it would run a write its sender meant to guard).
   */
  readonly result: 'proceed' | 'not-modified' | 'failed' | 'malformed';
  /** The header of a `malformed` result. */
  readonly header?: string;
  /**
   * True when a precondition that protects against a lost update was evaluated and held: an
   * `If-Match` with tags (not `*`), or a valid `If-Unmodified-Since` (428 asks for one).
   */
  readonly guarded: boolean;
  /**
   * The valid date of `If-Unmodified-Since` when it was evaluated: the write must still hold
   * it when it runs (see `views/conditional-requests.ts`).
   */
  readonly unmodifiedSince: number | null;
  /**
   * The tags of `If-None-Match` of a GET or HEAD whose entity tag is not known yet (it is
   * computed from the rendered body): compared once the body is rendered.
   */
  readonly pendingNoneMatch: EntityTagList | null;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

const PROCEED: PreconditionOutcome = Object.freeze({
  result: 'proceed',
  guarded: false,
  unmodifiedSince: null,
  pendingNoneMatch: null,
});

/**
 * RFC 9110, 13.2.2: `If-Match`, else `If-Unmodified-Since`; then `If-None-Match`, else (GET
 * and HEAD) `If-Modified-Since`. Called once the target exists and the caller may act on it
 * (a 404 or 403 wins over any precondition, 13.2.1). `deferredETag`: the entity tag will be
 * the hash of the rendered body, so a GET's `If-None-Match` is compared after rendering.
 * A date header that is not a valid HTTP date is ignored, as the RFC says; a read's malformed
 * `If-None-Match` too (ignoring it only costs a full answer).
 *
 * @example
 * ```ts
 * evaluatePreconditions({ 'if-match': '"6"' }, 'PUT', { etag: '"7"', lastModified: null }).result; // 'failed'
 * ```
 */
export function evaluatePreconditions(
  headers: Headers,
  method: string,
  validators: Validators,
  deferredETag = false,
): PreconditionOutcome {
  const ifMatch = header(headers, 'if-match');
  const ifUnmodifiedSince = header(headers, 'if-unmodified-since');
  const ifNoneMatch = header(headers, 'if-none-match');
  const ifModifiedSince = header(headers, 'if-modified-since');
  if (
    ifMatch === undefined &&
    ifNoneMatch === undefined &&
    ifUnmodifiedSince === undefined &&
    ifModifiedSince === undefined
  )
    return PROCEED;
  const read = method === 'GET' || method === 'HEAD';
  const { etag, lastModified } = validators;
  let guarded = false;
  let unmodifiedSince: number | null = null;
  if (ifMatch !== undefined) {
    const tags = parseEntityTags(ifMatch);
    if (tags === null) return outcome('malformed', false, null, null, 'If-Match');
    // The representation exists (the view found it): `*` holds.
    if (tags !== '*') {
      if (etag === null || !tags.some((tag) => strongMatch(tag, etag)))
        return outcome('failed', false, null, null);
      guarded = true;
    }
  } else if (ifUnmodifiedSince !== undefined && lastModified !== null) {
    const date = parseHttpDate(ifUnmodifiedSince);
    if (date !== null) {
      if (lastModified > date) return outcome('failed', false, null, null);
      guarded = true;
      unmodifiedSince = date;
    }
  }
  if (ifNoneMatch !== undefined) {
    const tags = parseEntityTags(ifNoneMatch);
    if (tags === null) {
      if (!read) return outcome('malformed', guarded, null, null, 'If-None-Match');
    } else if (read && deferredETag && tags !== '*') {
      return outcome('proceed', guarded, unmodifiedSince, tags);
    } else {
      const matched = tags === '*' || (etag !== null && tags.some((tag) => weakMatch(tag, etag)));
      if (matched) return outcome(read ? 'not-modified' : 'failed', guarded, null, null);
      return outcome('proceed', guarded, unmodifiedSince, null);
    }
  }
  if (read && ifModifiedSince !== undefined && lastModified !== null && ifNoneMatch === undefined) {
    const date = parseHttpDate(ifModifiedSince);
    if (date !== null && lastModified <= date) return outcome('not-modified', guarded, null, null);
  }
  return outcome('proceed', guarded, unmodifiedSince, null);
}

function outcome(
  result: PreconditionOutcome['result'],
  guarded: boolean,
  unmodifiedSince: number | null,
  pendingNoneMatch: EntityTagList | null,
  name?: string,
): PreconditionOutcome {
  return name === undefined
    ? { result, guarded, unmodifiedSince, pendingNoneMatch }
    : { result, guarded, unmodifiedSince, pendingNoneMatch, header: name };
}

/**
 * True when an `If-None-Match` list names `etag` (weak comparison, RFC 9110 13.1.2).
 *
 * @example
 * ```ts
 * noneMatchHolds(['W/"a"'], '"a"'); // false: the client has it
 * ```
 */
export function noneMatchHolds(tags: EntityTagList, etag: string): boolean {
  return tags !== '*' && !tags.some((tag) => weakMatch(tag, etag));
}
