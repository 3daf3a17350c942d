/**
 * Lengths of time, held as whole microseconds.
 * @module
 */
import {
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';

const MICROS_PER_SECOND = 1_000_000;
const MICROS_PER_DAY = 86_400 * MICROS_PER_SECOND;
/** The most days a duration holds exactly in microseconds (2^53 of them). */
const MAX_DAYS = Math.floor(Number.MAX_SAFE_INTEGER / MICROS_PER_DAY);

// `[-]DD [day[s], ][-][[HH:]MM:]SS[.uuuuuu]`: hours only when minutes follow.
const CLOCK =
  /^(?:([-+]?\d{1,9}) (?:days?, )?)?(-?)(?:(\d{1,9}):(?=\d{1,9}:\d))?(?:(\d{1,9}):)?(\d{1,12})(?:[.,](\d{1,6})\d{0,6})?$/;
// ISO 8601: `[-]P[nD][T[nH][nM][n[.f]S]]`.
const ISO =
  /^([-+]?)P(?:(\d{1,9}(?:[.,]\d{1,9})?)D)?(?:T(?:(\d{1,9}(?:[.,]\d{1,9})?)H)?(?:(\d{1,9}(?:[.,]\d{1,9})?)M)?(?:(\d{1,12}(?:[.,]\d{1,9})?)S)?)?$/;

const part = (text: string | undefined): number =>
  text === undefined ? 0 : Number(text.replace(',', '.'));

/**
 * Microseconds from Django's duration text (`1 02:03:04.5`, `03:04`, `-15`) or ISO 8601
 * (`P1DT2H`, `-PT15M`), or undefined for anything else.
 *
 * @example
 * ```ts
 * parseDuration('1 02:00:00'); // 93_600_000_000
 * parseDuration('PT1.5S'); // 1_500_000
 * ```
 */
export function parseDuration(text: string): number | undefined {
  if (text.length > 64) return undefined;
  const clock = CLOCK.exec(text);
  if (clock) {
    const [, days, sign, hours, minutes, seconds, fraction] = clock;
    const time =
      ((part(hours) * 60 + part(minutes)) * 60 + part(seconds)) * MICROS_PER_SECOND +
      Number((fraction ?? '').padEnd(6, '0'));
    return part(days) * MICROS_PER_DAY + (sign === '-' ? -time : time);
  }
  const iso = ISO.exec(text);
  if (iso && text !== 'P' && !text.endsWith('T')) {
    const [, sign, days, hours, minutes, seconds] = iso;
    const total = Math.round(
      (((part(days) * 24 + part(hours)) * 60 + part(minutes)) * 60 + part(seconds)) *
        MICROS_PER_SECOND,
    );
    return sign === '-' ? -total : total;
  }
  return undefined;
}

/**
 * Django's text of a duration given in microseconds: `[D ]HH:MM:SS[.ffffff]`, days counted
 * down for a negative one (`-1 23:59:59` is minus one second), as Python's `timedelta`.
 *
 * @example
 * ```ts
 * durationString(93_600_000_000); // '1 02:00:00'
 * ```
 */
export function durationString(micros: number): string {
  const days = Math.floor(micros / MICROS_PER_DAY);
  let rest = micros - days * MICROS_PER_DAY;
  const fraction = rest % MICROS_PER_SECOND;
  rest = (rest - fraction) / MICROS_PER_SECOND;
  const two = (n: number) => String(n).padStart(2, '0');
  const clock = `${two(Math.floor(rest / 3600))}:${two(Math.floor(rest / 60) % 60)}:${two(rest % 60)}`;
  const withDays = days ? `${days} ${clock}` : clock;
  return fraction ? `${withDays}.${String(fraction).padStart(6, '0')}` : withDays;
}

/**
 * A length of time: Django's `[DD] [HH:[MM:]]ss[.uuuuuu]` text, ISO 8601 (`P1DT2H`) or a
 * number of seconds; held as whole microseconds and shown as Django shows it
 * (`1 02:03:04.500000`). More than `MAX_DAYS` days either way is refused.
 *
 * @example
 * ```ts
 * const length = new DurationField();
 * ```
 */
export class DurationField<
  const O extends FieldOptions<number> = FieldOptions<number>,
> extends Field<number, string, O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Duration has wrong format. Use one of these formats instead: {format}.',
    overflow: 'The number of days must be between {min_days} and {max_days}.',
  };
  static override metadataType = 'duration';

  toInternalValue(data: unknown, _ctx?: RunContext): number {
    let micros: number | undefined;
    if (typeof data === 'number' && Number.isFinite(data))
      micros = Math.round(data * MICROS_PER_SECOND);
    else if (typeof data === 'string') micros = parseDuration(data.trim());
    if (micros === undefined || Number.isNaN(micros))
      return this.fail('invalid', { format: '[DD] [HH:[MM:]]ss[.uuuuuu]' });
    if (!Number.isSafeInteger(micros))
      return this.fail('overflow', { min_days: -MAX_DAYS, max_days: MAX_DAYS });
    return micros === 0 ? 0 : micros;
  }

  toRepresentation(value: unknown): string {
    return durationString(Number(value));
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    return { type: 'string', format: 'duration' };
  }
}
