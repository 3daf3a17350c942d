/**
 * The base of every serializer field: Django REST framework's `Field`, with its options,
 * its empty-value rules, its validators and its error messages kept as data.
 *
 * A field converts one value in both directions: `toInternalValue` validates what a client
 * sent, `toRepresentation` renders what a record holds. Fields are built once per serializer
 * class and shared by every request, so they hold no per-request state: what a run needs
 * (partial or not, the request, the instance) comes in a {@link RunContext}.
 *
 * @example
 * ```ts
 * class SlugField extends CharField {
 *   static override defaultErrorMessages: Readonly<Record<string, string>> = { invalid: 'Enter a valid slug.' };
 *   override toInternalValue(data: unknown, ctx: RunContext): string {
 *     const value = super.toInternalValue(data, ctx);
 *     if (!/^[-a-z0-9_]+$/.test(value)) this.fail('invalid');
 *     return value;
 *   }
 * }
 * ```
 * @module
 */

import { type ErrorTree, ValidationError } from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from '../models/model.ts';
import type { APISettings } from '../settings/api-settings.ts';
import { ownPlan } from '../utils/bounded-cache.ts';
import { allMaybe, catchMaybe, thenMaybe } from '../utils/maybe-promise.ts';
import { resumeStackTraces, suspendStackTraces } from '../utils/stack-traces.ts';
import { interpolate, labelFromName } from '../utils/text.ts';
import { compileGetter } from './attribute-getter.ts';
import { isFormInput } from './form-input.ts';

/** "Nothing was sent for this field" (DRF's `empty`), as opposed to `null`. */
export const EMPTY: unique symbol = Symbol('empty');
/** The type of {@link EMPTY}. */
export type Empty = typeof EMPTY;

/**
 * What {@link Field.getDefault}, {@link Field.validateEmptyValues} and
 * {@link Field.runValidation} give instead of a value to leave the field out of the validated
 * data (an optional field not sent, a read-only field): the returned form of DRF's `SkipField`.
 * A serializer skips a field whose validation gives it, as it skips one that throws
 * {@link SkipField}. Returned, not thrown, because a throw and its catch cost more than the
 * field's whole validation (about 5,000 instructions for each optional field a POST leaves out).
 *
 * @example
 * ```ts
 * class NoteField extends CharField {
 *   // Not sent: the context's note, else the field is left out of the data.
 *   override getDefault(ctx: RunContext): unknown {
 *     return ctx.context.note ?? SKIPPED;
 *   }
 * }
 * ```
 */
export const SKIPPED: unique symbol = Symbol('skipped');

/**
 * Thrown while validating to leave a field out of the validated data; the toolkit's own
 * fields return {@link SKIPPED} instead, which costs less.
 *
 * @example
 * ```ts
 * class WriteOnceField extends CharField {
 *   // Leaves the value out of an update instead of failing.
 *   override runValidation(data: unknown, ctx: RunContext) {
 *     if (ctx.instance) throw new SkipField();
 *     return super.runValidation(data, ctx);
 *   }
 * }
 * ```
 */
export class SkipField extends Error {
  /** The error name, as thrown. */
  override readonly name = 'SkipField';

  constructor(message?: string) {
    // Control flow, thrown for every optional field a request leaves out: capturing a stack
    // trace each time was 4 % of the CPU time of writes, and nobody reads it.
    const limit = suspendStackTraces();
    super(message);
    resumeStackTraces(limit);
  }
}

/** What a serializer knows about the current request, for fields that build URLs. */
export interface RequestLike {
  /** The absolute URL of a named route (`book-detail`) with its parameters. */
  reverse(name: string, params?: Readonly<Record<string, unknown>>): string;
  /** An absolute URL for a path on this service, built from the request's scheme and host. */
  buildAbsoluteUri(path: string): string;
  /** The app's settings: date fields read `DATETIME_FORMAT` and `DATE_FORMAT`. */
  readonly settings?: Pick<APISettings, 'DATETIME_FORMAT' | 'DATE_FORMAT'>;
  /**
   * The named route a path of this service is the URL of, with its decoded parameters, or
   * null; what `HyperlinkedRelatedField` reads a link a client sent with (a request without
   * it cannot take links as input).
   */
  resolve?(path: string): {
    /** The route's name (`book-detail`). */
    readonly name: string;
    /** Its parameters, decoded (`{ pk: '1' }`). */
    readonly params: Readonly<Record<string, string>>;
  } | null;
  /** The namespace of the router serving the request, if it has one (`v1` under `v1:`). */
  readonly urlNamespace?: string | undefined;
}

