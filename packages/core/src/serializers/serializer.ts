/**
 * Serializers: declared fields, validated together, rendered together. A serializer is also
 * a field, so serializers nest (`new AddressSerializer({ required: false })`).
 *
 * Declare one with `Serializer.with({ fields })` and subclass it for hooks:
 * `validate<FieldName>(value)` (or DRF's `validate_<field_name>`) for one field, `validate(attrs)`
 * for the whole object, `create`/`update` for saving.
 *
 * @example
 * ```ts
 * class CommentSerializer extends Serializer.with({
 *   fields: { email: new EmailField(), content: new CharField({ maxLength: 200 }) },
 * }) {
 *   validateContent(value: string) {
 *     if (value.includes('spam')) throw new ValidationError('No spam.');
 *     return value;
 *   }
 * }
 *
 * const serializer = new CommentSerializer({ data: { email: 'a@b.org', content: 'Hi' } });
 * if (await serializer.isValid()) console.log(serializer.validatedData);
 * else console.log(serializer.errors); // with content: '', { content: ['This field may not be blank.'] }
 * ```
 * @module
 */
import { type ErrorTree, ValidationError } from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import {
  type AnyField,
  EMPTY,
  Field,
  type FieldDescription,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  NO_FIELD_OPTIONS,
  type RunContext,
  type SerializerContext,
  SKIPPED,
  SkipField,
} from '../fields/field.ts';
import { formInputUnder, isFormInput } from '../fields/form-input.ts';
import { isHiddenField } from '../fields/hidden-field.ts';
import type { AnyModel } from '../models/model.ts';
import { ownPlan } from '../utils/bounded-cache.ts';
import {
  catchMaybe,
  eachMaybe,
  isPromiseLike,
  type MaybePromise,
  thenMaybe,
} from '../utils/maybe-promise.ts';
import { pythonTypeName } from '../utils/text.ts';
import { checkDeclarationOptions } from './check-declaration-options.ts';
import type { DeclarationCheck } from './declaration-check.ts';
import { describeSerializerFields } from './describe-serializer-fields.ts';
import type { ModelSerializerDeclaration } from './model-serializer.ts';
import { type PreparedSerializer, prepareSerializer } from './prepare-serializer.ts';
import type { RepresentFunction } from './representation-compiler.ts';
import { rootErrors } from './root-errors.ts';
import type {
  CreateInput,
  DeclarationTypes,
  PartialInput,
  Representation,
  UpdateInput,
} from './serializer-types.ts';
import { setValue } from './set-value.ts';

/** Options of a serializer: a field's options, plus what a root serializer works on. */
export interface SerializerOptions extends FieldOptions<Record<string, unknown>> {
  /** The record to render or update. */
  readonly instance?: unknown;
  /** What the client sent, to validate. */
  readonly data?: unknown;
  /** PATCH: fields not sent are not required. */
  readonly partial?: boolean;
  /** The request, the view and anything else the fields may need (DRF's `context`). */
  readonly context?: SerializerContext;
}

/** What `Serializer.with` accepts. */
export interface SerializerDeclaration {
  /** The fields, by the name they have in the data. */
  readonly fields: Readonly<Record<string, AnyField>>;
}

/** A plain or a model serializer's declaration. */
export type AnyDeclaration = SerializerDeclaration | ModelSerializerDeclaration<any, any, any>;

export type { DeclarationTypes, PreparedSerializer };

/** The class returned by `.with()`: the base class, with typed instances. */
export type SerializerClassWith<C, T> = Omit<C, 'prototype'> & {
  new (
    options?: SerializerOptions,
  ): (C extends abstract new (...args: any) => infer I ? I : never) & T;
};

/**
 * Where a serializer class keeps its plan (see `prepare-serializer.ts`), with `ownPlan`: a
 * subclass prepared after its parent gets its own plan (its own declaration, hooks, fields);
 * never invalidated, because a class's declaration is fixed once `.with()` made it, and fields
 * added later would be another class.
 */
