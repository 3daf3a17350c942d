/**
 * A value computed by a method of the serializer: DRF's `SerializerMethodField`.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { pascalCase } from '../utils/text.ts';
import {
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';

/** Type-level only: where a method field's representation is looked up. */
declare const methodResultKey: unique symbol;

/**
 * Type-level only: the representation of a {@link SerializerMethodField} before the
 * serializer's methods are known; `Representation<S>` replaces it with the return type of the
 * method `N` of `S` (`get<FieldName>` when `N` is undefined).
 */
export interface MethodResult<N extends string | undefined> {
  /** Type-level only: the name of the method whose return type stands here. */
  readonly [methodResultKey]: N;
}

/** Options of {@link SerializerMethodField}. */
export interface SerializerMethodFieldOptions
  extends Omit<
    FieldOptions<never>,
    'readOnly' | 'writeOnly' | 'required' | 'default' | 'allowNull' | 'source' | 'validators'
  > {
  /** The serializer's method that computes the value (default `get<FieldName>`, or `get_<field_name>`). */
  readonly methodName?: string;
}

/** A serializer method, as a method field calls it. */
type Method = (row: unknown, ctx: RunContext) => unknown;

/**
 * A read-only field whose value is what a method of its serializer returns for the row:
 * `getFavorited(row, ctx)` for a field named `favorited` (DRF's `get_favorited` works too), or
 * the method `methodName` names. The method gets the row and the run's context
 * (`ctx.context.request`, also inside a nested serializer), and `this` is the serializer that
 * renders. Its return type is the field's type in `Representation`. A method the class does not
 * have fails at start-up (`REST_ERR_FIELD_OPTIONS`).
 *
 * @example
 * ```ts
 * class BookSerializer extends ModelSerializer.with({
 *   model: Book,
 *   fields: ['id', 'title', 'long'],
 *   declaredFields: { long: new SerializerMethodField() },
 * }) {
 *   getLong(row: Row<typeof Book>, ctx: RunContext): boolean {
 *     return row.pages > Number(ctx.context.longFrom ?? 500);
 *   }
 * }
 * type Out = Representation<BookSerializer>; // { id: number; title: string; long: boolean }
 * ```
 */
export class SerializerMethodField<
  const O extends SerializerMethodFieldOptions = SerializerMethodFieldOptions,
> extends Field<
  never,
  MethodResult<O['methodName']>,
  O & {
    /** Always: the field is only in representations; a client's value for it is ignored. */
    readonly readOnly: true;
  }
> {
  /** Type-level only: read-only whatever the options say (for the inferred serializer types). */
  declare readonly alwaysReadOnly: true;
  /** Marks the fields the compiled representation calls with the rendering serializer. */
  declare readonly readsSerializer: true;
  /** The method called, once bound (see {@link bindMethod}). */
  declare methodName: string;
  /** The options as given (Field's hold the implied `source` and `readOnly` too). */
  readonly #given: O;

  constructor(options: O = {} as O) {
    for (const option of ['source', 'readOnly', 'writeOnly', 'required', 'default', 'allowNull']) {
      if (Object.hasOwn(options, option)) {
        throw new ImproperlyConfigured(
          'REST_ERR_FIELD_OPTIONS',
          `SerializerMethodField: the option '${option}' does not apply: the field is read-only and ` +
            "its value is its method's result (name it with 'methodName').",
        );
      }
    }
    super({ ...options, source: '*', readOnly: true } as never);
    this.#given = options;
  }

  override clone(): this {
    const Ctor = this.constructor as new (options: O) => this;
    return new Ctor(this.#given);
  }

  /**
   * Finds this field's method on `proto` (its serializer class's prototype): the one
   * `methodName` names, else `get<FieldName>`, else DRF's `get_<field_name>`; fails at start-up
   * naming what to add when there is none.
   */
  bindMethod(proto: object, className: string): void {
    const named = this.#given.methodName;
    const candidates =
      named === undefined ? [`get${pascalCase(this.fieldName)}`, `get_${this.fieldName}`] : [named];
    const found = candidates.find(
      (name) => typeof (proto as Record<string, unknown>)[name] === 'function',
    );
    if (found === undefined) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        `${className}.${this.fieldName}: SerializerMethodField calls ${className}.${candidates[0]}(row, ctx), ` +
          `which ${className} does not have. Add the method${named === undefined ? ', or name another with methodName' : ''}.`,
      );
    }
    this.methodName = found;
  }

  /** The method's result for `row`, computed by `serializer` (the one that renders). */
  callMethod(serializer: object, row: unknown, ctx: RunContext): unknown {
    return ((serializer as Record<string, unknown>)[this.methodName] as Method).call(
      serializer,
      row,
      ctx,
    );
  }

  toInternalValue(): never {
    // Read-only: a serializer never validates it (its value is left out of the input).
    return undefined as never;
  }

  /** The method's result, as it is. */
  toRepresentation(value: unknown): MethodResult<O['methodName']> {
    return value as MethodResult<O['methodName']>;
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    return {};
  }
}

/** True for fields whose value their serializer computes ({@link SerializerMethodField}). */
export function readsSerializer(field: Field<any, any, any>): field is SerializerMethodField {
  return (field as { readsSerializer?: unknown }).readsSerializer === true;
}

Object.defineProperty(SerializerMethodField.prototype, 'readsSerializer', { value: true });