/** The serializer context: the request, the view, and anything a view adds. */
export interface SerializerContext {
  /** The request being served, when there is one. */
  readonly request?: RequestLike;
  /** The view serving the request. */
  readonly view?: unknown;
  readonly [key: string]: unknown;
}

/** What one validation or rendering run passes down to every field. */
export interface RunContext {
  /** PATCH: fields not sent are skipped, not required. */
  readonly partial: boolean;
  /** The serializer's context (request, view). */
  readonly context: SerializerContext;
  /** The record being updated (undefined on create). */
  readonly instance: unknown;
}

/** A validator: throws `ValidationError` (or returns a promise that rejects with one). */
export type Validator<T = unknown> = (
  value: T,
  ctx: RunContext,
  field: Field<any, any, any>,
) => void | Promise<void>;

const kQueriesDatabase = Symbol.for('restframework.queriesDatabase');

/**
 * Marks a validator as one that queries the database: a field runs it after its other
 * validators, and only on a value they all accepted (see {@link Field.runValidators}).
 *
 * @example
 * ```ts
 * const notTaken = markQueriesDatabase(async (value: string) => {
 *   if (await Book.objects.filter({ isbn: value }).exists()) throw new ValidationError(['Taken.']);
 * });
 * ```
 */
export function markQueriesDatabase<V extends Validator<any>>(validator: V): V {
  Object.defineProperty(validator, kQueriesDatabase, { value: true });
  return validator;
}

/** True for validators marked with {@link markQueriesDatabase}. */
export function queriesDatabase(validator: Validator<any>): boolean {
  return (validator as unknown as Record<symbol, unknown>)[kQueriesDatabase] === true;
}

/**
 * A default computed from the run (DRF's defaults with `requires_context`): called with the
 * run's context and the field; it may answer {@link SKIPPED} to leave the field out.
 *
 * @example
 * ```ts
 * const today: ContextDefault<string> = Object.assign(
 *   (ctx: RunContext) => String(ctx.context.today),
 *   { requiresContext: true as const },
 * );
 * ```
 */
export type ContextDefault<T> = ((ctx: RunContext, field: Field<any, any, any>) => T) & {
  /** Marks a default computed from the run context (the request, say). */
  readonly requiresContext: true;
};

/**
 * Options `O` with every key `Known` does not have typed `never`: a constructor taking
 * `O & OnlyKnown<O, Known>` makes a misspelt option a compile error at the word that is wrong
 * (a `const` type parameter infers without the excess-property check).
 *
 * @example
 * ```ts-fragment
 * constructor(options: O & OnlyKnown<O, ListFieldOptions>) { ... }
 * ```
 */
export type OnlyKnown<O, Known> = { readonly [K in Exclude<keyof O, keyof Known>]: never };

/** The options every field takes (see {@link FieldOptions}). */
const FIELD_OPTION_NAMES: readonly string[] = [
  'readOnly',
  'writeOnly',
  'required',
  'default',
  'allowNull',
  'source',
  'label',
  'helpText',
  'errorMessages',
  'validators',
  'style',
];

/**
 * Fails at start-up (`REST_ERR_FIELD_OPTIONS`) on an option of `options` that neither every
 * field nor `own` names: the run-time side of {@link OnlyKnown}, for JavaScript callers and
 * casts. A field class calls it only when it is the class made (`new.target`), so that a
 * subclass may take options of its own.
 *
 * @example
 * ```ts-fragment
 * if (new.target === ListField) checkFieldOptions('ListField', options, ['child', 'allowEmpty']);
 * ```
 */