const PREPARED = Symbol('prepared serializer');
const NO_DATA = Symbol('noData');
const ROOT_KEYS = new Set(['instance', 'data', 'partial', 'context']);
/** The options `many()` keeps for the list (the others go to the child). */
const LIST_KEYS = new Set([...ROOT_KEYS, 'allowEmpty']);
/**
 * The options `many()` gives the list as well as the child (DRF's `LIST_SERIALIZER_KWARGS`):
 * what makes the list a field of its parent (where it reads, whether it is read-only, ...).
 */
const LIST_FIELD_KEYS = [
  'source',
  'readOnly',
  'writeOnly',
  'required',
  'default',
  'allowNull',
  'label',
  'helpText',
  'style',
] as const;
/** The options a list serializer takes for itself, which are no field options of it. */
const LIST_OWN_KEYS = new Set(['child', 'allowEmpty']);

/** `options` without the list's own keys (`child`, `allowEmpty`): what Serializer takes. */
function serializerOptionsOf(options: ListOptions & { child: unknown }): SerializerOptions {
  const rest: Record<string, unknown> = {};
  for (const key in options) {
    if (LIST_OWN_KEYS.has(key) || !Object.hasOwn(options, key)) continue;
    rest[key] = (options as unknown as Record<string, unknown>)[key];
  }
  return rest as SerializerOptions;
}

/**
 * A frozen copy of a declaration, its lists and records copied and frozen too (one level: the
 * fields themselves are cloned for each class when it is prepared).
 */
function fixedDeclaration<D extends object>(declaration: D): D {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(declaration)) {
    copy[key] = Array.isArray(value)
      ? Object.freeze([...value])
      : value !== null &&
          typeof value === 'object' &&
          Object.getPrototypeOf(value) === Object.prototype
        ? Object.freeze({ ...value })
        : value;
  }
  return Object.freeze(copy) as D;
}

/**
 * The options a serializer passes on to Field: all but the root ones. A serializer made per
 * request usually has only root options: then no copy (a copy with keys deleted was also a
 * slow dictionary-mode object).
 */
function fieldOptionsOf(options: SerializerOptions): SerializerOptions {
  let fieldOptions: Record<string, unknown> | undefined;
  for (const key in options) {
    if (ROOT_KEYS.has(key)) continue;
    fieldOptions ??= {};
    fieldOptions[key] = (options as Record<string, unknown>)[key];
  }
  return (fieldOptions as SerializerOptions | undefined) ?? NO_FIELD_OPTIONS;
}

/**
 * Throws a serializer's own error as its parent shows it: a list of messages (from its
 * validators or `validate`) goes under `non_field_errors`; any other error as it is.
 */
function rethrowAsNonFieldErrors(error: unknown): never {
  if (error instanceof ValidationError && Array.isArray(error.detail))
    throw new ValidationError({ non_field_errors: error.detail }, error.code);
  throw error;
}

/**
 * `errors` with the failure of `field` added under its name (made when undefined); a
 * `SkipField` leaves the field out and adds nothing; any other error is rethrown.
 */
function withFieldError(
  errors: Record<string, ErrorTree> | undefined,
  field: AnyField,
  error: unknown,
): Record<string, ErrorTree> | undefined {
  if (error instanceof SkipField) return errors;
  if (!(error instanceof ValidationError)) throw error;
  const collected = errors ?? {};
  collected[field.fieldName] = error.detail;
  return collected;
}

/**
 * The base serializer; see the module documentation.
 *
 * @example
 * ```ts
 * const PointSerializer = Serializer.with({
 *   fields: { x: new IntegerField(), y: new IntegerField() },
 * });
 *
 * const point = new PointSerializer({ data: { x: '1', y: 2 } });
 * await point.isValid(); // true
 * point.validatedData; // { x: 1, y: 2 }
 * ```
 */
