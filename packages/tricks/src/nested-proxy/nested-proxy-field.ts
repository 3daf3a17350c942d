/**
 * `NestedProxyField`: a named group of a model's own fields, declared on the model, that
 * serializers expose as one nested object. It adds no column and needs no migration.
 *
 * @example
 * ```ts
 * import { defineModel, models } from '@restframework/core';
 * import { NestedProxyField } from '@restframework/tricks';
 *
 * const Book = defineModel({
 *   name: 'Book',
 *   fields: {
 *     title: models.CharField({ maxLength: 100 }),
 *     publication_date: models.DateField(),
 *     isbn: models.CharField({ maxLength: 100, unique: true }),
 *     pages: models.PositiveIntegerField({ default: 200 }),
 *   },
 *   properties: {
 *     publishing_information: NestedProxyField('publication_date', 'isbn', 'pages'),
 *   },
 * });
 *
 * // Groups of groups, to any depth; the dictionary form declares the inner groups in place:
 * const contact_information = NestedProxyField({
 *   personal_contact_information: ['email', 'phone_number', 'website'],
 *   business_contact_information: ['company', 'company_email', 'company_phone_number', 'company_website'],
 * });
 * ```
 * @module
 */
import {
  type AnyModel,
  type GroupMember,
  type GroupProperty,
  ImproperlyConfigured,
} from '@restframework/core';

/** A member of a group: a field or group name, or inner groups declared in place. */
export type NestedProxyMember = GroupMember;

/**
 * A group of fields. Reading it from a row gives an object of its members, groups nested.
 * `members` lists, in order, field names and group names. `N`, the members as declared,
 * types the group's value and its serializers (see core's `GroupProperty`).
 *
 * @example
 * ```ts
 * const publishing = NestedProxyField('publication_date', 'isbn', 'pages');
 * publishing.members; // ['publication_date', 'isbn', 'pages']
 * ```
 */