export function checkFieldOptions(
  className: string,
  options: object,
  own: readonly string[],
): void {
  for (const key of Object.keys(options)) {
    if (FIELD_OPTION_NAMES.includes(key) || own.includes(key)) continue;
    throw new ImproperlyConfigured(
      'REST_ERR_FIELD_OPTIONS',
      `${className}: the option '${key}' is not one ${className} knows. Known options: ` +
        `${[...own, ...FIELD_OPTION_NAMES].join(', ')}.`,
    );
  }
}

/** Options every field accepts (DRF's names, camel-cased). */
export interface FieldOptions<T = unknown> {
  /** Shown in output, ignored in input. */
  readonly readOnly?: boolean;
  /** Accepted in input, never shown in output. */
  readonly writeOnly?: boolean;
  /** Must be sent on create and PUT (default: true unless read-only or with a default). */
  readonly required?: boolean;
  /**
   * The value used when nothing is sent (a function is called each time; a
   * {@link ContextDefault} such as `CurrentUserDefault()` with the run's context).
   */
  readonly default?: T | (() => T) | ContextDefault<T>;
  /** Accepts `null`. */
  readonly allowNull?: boolean;
  /** Where the value comes from: an attribute, a dotted path through relations, or `*`. */
  readonly source?: string;
  /** The human name; defaults to the field name with a capital and spaces. */
  readonly label?: string;
  /** Shown by OPTIONS, OpenAPI and the browsable API's forms. */
  readonly helpText?: string;
  /** Replaces messages by code (`{ required: 'Give a title.' }`). */
  readonly errorMessages?: Readonly<Record<string, string>>;
  /** Run on the converted value, after `toInternalValue`; each throws a `ValidationError`. */
  readonly validators?: readonly Validator<any>[];
  /**
   * Hints for the browsable API's HTML forms: `inputType` (`'password'`), `baseTemplate`
   * (`'textarea'`), `placeholder`, `rows`, `hideLabel`.
   */
  readonly style?: Readonly<Record<string, unknown>>;
}

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>;

/** What a field's JSON Schema describes. */
export interface JsonSchemaOptions {
  /** What clients send (`request`: writable fields) or receive (`response`: readable fields). */
  readonly mode: 'request' | 'response';
  /** A PATCH body: nothing is required. */
  readonly partial?: boolean;
  /**
   * A create body (POST): what a create must send is required, which for a model serializer
   * includes the NOT NULL columns without a default (a PUT's row has them already).
   */
  readonly create?: boolean;
  /** The app's settings: how date fields are written (`DATETIME_FORMAT`, `DATE_FORMAT`). */
  readonly settings?: Pick<APISettings, 'DATETIME_FORMAT' | 'DATE_FORMAT'>;
}

/** Adds `null` to what a schema accepts (OpenAPI 3.1 has no `nullable`). */
export function allowNullIn(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.enum) && !schema.enum.includes(null))
    schema.enum = [...schema.enum, null];
  const type = schema.type;
  if (typeof type === 'string') schema.type = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) schema.type = [...type, 'null'];
  return schema;
}

/** A field's self-description for OPTIONS and schemas (keys as the wire format has them). */
export interface FieldDescription {
  /** The field's kind for clients (`string`, `integer`, `nested object`, ...). */
  type: string;
  /** Whether a body must send it. */
  required: boolean;
  /** Whether it is rendered only, never accepted. */
  read_only: boolean;
  /** Its label for people. */
  label: string;
  [key: string]: unknown;
}

/** Where a field class keeps its merged error messages (with `ownPlan`). */
const MESSAGES = Symbol('merged error messages');

/** What an unbound field reads: nothing. Shared, as a root serializer is made per request. */
const NO_ATTRIBUTE = (_instance: unknown): unknown => undefined;
const NO_STYLE: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The options of a field given none that matter to it (a serializer made per request with
 * only root options): Field's constructor stores nothing from it, its defaults are on the
 * prototype (below the class), where they cost a per-request serializer no store.
 */
export const NO_FIELD_OPTIONS: FieldOptions<never> = Object.freeze({});

/**
 * The binding of a field whose source is `''` without a model (a list's child): its source
 * path and compiled getter, which depend on nothing else, so they are made once.
 */
