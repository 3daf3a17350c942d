/**
 * How dates and date-times are written in responses: `'iso-8601'` (the default) or a format
 * string in Python's `strftime` directives, as DRF's `DATETIME_FORMAT` / `DATE_FORMAT`
 * settings and the `format` option of its fields take them (`'%d/%m/%Y %H:%M'`). A format is
 * checked once, at start-up or when the field is made, so that writing a value cannot fail.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';

/** `'iso-8601'` or a `strftime` format string. */
export type DateFormat = 'iso-8601' | (string & {});

/** The ISO 8601 choice, as DRF names it. */
export const ISO_8601 = 'iso-8601';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** What each directive writes of a UTC instant (microseconds: the milliseconds, then 000). */
const DIRECTIVES: Readonly<Record<string, (d: Date) => string>> = {
  Y: (d) => pad(d.getUTCFullYear(), 4),
  y: (d) => pad(d.getUTCFullYear() % 100, 2),
  m: (d) => pad(d.getUTCMonth() + 1, 2),
  d: (d) => pad(d.getUTCDate(), 2),
  H: (d) => pad(d.getUTCHours(), 2),
  I: (d) => pad(d.getUTCHours() % 12 || 12, 2),
  p: (d) => (d.getUTCHours() < 12 ? 'AM' : 'PM'),
  M: (d) => pad(d.getUTCMinutes(), 2),
  S: (d) => pad(d.getUTCSeconds(), 2),
  f: (d) => `${pad(d.getUTCMilliseconds(), 3)}000`,
  z: () => '+0000',
  Z: () => 'UTC',
  a: (d) => (DAYS[d.getUTCDay()] as string).slice(0, 3),
  A: (d) => DAYS[d.getUTCDay()] as string,
  b: (d) => (MONTHS[d.getUTCMonth()] as string).slice(0, 3),
  B: (d) => MONTHS[d.getUTCMonth()] as string,
  j: (d) => pad(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3),
  '%': () => '%',
};

/** The directives a date (no time of day) may use. */
const DATE_DIRECTIVES = new Set(['Y', 'y', 'm', 'd', 'a', 'A', 'b', 'B', 'j', '%']);

/**
 * Checks `format` (`where` names the setting or field in the error, `code` its catalogue code):
 * `'iso-8601'`, or a text whose `%` directives are among
 * `%Y %y %m %d %H %I %p %M %S %f %z %Z %a %A %b %B %j %%` (a date: no time directives).
 * Anything else fails at once, so that writing a value never meets a bad directive.
 *
 * @example
 * ```ts
 * checkDateFormat('%d/%m/%Y %H:%M', 'DATETIME_FORMAT', 'datetime', 'REST_ERR_SETTINGS');
 * formatDate(new Date('2024-01-02T03:04:05Z'), '%d/%m/%Y %H:%M'); // '02/01/2024 03:04'
 * ```
 */
export function checkDateFormat(
  format: unknown,
  where: string,
  kind: 'date' | 'datetime',
  code: 'REST_ERR_SETTINGS' | 'REST_ERR_FIELD_OPTIONS',
): asserts format is DateFormat {
  if (typeof format !== 'string' || format === '') {
    throw new ImproperlyConfigured(
      code,
      `${where} must be 'iso-8601' or a strftime format string such as ${kind === 'date' ? "'%d/%m/%Y'" : "'%Y-%m-%d %H:%M'"}, got ${JSON.stringify(format)}.`,
    );
  }
  if (format === ISO_8601) return;
  for (let i = format.indexOf('%'); i !== -1; i = format.indexOf('%', i + 2)) {
    const name = format[i + 1];
    const known = name !== undefined && Object.hasOwn(DIRECTIVES, name);
    if (!known || (kind === 'date' && !DATE_DIRECTIVES.has(name))) {
      const allowed = Object.keys(DIRECTIVES)
        .filter((d) => kind === 'datetime' || DATE_DIRECTIVES.has(d))
        .map((d) => `%${d}`)
        .join(' ');
      throw new ImproperlyConfigured(
        code,
        `${where}: the directive "%${name ?? ''}" in ${JSON.stringify(format)} is not one a ${kind} can be written with; use ${allowed} (write "%%" for a percent sign).`,
      );
    }
  }
}

/**
 * `date` written with a format {@link checkDateFormat} accepted (not `'iso-8601'`), in UTC, as
 * the toolkit holds instants. Python's `strftime` reads its format on each call too.
 */
export function formatDate(date: Date, format: string): string {
  let out = '';
  let from = 0;
  for (let i = format.indexOf('%'); i !== -1; i = format.indexOf('%', from)) {
    out += format.slice(from, i);
    const writer = DIRECTIVES[format[i + 1] as string];
    out += writer ? writer(date) : '';
    from = i + 2;
  }
  return out + format.slice(from);
}