export class Serializer<TValue = unknown, TRepr = unknown> extends Field<
  TValue,
  TRepr,
  SerializerOptions
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Invalid data. Expected a dictionary, but got {datatype}.',
  };
  static override metadataType = 'nested object';
  /** The declaration given to `.with()`. */
  static declaration: AnyDeclaration = { fields: {} };
  /**
   * The options `.with()` accepts; any other fails at start-up (`REST_ERR_SERIALIZER_OPTION`),
   * as the compiler refuses it. Add-ons that read an option of their own add it here.
   */
  static declarationOptions: readonly string[] = ['fields'];

  /**
   * A serializer class declared by `declaration`; subclass it to add hooks. A plain
   * serializer takes `{ fields }`, a model serializer `{ model, fields: [...names], ... }`.
   * The instances' `Representation`, `CreateInput`, `UpdateInput` and `PartialInput` types are
   * inferred from the declaration; a name or an option that does not exist is a type error.
   */
  static with<
    C extends new (
      options?: SerializerOptions,
    ) => Serializer,
    const D extends AnyDeclaration,
  >(
    this: C,
    declaration: D & DeclarationCheck<C, D>,
  ): SerializerClassWith<C, DeclarationTypes<D, C>> {
    const Base = this as unknown as typeof Serializer;
    // A frozen copy: the plan prepared from it can never disagree with it (a field added to
    // the caller's object afterwards does not reach this class, and the copy cannot change).
    const fixed = fixedDeclaration(declaration);
    const Declared = class extends Base {
      static override declaration: AnyDeclaration = fixed;
    };
    return Declared as never;
  }

  /** The explicitly declared fields, in order. */
  static get declaredFields(): Readonly<Record<string, AnyField>> {
    const declaration = this.declaration;
    if ('model' in declaration) return declaration.declaredFields ?? {};
    return declaration.fields;
  }

  /**
   * The plan of this class (bound fields, hooks, relation paths, compiled representation),
   * built on first use (at the latest when a route registers it) and then shared.
   */
  static prepare(): PreparedSerializer {
    return ownPlan(this, PREPARED, () => {
      this.checkDeclarationOptions();
      const result = prepareSerializer(
        this,
        this.buildFields(),
        this.serializerModel(),
        Serializer.prototype,
        (field) => (field instanceof Serializer ? field.prepared : undefined),
      );
      this.checkDeclaration(result);
      return result;
    });
  }

  /**
   * The fields of this class, unbound: copies of the declared fields. Model serializers add
   * the fields they build from the model.
   */
  protected static buildFields(): Record<string, AnyField> {
    const fields: Record<string, AnyField> = {};
    for (const [name, field] of Object.entries(this.declaredFields)) fields[name] = field.clone();
    return fields;
  }

  /** Fails at start-up on a declaration option this class does not know (a typo, mostly). */
  protected static checkDeclarationOptions(): void {
    checkDeclarationOptions(this.name, this.declaration, this.declarationOptions);
  }

  /** The model sources are resolved against (none for plain serializers). */
  protected static serializerModel(): AnyModel | null {
    return null;
  }

  /** Start-up checks of a prepared class; throw `ImproperlyConfigured` on a mistake. */
  protected static checkDeclaration(_prepared: PreparedSerializer): void {}

  /** A list serializer of this class (DRF's `many=True`). */
  static many<C extends new (options?: SerializerOptions) => Serializer>(
    this: C,
    options: ListOptions = {},
  ): ListSerializer<InstanceType<C>> {
    // The child gets every option but the list's own, and the context: it saves each item, so
    // it needs the context too (the storage of file fields). The list gets its own options
    // that are set. Copied key by key, not with rest and spread objects: a list view makes
    // one per request, and those made `many()` cost five times a serializer's construction.
    let childOptions: Record<string, unknown> | undefined;
    for (const key in options) {
      // The source is where the list reads in its parent; the child renders each item.
      if (LIST_KEYS.has(key) || key === 'source' || !Object.hasOwn(options, key)) continue;
      (childOptions ??= {})[key] = (options as Record<string, unknown>)[key];
    }
    const { instance, data, partial, context, allowEmpty } = options;
    if (context !== undefined) (childOptions ??= {}).context = context;
    const child = new this(childOptions ?? {}) as InstanceType<C>;
    const listOptions: ListOptions & { child: InstanceType<C> } = { child };
    const set = listOptions as unknown as Record<string, unknown>;
    if (instance !== undefined) set.instance = instance;
    if (data !== undefined) set.data = data;
    if (partial !== undefined) set.partial = partial;
    if (context !== undefined) set.context = context;
    if (allowEmpty !== undefined) set.allowEmpty = allowEmpty;
    for (const key of LIST_FIELD_KEYS) if (options[key] !== undefined) set[key] = options[key];
    return new ListSerializer(listOptions);
  }

  /**
   * Type-level only: what a create, a PUT and a PATCH may send (see {@link CreateInput},
   * {@link UpdateInput}, {@link PartialInput}); `.with()` gives the declaration's.
   */
  declare readonly wireTypes: {
    /** The body of a create (POST): {@link CreateInput}. */
    readonly create: unknown;
    /** The body of a full update (PUT): {@link UpdateInput}. */
    readonly update: unknown;
    /** The body of a partial update (PATCH): {@link PartialInput}. */
    readonly partial: unknown;
    /** True for a nested proxy serializer: it writes its parent's own row. */
    readonly parentRow: boolean;
    /** True when a create must send one of its fields for a NOT NULL column without a default. */
    readonly columns: boolean;
  };

  // Assigned in the constructor: `declare`d, not defined as undefined first (see Field).
  /** The record rendered or updated; set by `save()`. */
  declare instance: unknown;
  /** The `data` given to the constructor, before validation (DRF's `initial_data`). */
  declare readonly initialData: unknown;
  /** PATCH: fields not sent are left out of validation, not required. */
  declare readonly partial: boolean;
  /** What the fields may read (`request`, `view`, `format`, what the view added). */
  declare readonly context: SerializerContext;
  #validatedData: Record<string, unknown> | undefined;
  #errors: ErrorTree | undefined;

  constructor(options: SerializerOptions = {}) {
    super(fieldOptionsOf(options));
    // What was not given keeps the prototype's default (below the class): one store fewer
    // each, and a view makes a serializer per request.
    if (options.instance !== undefined) this.instance = options.instance;
    if ('data' in options) this.initialData = options.data;
    if (options.partial !== undefined) this.partial = options.partial;
    this.context = options.context ?? {};
  }

  /** This class's prepared fields. */
  get prepared(): PreparedSerializer {
    return (this.constructor as typeof Serializer).prepare();
  }

  /** This class's bound fields, by name. */
  get fields(): ReadonlyMap<string, AnyField> {
    return this.prepared.byName;
  }

  /** The context of a run started by this serializer as the root. */
  get runContext(): RunContext {
    return { partial: this.partial, context: this.context, instance: this.instance };
  }

  override getValue(data: Readonly<Record<string, unknown>>, ctx: RunContext): unknown {
    if (isFormInput(data))
      return formInputUnder(data as Record<string, unknown>, this.fieldName) ?? EMPTY;
    return super.getValue(data, ctx);
  }

  /**
   * Empty-value rules, {@link toInternalValue}, validators, then {@link validate}. Answers at
   * once when every step did (a promise per nested serializer and per step was a third of the
   * serializer's cost of a write); a promise only once a step waits.
   */
  override runValidation(data: unknown, ctx: RunContext): TValue | Promise<TValue> {
    const [isEmpty, value] = this.validateEmptyValues(data, ctx);
    if (isEmpty) return value as TValue;
    return thenMaybe(this.toInternalValue(value, ctx), (internal) =>
      this.#validateObject(internal, ctx),
    );
  }

  /** The validators and `validate` on converted data; list messages become `non_field_errors`. */
  #validateObject(internal: TValue, ctx: RunContext): TValue | Promise<TValue> {
    return catchMaybe(
      () => thenMaybe(this.runValidators(internal, ctx), () => this.validate(internal, ctx)),
      rethrowAsNonFieldErrors,
    );
  }

  /**
   * Validates every writable field, then its `validate<Field>` hook; errors nest by field.
   * Fields run one after another, each once the one before is done; the result comes at once
   * when no field and no hook waited, else as a promise.
   */
  toInternalValue(data: unknown, ctx: RunContext): TValue | Promise<TValue> {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      throw new ValidationError(
        {
          non_field_errors: [
            this.errorMessages.invalid?.replace('{datatype}', pythonTypeName(data)) ??
              'Invalid data.',
          ],
        },
        'invalid',
      );
    }
    const input = data as Record<string, unknown>;
    const { writable, hooks } = this.prepared;
    const result: Record<string, unknown> = {};
    let errors: Record<string, ErrorTree> | undefined;
    const validateField = (field: AnyField): MaybePromise<void> => {
      const primitive = field.getValue(input, ctx);
      // A field not sent in a partial run is skipped as `validateEmptyValues` would by
      // answering `SKIPPED`: decided here by the run's declared kind (a PATCH skips all but a
      // few fields). Any other value, absent or not, goes to the field's own `runValidation`,
      // overridden or not; it answers `SKIPPED` (or throws `SkipField`) to be left out.
      if (primitive === EMPTY && ctx.partial) return;
      return catchMaybe(
        () =>
          thenMaybe(field.runValidation(primitive, ctx), (value) => {
            if (value === SKIPPED) return;
            const hook = hooks.size === 0 ? undefined : hooks.get(field.fieldName);
            if (hook === undefined) return setValue(result, field.sourceAttrs, value);
            return thenMaybe(hook.call(this, value), (hooked) =>
              setValue(result, field.sourceAttrs, hooked),
            );
          }),
        (error) => {
          errors = withFieldError(errors, field, error);
        },
      );
    };
    return thenMaybe(eachMaybe(writable, validateField), () => {
      if (errors) throw new ValidationError(errors);
      return result as TValue;
    });
  }

  /** Object-level validation: override to check fields together; return the attributes. */
  validate(attrs: TValue, _ctx?: RunContext): TValue | Promise<TValue> {
    return attrs;
  }

  /**
   * Renders a record: every readable field, `null` for a missing value. Runs the class's
   * compiled representation (see `representation-compiler.ts`); override to render otherwise
   * (a parent serializer calls this for a nested one, so the override is always honoured).
   */
  toRepresentation(instance: unknown, ctx: RunContext): TRepr {
    this.#represent ??= (this.constructor as typeof Serializer).prepare().represent;
    return this.#represent(instance, ctx, this) as TRepr;
  }

  #represent: RepresentFunction | undefined;

  /** Validates the data given at construction. Throws the `ValidationError` with `raiseException`. */
  async isValid(options: { raiseException?: boolean } = {}): Promise<boolean> {
    if (this.initialData === NO_DATA) {
      throw new ImproperlyConfigured(
        'REST_ERR_SERIALIZER_USAGE',
        `Cannot call isValid() on ${this.constructor.name}: no data was passed when creating it.`,
      );
    }
    if (this.#errors === undefined) {
      try {
        let validated = this.runValidation(
          this.initialData === undefined ? EMPTY : this.initialData,
          this.runContext,
        );
        if (isPromiseLike(validated)) validated = await validated;
        // A root serializer left out (read-only, or optional and sent nothing): what the
        // thrown SkipField this stands for did.
        if (validated === SKIPPED) throw new SkipField();
        this.#validatedData = validated as Record<string, unknown>;
        this.#errors = {};
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        this.#validatedData = {};
        this.#errors = rootErrors(error);
      }
    }
    const valid = Object.keys(this.#errors).length === 0;
    if (!valid && options.raiseException) throw new ValidationError(this.#errors);
    return valid;
  }

  /** The errors of the last `isValid()`, nested like the data. */
  get errors(): ErrorTree {
    if (this.#errors === undefined) {
      throw new ImproperlyConfigured(
        'REST_ERR_SERIALIZER_USAGE',
        'Call isValid() before reading errors.',
      );
    }
    return this.#errors;
  }

  /** The validated data of the last successful `isValid()`. */
  get validatedData(): Record<string, unknown> {
    if (this.#validatedData === undefined) {
      throw new ImproperlyConfigured(
        'REST_ERR_SERIALIZER_USAGE',
        'Call isValid() before reading validatedData.',
      );
    }
    return this.#validatedData;
  }

  /** The representation of the instance (after `save()`, the saved record). */
  get data(): TRepr {
    if (this.instance !== undefined) return this.toRepresentation(this.instance, this.runContext);
    if (
      this.#validatedData !== undefined &&
      this.#errors &&
      Object.keys(this.#errors).length === 0
    ) {
      return this.toRepresentation(this.#validatedData, this.runContext);
    }
    return (this.initialData === NO_DATA ? {} : this.initialData) as TRepr;
  }

  /** Creates or updates the instance from the validated data (plus `extra`, such as an owner). */
  async save(extra: Readonly<Record<string, unknown>> = {}): Promise<unknown> {
    if (this.#errors === undefined) {
      throw new ImproperlyConfigured(
        'REST_ERR_SERIALIZER_USAGE',
        'You must call isValid() before calling save().',
      );
    }
    if (Object.keys(this.#errors).length) {
      throw new ImproperlyConfigured(
        'REST_ERR_SERIALIZER_USAGE',
        'You cannot call save() on a serializer with invalid data.',
      );
    }
    const validated = this.withExtra(this.validatedData, extra) as TValue;
    this.instance =
      this.instance === undefined
        ? await this.create(validated)
        : await this.update(this.instance, validated);
    return this.instance;
  }

  /** The validated data with the extra values of `save()` (a list adds them to every item). */
  protected withExtra(validated: unknown, extra: Readonly<Record<string, unknown>>): unknown {
    return { ...(validated as Record<string, unknown>), ...extra };
  }

  /** Creates a record from validated data. Plain serializers must override it to save. */
  async create(_validated: TValue): Promise<unknown> {
    throw new ImproperlyConfigured(
      'REST_ERR_SERIALIZER_USAGE',
      `${this.constructor.name}.create() is not implemented: override it, or use a ModelSerializer.`,
    );
  }

  /** Updates a record from validated data. Plain serializers must override it to save. */
  async update(_instance: unknown, _validated: TValue): Promise<unknown> {
    throw new ImproperlyConfigured(
      'REST_ERR_SERIALIZER_USAGE',
      `${this.constructor.name}.update() is not implemented: override it, or use a ModelSerializer.`,
    );
  }

  override describe(): FieldDescription {
    const description = super.describe();
    description.children = this.describeFields();
    return description;
  }

  /**
   * An object of its fields' schemas, nested serializers inline: in responses every readable
   * field, each `required` (the output always has every key); in requests the writable fields,
   * `required` listing those a create or a PUT must send (none for a PATCH).
   */
  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    const request = options.mode === 'request';
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of request ? this.prepared.writable : this.prepared.readable) {
      if (isHiddenField(field)) continue;
      properties[field.fieldName] = field.jsonSchema(options);
      if (!request || (!options.partial && this.requiredIn(field, options)))
        required.push(field.fieldName);
    }
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length) schema.required = required;
    return schema;
  }

  /** True when a request body (a create, else a PUT) must hold `field`. */
  requiredIn(field: AnyField, options: JsonSchemaOptions): boolean {
    return options.create ? this.requiredInCreate(field) : field.required;
  }

  /**
   * True when a create must send `field`: its `required` here; model serializers add the
   * fields that write a column a create must supply.
   */
  requiredInCreate(field: AnyField): boolean {
    return field.required;
  }

  /**
   * Every field's description, by name (the `actions` of OPTIONS). Descriptions do not change
   * once a class is prepared: they are built once per class and frozen.
   */
  describeFields(): Readonly<Record<string, FieldDescription>> {
    return describeSerializerFields(this.prepared);
  }
}

// The defaults of what the constructor sets only when given (declared in the class).
Object.assign(Serializer.prototype, {
  instance: undefined,
  initialData: NO_DATA,
  partial: false,
});

/** Options of {@link Serializer.many} and {@link ListSerializer}. */
export interface ListOptions extends SerializerOptions {
  /** Accepts an empty list (default true). */
  readonly allowEmpty?: boolean;
}

/**
 * A list of one serializer (DRF's `many=True`): validates each item, renders each record.
 *
 * @example
 * ```ts
 * declare const rows: Row<typeof Book>[];
 * declare const request: Request;
 *
 * const list = BookSerializer.many({ instance: rows, context: { request } });
 * list.data; // one representation per row: [{...}, {...}]
 * ```
 */
export class ListSerializer<C extends Serializer<any, any> = Serializer> extends Serializer<
  C['valueType'][],
  Representation<C>[]
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    not_a_list: 'Expected a list of items but got type "{input_type}".',
    empty: 'This list may not be empty.',
  };
  // Not Serializer's 'nested object': DRF's metadata names list serializers 'list'.
  static override metadataType = 'list';
  /** Type-level only: lists of what the child accepts. */
  declare readonly wireTypes: {
    /** A list of the child's create bodies. */
    readonly create: CreateInput<C>[];
    /** A list of the child's PUT bodies. */
    readonly update: UpdateInput<C>[];
    /** A list of the child's PATCH bodies. */
    readonly partial: PartialInput<C>[];
    /** A list writes rows of its own, never its parent's. */
    readonly parentRow: false;
    /** A list is never required by a column of its parent. */
    readonly columns: false;
  };
  /** The serializer of each item. */
  readonly child: C;
  /** Whether an empty list is valid input (`allowEmpty` option, default true). */
  readonly allowEmpty: boolean;

  constructor(options: ListOptions & { child: C }) {
    super(serializerOptionsOf(options));
    const { child, allowEmpty } = options;
    this.child = child;
    this.allowEmpty = allowEmpty ?? true;
    child.bind('', this.constructor.name, null);
  }

  override clone(): this {
    const Ctor = this.constructor as new (options: ListOptions & { child: C }) => this;
    return new Ctor({ ...this.options, child: this.child.clone(), allowEmpty: this.allowEmpty });
  }

  override get prepared(): PreparedSerializer {
    return this.child.prepared;
  }

  override async toInternalValue(data: unknown, ctx: RunContext): Promise<C['valueType'][]> {
    if (!Array.isArray(data)) {
      return this.failNonField('not_a_list', { input_type: pythonTypeName(data) });
    }
    if (data.length === 0 && !this.allowEmpty) this.failNonField('empty');
    const values: unknown[] = [];
    const errors: ErrorTree[] = [];
    let failed = false;
    for (const item of data) {
      try {
        const value = await this.child.runValidation(item, ctx);
        // An item is never left out of a list: as the thrown SkipField this stands for.
        if (value === SKIPPED) throw new SkipField();
        values.push(value);
        errors.push({});
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        failed = true;
        errors.push(error.detail);
      }
    }
    if (failed) throw new ValidationError(errors);
    return values as C['valueType'][];
  }

  /**
   * Fails as DRF's list serializer does for the list as a whole: under `non_field_errors`,
   * so that a parent nests `{"items": {"non_field_errors": [...]}}`.
   */
  protected failNonField(code: string, params: Readonly<Record<string, unknown>> = {}): never {
    try {
      return this.fail(code, params);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new ValidationError({ non_field_errors: error.detail }, error.code);
    }
  }

  protected override withExtra(
    validated: unknown,
    extra: Readonly<Record<string, unknown>>,
  ): unknown {
    return (validated as Record<string, unknown>[]).map((item) => ({ ...item, ...extra }));
  }

  override toRepresentation(instances: unknown, ctx: RunContext): Representation<C>[] {
    const items = instances as readonly unknown[];
    const out = new Array(items.length);
    for (let i = 0; i < items.length; i++) out[i] = this.child.toRepresentation(items[i], ctx);
    return out;
  }

  override async create(validated: C['valueType'][]): Promise<unknown> {
    const created: unknown[] = [];
    for (const item of validated) created.push(await this.child.create(item));
    return created;
  }

  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    const schema: JsonSchema = { type: 'array', items: this.child.jsonSchema(options) };
    if (!this.allowEmpty) schema.minItems = 1;
    return schema;
  }

  override describe(): FieldDescription {
    const description = Field.prototype.describe.call(this);
    description.child = this.child.describe();
    return description;
  }
}