const UNNAMED = (() => {
  const attrs: readonly string[] = Object.freeze(['']);
  return { attrs, getter: compileGetter(attrs, null, '') };
})();

/** The error messages of a field class, merged along its class chain (subclasses win). */
function classMessages(ctor: Function): Readonly<Record<string, string>> {
  return ownPlan(ctor, MESSAGES, () => mergeMessages(ctor));
}

function mergeMessages(ctor: Function): Readonly<Record<string, string>> {
  const parent = Object.getPrototypeOf(ctor);
  const inherited = parent && parent !== Function.prototype ? classMessages(parent) : {};
  const own = Object.hasOwn(ctor, 'defaultErrorMessages')
    ? (ctor as unknown as { defaultErrorMessages: Record<string, string> }).defaultErrorMessages
    : {};
  return Object.freeze({ ...inherited, ...own });
}

/**
 * The base field. `TValue` is the validated value, `TRepr` the representation; `O` keeps the
 * options' literal types so that `allowNull: true` shows up in inferred types.
 *
 * @typeParam TValue - what `toInternalValue` returns: the value in `validatedData`, and the
 *   type of the field in the wire types' input (`CreateInput`).
 * @typeParam TRepr - what `toRepresentation` returns: the field in the output
 *   (`Representation`).
 * @typeParam O - the options' type, kept literal.
 *
 * @example
 * ```ts
 * class HexColorField extends Field<string, string> {
 *   override toInternalValue(data: unknown): string {
 *     if (typeof data !== 'string' || !/^#[0-9a-f]{6}$/i.test(data)) this.fail('invalid');
 *     return data.toLowerCase();
 *   }
 *   override toRepresentation(value: unknown): string {
 *     return String(value);
 *   }
 * }
 * ```
 */
export abstract class Field<
  TValue = unknown,
  TRepr = unknown,
  O extends FieldOptions<any> = FieldOptions<TValue>,
