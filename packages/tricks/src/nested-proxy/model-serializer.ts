/**
 * Tricks' `ModelSerializer` and `HyperlinkedModelSerializer`: core's, plus nested proxy
 * serializers — nested objects over the model's own columns, written flat, any depth.
 *
 * @example
 * ```ts
 * import { HyperlinkedModelSerializer, ModelSerializer } from '@restframework/tricks';
 *
 * class PublishingInformationSerializer extends ModelSerializer.with({
 *   model: Book,
 *   fields: ['publication_date', 'isbn', 'pages'],
 *   nestedProxyField: true,
 *   extraKwargs: { publication_date: { required: false }, isbn: { required: false } },
 * }) {}
 *
 * class BookSerializer extends HyperlinkedModelSerializer.with({
 *   model: Book,
 *   fields: ['url', 'id', 'title', 'publishing_information', 'stock_information'],
 *   declaredFields: { publishing_information: new PublishingInformationSerializer({ required: false }) },
 * }) {}
 * // stock_information has no declared serializer: one is built from the model's group.
 * ```
 * @module
 */
import {
  type AnyField,
  type AnyModel,
  HyperlinkedModelSerializer as CoreHyperlinkedModelSerializer,
  ModelSerializer as CoreModelSerializer,
  type RunContext,
} from '@restframework/core';
import {
  autoProxyField,
  groupFor,
  nullGroupValue,
  proxyDeclaredFields,
} from './nested-proxy-support.ts';

declare module '@restframework/core' {
  interface ModelSerializerOptions {
    /**
     * This serializer is a nested proxy serializer: nested in a model serializer of
     * `@restframework/tricks` under the name of one of the model's `NestedProxyField` groups,
     * it reads and writes that group's columns of the parent's row.
     */
    readonly nestedProxyField?: boolean;
  }
}

/** The declaration options of tricks' model serializers: core's and `nestedProxyField`. */
const PROXY_OPTIONS: readonly string[] = [
  ...CoreModelSerializer.declarationOptions,
  'nestedProxyField',
];

/**
 * A model serializer that understands nested proxy serializers: a nested serializer declared
 * with `nestedProxyField: true`, named after one of the model's `NestedProxyField` groups,
 * reads and writes that group's columns of the same row. A group named in `fields` without a
 * declared serializer gets one built from the model.
 *
 * Writing: create flattens every group onto one INSERT; update writes only the columns sent
 * (PATCH merges at every depth; PUT keeps groups and fields not sent unless required).
 * `"group": null` is "This field may not be null." unless the nested serializer has
 * `allowNull`, which sets every column of the group to NULL.
 *
 * @example
 * ```ts
 * class BookSerializer extends ModelSerializer.with({
 *   model: Book,
 *   fields: ['id', 'title', 'publishing_information', 'stock_information'],
 * }) {}
 * // {"id": 1, "title": "…", "publishing_information": {"publication_date": "…", "isbn": "…", "pages": 200}, …}
 * ```
 */
export class ModelSerializer<TValue = unknown, TRepr = unknown> extends CoreModelSerializer<
  TValue,
  TRepr
> {
  static override declarationOptions: readonly string[] = PROXY_OPTIONS;
  /** Groups of the model named in `fields` become writable nested serializers (and types). */
  static readonly writesGroups = true;

  protected static override buildFields(): Record<string, AnyField> {
    return proxyDeclaredFields(this, super.buildFields());
  }

  protected static override buildField(
    name: string,
    model: AnyModel,
    extra: Record<string, unknown>,
  ): AnyField {
    const group = groupFor(this, model, name);
    if (group) return autoProxyField(ModelSerializer, model, name, group, extra);
    return super.buildField(name, model, extra);
  }

  override validateEmptyValues(data: unknown, ctx: RunContext): [boolean, unknown] {
    const nulls = nullGroupValue(this, data, ctx);
    return nulls ? [true, nulls] : super.validateEmptyValues(data, ctx);
  }
}

/**
 * {@link ModelSerializer} with core's `url` field (`HyperlinkedModelSerializer`).
 *
 * @example
 * ```ts
 * class BookSerializer extends HyperlinkedModelSerializer.with({
 *   model: Book,
 *   fields: ['url', 'title', 'stock_information'],
 * }) {}
 * ```
 */
export class HyperlinkedModelSerializer<
  TValue = unknown,
  TRepr = unknown,
> extends CoreHyperlinkedModelSerializer<TValue, TRepr> {
  static override declarationOptions: readonly string[] = PROXY_OPTIONS;
  /** Groups of the model named in `fields` become writable nested serializers (and types). */
  static readonly writesGroups = true;

  protected static override buildFields(): Record<string, AnyField> {
    return proxyDeclaredFields(this, super.buildFields());
  }

  protected static override buildField(
    name: string,
    model: AnyModel,
    extra: Record<string, unknown>,
  ): AnyField {
    const group = groupFor(this, model, name);
    if (group) return autoProxyField(ModelSerializer, model, name, group, extra);
    return super.buildField(name, model, extra);
  }

  override validateEmptyValues(data: unknown, ctx: RunContext): [boolean, unknown] {
    const nulls = nullGroupValue(this, data, ctx);
    return nulls ? [true, nulls] : super.validateEmptyValues(data, ctx);
  }
}
