/**
 * What tricks' model serializers add to core's: nested serializers over a model's own
 * columns. Core writes a nested serializer whose source is `*` into the parent's flat data;
 * this module makes nested-proxy serializers exactly that, checks their declarations at
 * start-up, builds serializers for groups that have none, and gives `null` groups a meaning.
 * @module
 */
import {
  type AnyField,
  type AnyModel,
  ModelSerializer as CoreModelSerializer,
  ImproperlyConfigured,
  type RunContext,
  Serializer,
} from '@restframework/core';
import { NestedProxyGroup } from './nested-proxy-field.ts';

/** A model serializer class (core's or tricks'). */
type ModelSerializerClass = typeof CoreModelSerializer;

/** True for a serializer class declared with `nestedProxyField: true`. */
export function isNestedProxyClass(cls: Function): cls is ModelSerializerClass {
  if (!(cls.prototype instanceof CoreModelSerializer)) return false;
  const declaration = (cls as ModelSerializerClass).declaration;
  return 'model' in declaration && declaration.nestedProxyField === true;
}

/** The group called `name` on `model`, if it is one. */
export function groupOf(model: AnyModel, name: string): NestedProxyGroup | undefined {
  const property = Object.hasOwn(model.properties, name) ? model.properties[name] : undefined;
  return property instanceof NestedProxyGroup ? property : undefined;
}

/**
 * Replaces each declared nested-proxy serializer of `cls` with a copy whose source is `*`,
 * after checking the spec's rules: its name is a group of the model (rule 3), it serializes
 * the same model and only the group's members (rule 2), and `allowNull` only on a group whose
 * columns all accept NULL.
 */
export function proxyDeclaredFields(
  cls: ModelSerializerClass,
  fields: Record<string, AnyField>,
): Record<string, AnyField> {
  const model = cls.meta.model;
  for (const [name, field] of Object.entries(fields)) {
    if (!(field instanceof Serializer) || !isNestedProxyClass(field.constructor)) continue;
    const nested = field.constructor as ModelSerializerClass;
    const where = `${cls.name}.${name}`;
    const group = groupFor(cls, model, name);
    if (!group) {
      const groups = Object.keys(model.properties).filter((p) => groupOf(model, p));
      throw new ImproperlyConfigured(
        'REST_ERR_NESTED_PROXY',
        `${where}: ${nested.name} is marked nestedProxyField, but ${model.name} has no NestedProxyField named "${name}". ` +
          `Name the field after the model's group (${groups.join(', ') || 'the model declares none'}), or declare the group on ${model.name}.`,
      );
    }
    if (nested.meta.model !== model) {
      throw new ImproperlyConfigured(
        'REST_ERR_NESTED_PROXY',
        `${where}: ${nested.name} serializes ${nested.meta.model.name}, but a nested proxy serializer must use the main model ${model.name}.`,
      );
    }
    const listed = nested.meta.fields === '__all__' ? [...group.members] : [...nested.meta.fields];
    const strangers = listed.filter((f) => !group.members.includes(f));
    if (strangers.length) {
      throw new ImproperlyConfigured(
        'REST_ERR_NESTED_PROXY',
        `${where}: ${nested.name} lists ${strangers.map((s) => `"${s}"`).join(', ')}, which the group "${name}" of ${model.name} ` +
          `does not hold. The group holds: ${group.members.join(', ')}.`,
      );
    }
    if (field.options.source !== undefined && field.options.source !== '*') {
      throw new ImproperlyConfigured(
        'REST_ERR_NESTED_PROXY',
        `${where}: a nested proxy serializer reads the record itself; remove source: '${field.options.source}'.`,
      );
    }
    if (field.allowNull) assertNullableGroup(model, group, where);
    ownGroups.set(nested, group);
    const Ctor = field.constructor as new (options: object) => AnyField;
    fields[name] = new Ctor({ ...field.options, source: '*' });
  }
  return fields;
}

/** Inside a nested proxy serializer, its member groups may be inline groups of its own group. */
function parentInlineGroup(cls: Function, name: string): NestedProxyGroup | undefined {
  return ownGroups.get(cls)?.memberGroup(name);
}

/**
 * The group a field name of `cls` stands for: a group of the model, or an inner group of the
 * group `cls` itself serializes.
 */
export function groupFor(
  cls: Function,
  model: AnyModel,
  name: string,
): NestedProxyGroup | undefined {
  return groupOf(model, name) ?? parentInlineGroup(cls, name);
}

/** The group each auto-built (or placed) nested proxy serializer class stands for. */
const ownGroups = new WeakMap<Function, NestedProxyGroup>();
const autoClasses = new WeakMap<NestedProxyGroup, Map<Function, ModelSerializerClass>>();

/**
 * The nested serializer of a group nobody declared one for, built from the model: its fields
 * take their types and required flags from the model; the group itself is not required.
 */
export function autoProxyField(
  base: ModelSerializerClass,
  model: AnyModel,
  name: string,
  group: NestedProxyGroup,
  extra: Record<string, unknown>,
): AnyField {
  let byBase = autoClasses.get(group);
  if (!byBase) autoClasses.set(group, (byBase = new Map()));
  let Auto = byBase.get(base);
  if (!Auto) {
    Auto = base.with({
      model,
      fields: [...group.members],
      nestedProxyField: true,
    }) as unknown as ModelSerializerClass;
    Object.defineProperty(Auto, 'name', { value: `${pascal(name)}Serializer` });
    ownGroups.set(Auto, group);
    byBase.set(base, Auto);
  }
  const options = { required: false, ...extra, source: '*' };
  if ((options as { allowNull?: boolean }).allowNull)
    assertNullableGroup(model, group, `${base.name}.${name}`);
  return new (Auto as unknown as new (o: object) => AnyField)(options);
}

/** `allowNull` on a group sets all its columns to NULL, so they must all accept it. */
function assertNullableGroup(model: AnyModel, group: NestedProxyGroup, where: string): void {
  const strict = group.leaves().filter((leaf) => !model.getField(leaf)?.nullable);
  if (strict.length) {
    throw new ImproperlyConfigured(
      'REST_ERR_NESTED_PROXY',
      `${where}: allowNull on a nested proxy serializer sets every column of the group to NULL, but ` +
        `${strict.join(', ')} of ${model.name} cannot be NULL. Remove allowNull, or declare those fields with null: true.`,
    );
  }
}

/**
 * A `null` group with `allowNull`: every column of the group becomes NULL. Returns the flat
 * data to merge, or undefined when the rule does not apply.
 */
export function nullGroupValue(
  serializer: Serializer<any, any>,
  data: unknown,
  ctx: RunContext,
): Record<string, unknown> | undefined {
  void ctx;
  if (data !== null || !serializer.allowNull || serializer.sourceAttrs.length !== 0)
    return undefined;
  if (!isNestedProxyClass(serializer.constructor)) return undefined;
  const value: Record<string, unknown> = {};
  const fill = (fields: readonly AnyField[]) => {
    for (const field of fields) {
      if (field instanceof Serializer && field.sourceAttrs.length === 0)
        fill(field.prepared.writable);
      else if (field.sourceAttrs.length === 1) value[field.sourceAttrs[0] as string] = null;
    }
  };
  fill(serializer.prepared.writable);
  return value;
}

function pascal(name: string): string {
  return name
    .split('_')
    .filter(Boolean)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
}
