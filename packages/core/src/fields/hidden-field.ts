/**
 * A value the client never sends nor sees: DRF's `HiddenField`.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { EMPTY, Field, type FieldOptions, type RunContext } from './field.ts';

/** Options of {@link HiddenField}: a `default` is required. */
export interface HiddenFieldOptions<T>
  extends Omit<FieldOptions<T>, 'readOnly' | 'writeOnly' | 'required' | 'default' | 'source'> {
  /** The value validated data gets: a value, a function, or a context default (`CurrentUserDefault()`). */
  readonly default: NonNullable<FieldOptions<T>['default']>;
  /** The attribute the value is written to (the field's name by default). */
  readonly source?: string;
}

/**
 * A field whose value always comes from its `default`, never from the client (what a client
 * sends under its name is ignored) and which is never rendered: DRF's `HiddenField`. With
 * `CurrentUserDefault()` it puts the request's user into the validated data, for a
 * `uniqueTogether` check or the row's owner. Like DRF, a partial update (PATCH) leaves it out.
 * OpenAPI, OPTIONS and the browsable API's forms do not show it.
 *
 * @example
 * ```ts
 * const owner = new HiddenField({ default: CurrentUserDefault() });
 * ```
 */
export class HiddenField<T = unknown> extends Field<
  T,
  never,
  HiddenFieldOptions<T> & {
    /** Always: a hidden field is in no representation, only in the validated data. */
    readonly writeOnly: true;
  }
> {
  /** Type-level only: neither in what a client sends nor in what it receives. */
  declare readonly alwaysReadOnly: true;
  /** Marks the fields documents and forms leave out. */
  declare readonly hidden: true;

  constructor(options: HiddenFieldOptions<T>) {
    if (options?.default === undefined) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        'HiddenField: a default is required (HiddenField({ default: CurrentUserDefault() }), say): ' +
          'the field takes its value from it, never from the client.',
      );
    }
    for (const option of ['readOnly', 'writeOnly', 'required']) {
      if (Object.hasOwn(options, option)) {
        throw new ImproperlyConfigured(
          'REST_ERR_FIELD_OPTIONS',
          `HiddenField: the option '${option}' does not apply: the field is always write-only and takes its default.`,
        );
      }
    }
    super({ ...options, writeOnly: true } as never);
  }

  override clone(): this {
    const { writeOnly: _, ...given } = this.options;
    const Ctor = this.constructor as new (options: HiddenFieldOptions<T>) => this;
    return new Ctor(given as HiddenFieldOptions<T>);
  }

  /** Never what the client sent: always "not sent", so the default applies. */
  override getValue(_data: Readonly<Record<string, unknown>>, _ctx: RunContext): unknown {
    return EMPTY;
  }

  toInternalValue(data: unknown): T {
    return data as T;
  }

  toRepresentation(): never {
    return undefined as never;
  }
}

Object.defineProperty(HiddenField.prototype, 'hidden', { value: true });

/** True for fields that documents and forms leave out ({@link HiddenField}). */
export function isHiddenField(field: Field<any, any, any>): boolean {
  return (field as { hidden?: unknown }).hidden === true;
}