export class NestedProxyGroup<N extends NestedProxyMember = NestedProxyMember>
  implements GroupProperty<N>
{
  /** Type-level only: the members as declared. */
  declare readonly memberTypes: N;
  /** Field and group names, in declaration order. */
  readonly members: readonly string[];
  /** Groups declared in place (the dictionary form), by name. */
  readonly inlineGroups: ReadonlyMap<string, NestedProxyGroup>;
  /** The model, once bound. */
  model: AnyModel | undefined;
  /** The group's name in the model's properties, once bound (`stock_information`); `''` before. */
  name = '';

  constructor(members: readonly N[]) {
    const names: string[] = [];
    const inline = new Map<string, NestedProxyGroup>();
    for (const member of members) {
      if (typeof member === 'string') {
        names.push(member);
        continue;
      }
      if (!member || typeof member !== 'object' || Array.isArray(member)) {
        throw new ImproperlyConfigured(
          'REST_ERR_NESTED_PROXY',
          `NestedProxyField: each member must be a field name or { group: [names] }, got ${JSON.stringify(member)}.`,
        );
      }
      for (const [groupName, groupMembers] of Object.entries(member)) {
        if (!Array.isArray(groupMembers)) {
          throw new ImproperlyConfigured(
            'REST_ERR_NESTED_PROXY',
            `NestedProxyField: the inner group "${groupName}" must list its members in an array.`,
          );
        }
        names.push(groupName);
        inline.set(groupName, new NestedProxyGroup(groupMembers));
      }
    }
    if (names.length === 0) {
      throw new ImproperlyConfigured(
        'REST_ERR_NESTED_PROXY',
        'NestedProxyField needs at least one field name.',
      );
    }
    this.members = Object.freeze(names);
    this.inlineGroups = inline;
  }

  /** The group called `name` among this group's members (declared in place or on the model). */
  memberGroup(name: string): NestedProxyGroup | undefined {
    const inline = this.inlineGroups.get(name);
    if (inline) return inline;
    const property = this.model?.properties[name];
    return property instanceof NestedProxyGroup ? property : undefined;
  }

  /** The model fields the group holds, at any depth, in order. */
  leaves(): string[] {
    return this.members.flatMap((member) => this.memberGroup(member)?.leaves() ?? [member]);
  }

  get(row: Record<string, unknown>): Record<string, unknown> {
    const model = this.model as AnyModel;
    const value: Record<string, unknown> = {};
    for (const member of this.members) {
      const group = this.memberGroup(member);
      value[member] = group ? group.get(row) : row[model.getField(member)?.attname ?? member];
    }
    return value;
  }

  /** Checks the declaration against the model (called by `defineModel`). */
  bind(model: AnyModel, name: string): void {
    this.#bindTree(model, name, [name]);
    if (model.properties[name] === this) checkSiblings(model);
  }

  #bindTree(model: AnyModel, name: string, path: readonly string[]): void {
    this.model = model;
    this.name = name;
    const where = `${model.name}.${path.join('.')}`;
    const seen = new Set<string>();
    for (const member of this.members) {
      if (seen.has(member)) {
        throw new ImproperlyConfigured(
          'REST_ERR_NESTED_PROXY',
          `${where}: NestedProxyField lists "${member}" twice. List each field once.`,
        );
      }
      seen.add(member);
      const inline = this.inlineGroups.get(member);
      if (inline) {
        if (model.has(member)) {
          throw new ImproperlyConfigured(
            'REST_ERR_NESTED_PROXY',
            `${where}: the inner group "${member}" has the name of a field or property of ${model.name}. Rename the group.`,
          );
        }
        inline.#bindTree(model, member, [...path, member]);
        continue;
      }
      const field = model.getField(member);
      if (field && field.name === member) {
        if (field.isPrimaryKey) {
          throw new ImproperlyConfigured(
            'REST_ERR_NESTED_PROXY',
            `${where}: "${member}" is the primary key, which a nested object cannot write. Leave it out of the group.`,
          );
        }
        continue;
      }
      const property = model.properties[member];
      if (property instanceof NestedProxyGroup) {
        if (path.includes(member)) {
          throw new ImproperlyConfigured(
            'REST_ERR_NESTED_PROXY',
            `${model.name}: the groups form a cycle (${[...path, member].join(' → ')}). A group may not contain itself.`,
          );
        }
        // Bind the member group in this model now (it may be declared after this one) to
        // walk its own members for cycles.
        property.#bindTree(model, member, [...path, member]);
        continue;
      }
      throw new ImproperlyConfigured(
        'REST_ERR_NESTED_PROXY',
        `${where}: NestedProxyField lists "${member}", which is not a field or group of ${model.name}. ` +
          `Fields: ${Object.keys(model.fields).join(', ')}.`,
      );
    }
  }
}

/** A field listed directly in two groups would be written twice by one request. */
function checkSiblings(model: AnyModel): void {
  const owner = new Map<string, string>();
  const visit = (group: NestedProxyGroup, path: string) => {
    for (const member of group.members) {
      const inner = group.memberGroup(member);
      if (inner) {
        // A model-level group listed inside another is checked where it is declared.
        if (group.inlineGroups.has(member)) visit(inner, `${path}.${member}`);
        continue;
      }
      const previous = owner.get(member);
      if (previous && previous !== path) {
        throw new ImproperlyConfigured(
          'REST_ERR_NESTED_PROXY',
          `${model.name}: the field "${member}" is in two groups (${previous} and ${path}). ` +
            'A field may belong to one group only; remove it from one of them.',
        );
      }
      owner.set(member, path);
    }
  };
  for (const [name, property] of Object.entries(model.properties)) {
    if (property instanceof NestedProxyGroup && property.model === model) visit(property, name);
  }
}

/**
 * Declares a group of the model's own fields (spec: `NestedProxyField('a', 'b')`).
 * Members are field names, names of other groups, or `{ inner: [names] }` for groups declared
 * in place. Mistakes (an unknown field, a cycle, a field in two groups) fail when the model
 * is defined, naming the model, the group and the fix.
 */
export function NestedProxyField<const M extends readonly NestedProxyMember[]>(
  ...members: M
): NestedProxyGroup<M[number]> {
  return new NestedProxyGroup(members);
}