> {
  /** Messages by code; merged along the class chain, raised with `fail()`. */
  static defaultErrorMessages: Readonly<Record<string, string>> = {
    required: 'This field is required.',
    null: 'This field may not be null.',
  };
  /** The `type` shown in OPTIONS. */
  static metadataType = 'field';
  /** For form input: the value of a field absent from the form (DRF's `default_empty_html`). */
  static defaultEmptyHtml: unknown = EMPTY;

  /** Type-level only. */
  declare readonly valueType: TValue;
  /** Type-level only. */
  declare readonly representationType: TRepr;

  // Assigned in the constructor, so `declare`d: a plain field declaration would define each
  // as undefined first, one more store per field on every field made (a root serializer is
  // made per request, and these stores are megamorphic: every field class passes here).
  /** The options given to the constructor, as given. */
  declare readonly options: O;
  /** Output only: never read from input (`readOnly` option). */
  declare readonly readOnly: boolean;
  /** Input only: never rendered (`writeOnly` option). */
  declare readonly writeOnly: boolean;
  /** Input must hold it (not on PATCH); default: true unless read-only or with a default. */
  declare readonly required: boolean;
  /** Whether `null` is valid input (`allowNull` option). */
  declare readonly allowNull: boolean;
  /** Shown by OPTIONS and OpenAPI (`helpText` option). */
  declare readonly helpText: string | undefined;
  /** Hints for the browsable API's forms (`style` option: `{ inputType: 'password' }`). */
  declare readonly style: Readonly<Record<string, unknown>>;
  /** The messages of `fail()`, by code: the class's, merged with the `errorMessages` option. */
  declare readonly errorMessages: Readonly<Record<string, string>>;
  /** Run on the converted value, after `toInternalValue` (`validators` option). */
  declare readonly validators: Validator<any>[];

  // Set by `bind()`; until then the defaults on the prototype (below the class) apply.
  /** The name in the parent serializer (set by `bind()`). */
  declare fieldName: string;
  /** The label (set by `bind()` when not given). */
  declare label: string;
  /** The source path split on dots; empty for `*`. */
  declare sourceAttrs: readonly string[];
  /** The relation path to load with the query (`user` for `source: 'user.username'`), if any. */
  declare relatedPath: string | undefined;
  /**
   * The many relation to prefetch with the query (`tags` for a list of tag keys), if any:
   * rendering reads it from the rows `prefetchRelated` loaded, never one query per row.
   */
  declare prefetchPath: string | undefined;
  /** The key {@link getAttribute} reads when it only reads `instance[key]`; else undefined. */
  declare attributeKey: string | undefined;
  /** Reads this field's attribute from an instance (set by `bind()`). */
  declare getAttribute: (instance: unknown) => unknown;

  constructor(options: O = {} as O) {
    this.options = options;
    // Own, whatever the options: subclasses add to it (`this.validators.push(...)`).
    this.validators = options.validators ? [...options.validators] : [];
    const messages = classMessages(new.target);
    this.errorMessages = options.errorMessages
      ? { ...messages, ...options.errorMessages }
      : messages;
    // No options (a root serializer, made per request): the defaults on the prototype.
    if ((options as unknown) === NO_FIELD_OPTIONS) return;
    this.readOnly = options.readOnly ?? false;
    this.writeOnly = options.writeOnly ?? false;
    this.required = options.required ?? (options.default === undefined && !this.readOnly);
    this.allowNull = options.allowNull ?? false;
    this.helpText = options.helpText;
    this.style = options.style ?? NO_STYLE;
    const name = new.target.name;
    if (this.readOnly && this.writeOnly) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        `${name}: may not set both readOnly and writeOnly.`,
      );
    }
    if (this.readOnly && options.required) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        `${name}: may not set both readOnly and required.`,
      );
    }
    if (options.required && options.default !== undefined) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        `${name}: may not set both required and default.`,
      );
    }
  }

  /** A new, unbound field with the same options (each serializer class binds its own copy). */
  clone(): this {
    const Ctor = this.constructor as new (options: O) => this;
    return new Ctor(this.options);
  }

  /** True when a default is declared. */
  get hasDefault(): boolean {
    return this.options.default !== undefined;
  }

  /** The declared source, or the field name. */
  get source(): string {
    return this.options.source ?? this.fieldName;
  }

  /**
   * Names the field inside its serializer and compiles its attribute getter. `model` is the
   * serializer's model, when it has one, so that sources can cross relations and properties.
   */
  bind(fieldName: string, parentName: string, model: AnyModel | null): void {
    if (this.options.source !== undefined && this.options.source === fieldName) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        `It is redundant to specify source: '${fieldName}' on field ${this.constructor.name} '${fieldName}' ` +
          `in serializer ${parentName}, because it is the same as the field name. Remove the source option.`,
      );
    }
    this.fieldName = fieldName;
    const source = this.source;
    if (source === '' && model === null) {
      // A list's child (`many()`), bound on every request: the same binding each time, made once.
      this.label = this.options.label ?? '';
      this.sourceAttrs = UNNAMED.attrs;
      this.getAttribute = UNNAMED.getter.get;
      this.relatedPath = undefined;
      this.prefetchPath = undefined;
      this.attributeKey = UNNAMED.getter.key;
      return;
    }
    this.label = this.options.label ?? labelFromName(fieldName);
    this.sourceAttrs = source === '*' ? [] : source.split('.');
    if (this.writeOnly) {
      // Never read, so its source need not be anything the model has (DRF's write-only
      // fields): the value reaches the validated data under its source, and the serializer's
      // create()/update() decide what to do with it.
      this.getAttribute = NO_ATTRIBUTE;
      this.relatedPath = undefined;
      this.prefetchPath = undefined;
      this.attributeKey = undefined;
      return;
    }
    const getter = compileGetter(
      this.sourceAttrs,
      model,
      `${parentName}.${fieldName}`,
      this.relationValue,
      this.readOnly,
    );
    this.getAttribute = getter.get;
    this.relatedPath = getter.relatedPath;
    this.prefetchPath = getter.prefetchPath;
    this.attributeKey = getter.key;
  }

  /** How a relation at the end of the source is read: the related row, or its key. */
  protected get relationValue(): 'row' | 'key' {
    return 'row';
  }

  /** The value sent for this field, or {@link EMPTY}. Form input has its own rules. */
  getValue(data: Readonly<Record<string, unknown>>, ctx: RunContext): unknown {
    const present = Object.hasOwn(data, this.fieldName);
    if (isFormInput(data)) {
      if (!present) {
        if (ctx.partial) return EMPTY;
        return (this.constructor as typeof Field).defaultEmptyHtml;
      }
      const value = data[this.fieldName];
      if (value === '' && this.allowNull) return this.emptyFormValue();
      // DRF: an empty input of an optional field is "not sent" (its default, or skipped),
      // unless blank is a valid value; so a form's untouched optional number is no error.
      if (value === '' && !this.required) {
        return (this as { allowBlank?: unknown }).allowBlank === true ? '' : EMPTY;
      }
      return value;
    }
    return present ? data[this.fieldName] : EMPTY;
  }

  /** What an empty form value means for a nullable field: `null` (char fields may keep ''). */
  protected emptyFormValue(): unknown {
    return null;
  }

  /** The default, or {@link SKIPPED} when there is none (or the run is partial). */
  getDefault(ctx: RunContext): unknown {
    const def = this.options.default;
    if (def === undefined || ctx.partial) return SKIPPED;
    if (typeof def !== 'function') return def;
    return (def as { requiresContext?: unknown }).requiresContext === true
      ? (def as ContextDefault<unknown>)(ctx, this)
      : (def as () => unknown)();
  }

  /**
   * DRF's empty-value rules: read-only and missing values take the default (or are skipped,
   * or fail as required), `null` passes only with `allowNull`. Returns `[true, value]` when
   * validation is over; the value is {@link SKIPPED} when the field is left out.
   */
  validateEmptyValues(data: unknown, ctx: RunContext): [boolean, unknown] {
    if (this.readOnly) return [true, this.getDefault(ctx)];
    if (data === EMPTY) {
      if (ctx.partial) return [true, SKIPPED];
      if (this.required) this.fail('required');
      return [true, this.getDefault(ctx)];
    }
    if (data === null || data === undefined) {
      if (!this.allowNull) this.fail('null');
      if (this.source === '*') return [false, null];
      return [true, null];
    }
    return [false, data];
  }

  /**
   * Validates one value: empty-value rules, then {@link toInternalValue}, then validators.
   * Returns a promise only when a validator or the conversion is asynchronous, and
   * {@link SKIPPED} (typed as a value) when the field is left out of the validated data.
   */
  runValidation(data: unknown, ctx: RunContext): TValue | Promise<TValue> {
    const [isEmpty, value] = this.validateEmptyValues(data, ctx);
    if (isEmpty) return value as TValue;
    const internal = this.toInternalValue(value, ctx);
    return thenMaybe(internal, (converted) => this.runValidators(converted, ctx));
  }

  /**
   * Runs every validator, collecting all their messages; those that wait are waited on side
   * by side. Validators that query the database (`queriesDatabase`, such as
   * `uniqueValidator`) run last, and only when every other check accepted the value: a value
   * already refused (a NUL character, a string too long for the column) never reaches a
   * query, where the database might refuse it with an error of its own instead of the
   * field's message. At once when no validator waited.
   */
  runValidators(value: TValue, ctx: RunContext): TValue | Promise<TValue> {
    const validators = this.validators;
    if (validators.length === 0) return value;
    let errors: string[] | undefined;
    const collect = (error: unknown): void => {
      errors = collectMessages(errors, error);
    };
    const run = (database: boolean) =>
      allMaybe(validators, (validator) =>
        queriesDatabase(validator) === database
          ? catchMaybe(() => validator(value, ctx, this), collect)
          : undefined,
      );
    const finish = (): TValue => {
      if (errors) throw new ValidationError(errors);
      return value;
    };
    return thenMaybe(run(false), () => (errors ? finish() : thenMaybe(run(true), finish)));
  }

  /** Converts and validates what a client sent. Throw with {@link fail}. */
  abstract toInternalValue(data: unknown, ctx: RunContext): TValue | Promise<TValue>;

  /**
   * Renders a stored value for output. `value` is the attribute already read through `source`
   * (not the whole row: a serializer's `toRepresentation(instance, ctx)` gets the row); `ctx`
   * holds the serializer `context` (`request`, `view`, what `getSerializer` added), the
   * `instance` and `partial`.
   */
  abstract toRepresentation(value: unknown, ctx: RunContext): TRepr;

  /**
   * Throws the `ValidationError` whose message is kept under `code`, with `{name}`
   * placeholders filled from `params`.
   */
  fail(code: string, params: Readonly<Record<string, unknown>> = {}): never {
    const template = this.errorMessages[code];
    if (template === undefined) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_MESSAGE',
        `ValidationError raised by ${this.constructor.name}, but error key '${code}' does not exist in its error messages.`,
      );
    }
    throw new ValidationError([interpolate(template, params)], code);
  }

  /**
   * The JSON Schema of this field's values, as OpenAPI documents show it: {@link valueSchema}
   * with what every field adds: `null` for `allowNull`, `readOnly`, `writeOnly`, a `default`
   * that is a value (not a function), and the help text as `description`. Add-on fields
   * override {@link valueSchema} (or this, for full control).
   *
   * @example
   * ```ts
   * new CharField({ maxLength: 100, allowNull: true }).jsonSchema();
   * // { type: ['string', 'null'], maxLength: 100 }
   * ```
   */
  jsonSchema(options: JsonSchemaOptions = { mode: 'response' }): JsonSchema {
    const schema: JsonSchema = { ...this.valueSchema(options) };
    if (this.allowNull) allowNullIn(schema);
    if (this.readOnly) schema.readOnly = true;
    if (this.writeOnly) schema.writeOnly = true;
    const def = this.options.default;
    if (def !== undefined && typeof def !== 'function') schema.default = def;
    if (this.helpText) {
      schema.description =
        typeof schema.description === 'string'
          ? `${this.helpText}\n\n${schema.description}`
          : this.helpText;
    }
    return schema;
  }

  /**
   * The schema of one value, before the keywords every field adds: `{}` (any value) here;
   * each field class says what it holds (`{ type: 'string', maxLength: 100 }`).
   */
  protected valueSchema(_options: JsonSchemaOptions): JsonSchema {
    return {};
  }

  /**
   * The field's description for OPTIONS and schemas: `type`, `required`, `read_only`,
   * `label`, then what the field adds (`max_length`, `choices`, `children`, ...).
   */
  describe(): FieldDescription {
    const description: FieldDescription = {
      type: (this.constructor as typeof Field).metadataType,
      required: this.required,
      read_only: this.readOnly,
      label: this.label,
    };
    if (this.helpText) description.help_text = this.helpText;
    return description;
  }
}

