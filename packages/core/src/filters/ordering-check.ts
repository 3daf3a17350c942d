/**
 * The start-up checks of the ordering filter's declarations: the form of `orderingFields`, a
 * name a client can send, a path that resolves to a column of the view's model across
 * relations, and the default `ordering`. Each failure is
 * an `ImproperlyConfigured` with the code {@link ORDERING_FIELDS_CODE} whose message names the
 * view, the name and the path, and what to change.
 *
 * @example
 * ```ts-fragment
 * checkOrderingName('ProfileViewSet.orderingFields', '-email'); // throws: cannot be sent by a client
 * checkOrderingPath(Profile, 'ProfileViewSet.ordering: the default ordering "user__mail"', 'user__mail');
 * // throws: ..., which does not resolve: User has no field "mail" (fields: id, username, ...).
 * ```
 * @module
 */
import { termPath } from '../db/order-term.ts';
import type { QuerySet } from '../db/query-set.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';

/** The code of every ordering declaration mistake (documented in `docs/errors.md`). */
export const ORDERING_FIELDS_CODE = 'REST_ERR_ORDERING_FIELDS';

/**
 * Refuses a public ordering name no client could send: empty, starting with `-` (which asks
 * for descending order), or with a `,` (which separates names) or surrounding spaces (which
 * the filter trims). `where` starts the message (`BookViewSet.orderingFields`).
 */
export function checkOrderingName(where: string, name: string): void {
  if (name === '' || name.startsWith('-') || name.includes(',') || name.trim() !== name) {
    throw new ImproperlyConfigured(
      ORDERING_FIELDS_CODE,
      `${where}: ${JSON.stringify(name)} cannot be sent by a client: an ordering name must be non-empty, ` +
        'must not start with "-" (which asks for descending order), and must not contain "," or surrounding spaces.',
    );
  }
}

/**
 * Checks one order term (`-user__email`) against `model`: a string, at most one leading `-`,
 * an annotation's name among `annotations` (those of the view's query set), or
 * each segment a field or a relation of any kind (`tags__name`, `profile__bio`, `books__title`;
 * across a many-valued one, a row comes once per related row, as in Django), `__` only after a
 * relation. A path ending on a relation orders by its key column (or the related row's key).
 * Without a model (a view whose query set is only known per request) only the form is
 * checked. `what` starts the message.
 */
export function checkOrderingPath(
  model: AnyModel | undefined,
  what: string,
  term: unknown,
  annotations: readonly string[] = [],
): void {
  if (typeof term !== 'string') {
    throw new ImproperlyConfigured(
      ORDERING_FIELDS_CODE,
      `${what} is not a string path such as 'user__email'.`,
    );
  }
  const path = termPath(term);
  if (path === '' || path.startsWith('-')) {
    throw new ImproperlyConfigured(
      ORDERING_FIELDS_CODE,
      `${what} is not a path: write a field name or a relation path ('user__email'), with at most one leading "-" for descending order.`,
    );
  }
  // An annotation of the view's query set (`favoritesCount`): ordered by its value.
  if (!model || annotations.includes(path)) return;
  const parts = path.split('__');
  let current: AnyModel = model;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const field: AnyModelField | undefined = current.getField(part);
    if (!field) {
      // A relation holding no column here: a reverse key, a one-to-one seen from its
      // target, a many-to-many (the path orders by a related row's column, a row per
      // related row for a many-valued one, as Django).
      const plan = current.relationPlan(part);
      if (plan) {
        current =
          plan.kind !== 'many_to_many'
            ? plan.field.model
            : plan.reverse
              ? plan.relation.model
              : plan.relation.relatedModel;
        if (i === parts.length - 1) return;
        continue;
      }
      const reason = Object.hasOwn(current.properties, part)
        ? `${current.name}.${part} is a computed property, not a column; order by the columns it is computed from, or annotate the query set with its value and order by the annotation's name`
        : `${current.name} has no field ${JSON.stringify(part)} (fields: ${Object.keys(current.fields).join(', ')})`;
      throw new ImproperlyConfigured(
        ORDERING_FIELDS_CODE,
        `${what}, which does not resolve: ${reason}.`,
      );
    }
    if (i === parts.length - 1) return;
    if (!field.isRelation) {
      throw new ImproperlyConfigured(
        ORDERING_FIELDS_CODE,
        `${what}, which does not resolve: ${current.name}.${part} is not a relation, so "__" cannot follow it.`,
      );
    }
    current = field.relatedModel;
  }
}

/**
 * Refuses an `orderingFields` that is not none, `'__all__'` on its own, or a list of strings;
 * `forms` names the accepted forms in the message of any other value.
 */
export function checkOrderingList(fields: unknown, where: string, forms: string): void {
  if (fields === undefined || fields === null || fields === '__all__') return;
  if (typeof fields === 'string') {
    throw new ImproperlyConfigured(
      ORDERING_FIELDS_CODE,
      `${where} is the string ${JSON.stringify(fields)}: write '__all__' for every field of the model, or a list of names ([${JSON.stringify(fields)}]).`,
    );
  }
  if (!Array.isArray(fields)) {
    throw new ImproperlyConfigured(ORDERING_FIELDS_CODE, `${where} must be ${forms}.`);
  }
  for (const name of fields as readonly unknown[]) {
    if (name === '__all__') {
      throw new ImproperlyConfigured(
        ORDERING_FIELDS_CODE,
        `${where}: '__all__' stands alone: write orderingFields = '__all__' for every field of the model, not inside a list.`,
      );
    }
    if (typeof name !== 'string') {
      throw new ImproperlyConfigured(
        ORDERING_FIELDS_CODE,
        `${where}: ${JSON.stringify(name)} is not a name; list field names or paths as strings (['title', 'author__name']).`,
      );
    }
  }
}

/**
 * Checks a view's default `ordering`: one term or a list of terms, each resolving on `model`
 * (see {@link checkOrderingPath}); `'__all__'` is no ordering. `where` is `BookViewSet.ordering`.
 */
export function checkDefaultOrdering(
  ordering: unknown,
  where: string,
  model: AnyModel | undefined,
  annotations: readonly string[] = [],
): void {
  if (ordering === undefined || ordering === null) return;
  if (typeof ordering !== 'string' && !Array.isArray(ordering)) {
    throw new ImproperlyConfigured(
      ORDERING_FIELDS_CODE,
      `${where} must be a path or a list of paths (['-publication_date', 'id']); got ${JSON.stringify(ordering)}.`,
    );
  }
  for (const term of typeof ordering === 'string' ? [ordering] : (ordering as unknown[])) {
    if (term === '__all__') {
      throw new ImproperlyConfigured(
        ORDERING_FIELDS_CODE,
        `${where}: '__all__' belongs to orderingFields (the names clients may use); ordering lists the paths to sort by when the client sends none (['id']).`,
      );
    }
    checkOrderingPath(
      model,
      `${where}: the default ordering ${JSON.stringify(term)}`,
      term,
      annotations,
    );
  }
}

/**
 * The names of the annotations of a query set (`annotate({ favoritesCount: Count(...) })`),
 * which an ordering may name as it names fields.
 *
 * @example
 * ```ts-fragment
 * annotationNames(Article.objects.annotate({ favoritesCount: Count('favoritedBy') })); // ['favoritesCount']
 * ```
 */
export function annotationNames(queryset: QuerySet<any> | undefined): string[] {
  // Only a query set has a query state: a view may name its rows by anything with a `model`.
  const annotations = (queryset?.queryState as QuerySet<any>['queryState'] | undefined)
    ?.annotations;
  return annotations ? annotations.map(([name]) => name) : [];
}
