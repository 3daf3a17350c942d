/**
 * DRF's rate syntax: `<requests>/<period>`, the period a second, minute, hour or day
 * (`100/min`, `5/second`, `1000/day`).
 *
 * @example
 * ```ts
 * parseRate('100/min'); // { requests: 100, seconds: 60 }
 * ```
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { processCaches } from '../utils/bounded-cache.ts';

/** A parsed rate: at most `requests` in any window of `seconds`. */
export interface Rate {
  /** How many requests the window allows. */
  readonly requests: number;
  /** The window's length, in seconds. */
  readonly seconds: number;
}

// DRF reads only the period's first letter (so `100/mango` is a minute); the names are
// spelled out here so that a typo fails at start-up instead of meaning something else.
const PERIODS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hour: 3600,
  hours: 3600,
  d: 86400,
  day: 86400,
  days: 86400,
};

const parsed = processCaches.cache<string, Rate>('throttle rates', 256);

/**
 * The rate `text` stands for; `ImproperlyConfigured` (`REST_ERR_THROTTLE_RATE`) naming `where`
 * when it is not one. Parsed once per distinct text.
 */
export function parseRate(text: string, where = 'A throttle rate'): Rate {
  let rate = parsed.get(text);
  if (rate) return rate;
  const match = /^\s*(\d{1,9})\s*\/\s*([a-z]+)\s*$/i.exec(String(text));
  const seconds = match ? PERIODS[(match[2] as string).toLowerCase()] : undefined;
  const requests = match ? Number(match[1]) : 0;
  if (!match || seconds === undefined || requests < 1) {
    throw new ImproperlyConfigured(
      'REST_ERR_THROTTLE_RATE',
      `${where}: ${JSON.stringify(text)} is not a rate. Write "<requests>/<period>" with at least one request and a period of second, minute, hour or day (s, min, h, d), e.g. "100/min".`,
    );
  }
  rate = Object.freeze({ requests, seconds });
  parsed.set(text, rate);
  return rate;
}