// The defaults of what `bind` sets (declared in the class): on the prototype, so a field
// that is never bound (a root serializer, made per request) stores none of them. The options'
// defaults too: what a field made with `NO_FIELD_OPTIONS` reads.
Object.assign(Field.prototype, {
  readOnly: false,
  writeOnly: false,
  required: true,
  allowNull: false,
  helpText: undefined,
  style: NO_STYLE,
  fieldName: '',
  label: '',
  sourceAttrs: Object.freeze([]),
  relatedPath: undefined,
  prefetchPath: undefined,
  attributeKey: undefined,
  getAttribute: NO_ATTRIBUTE,
});

/**
 * Adds the messages of a validator's `ValidationError` to `errors` (made when undefined) and
 * returns it; any other error is rethrown.
 */
function collectMessages(errors: string[] | undefined, error: unknown): string[] {
  if (!(error instanceof ValidationError)) throw error;
  const list = errors ?? [];
  list.push(...flattenMessages(error.detail));
  return list;
}

/** Any field, whatever its types. */
export type AnyField = Field<any, any, any>;

/** All messages of an error tree, flattened (validators report lists of messages). */
export function flattenMessages(detail: ErrorTree): string[] {
  if (Array.isArray(detail))
    return (detail as unknown[]).flatMap((d) =>
      typeof d === 'string' ? [d] : flattenMessages(d as ErrorTree),
    );
  return Object.values(detail).flatMap((d) => flattenMessages(d));
}
