/**
 * The user model, in the spirit of `django.contrib.auth`'s `AbstractUser`: a unique username,
 * e-mail, a password hash, names, `is_active`, `is_staff`, `is_superuser`, `date_joined`,
 * `last_login`. {@link defineUserModel} adds fields of your own (or replaces one: an e-mail
 * that is unique, to log in with it).
 *
 * @example
 * ```ts
 * export const Customer = defineUserModel({
 *   name: 'Customer',
 *   table: 'shop_customer',
 *   fields: { email: models.EmailField({ maxLength: 254, unique: true }), phone: models.CharField({ maxLength: 30, default: '' }) },
 * });
 * export const auth = createAuth({ userModel: Customer, usernameField: 'email' });
 * ```
 * @module
 */
import { defineModel, type Model } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';
import { models } from '../models/model-fields.ts';
import type { ModelProperty } from '../models/model-property.ts';
import { unusablePassword } from './password-hashers.ts';

/** The fields every user model has. */
export function userFields() {
  return {
    /**
     * The password's hash (`scrypt$…`). A row made without a password (a seed, an import) gets
     * one that no password matches (`!…`).
     */
    password: models.CharField({ maxLength: 128, default: () => unusablePassword() }),
    /** When the user last logged in; null before the first time. */
    last_login: models.DateTimeField({ null: true }),
    /** Has every permission without being given any. */
    is_superuser: models.BooleanField({ default: false }),
    /** The name the user logs in with, unique. */
    username: models.CharField({ maxLength: 150, unique: true }),
    /** The given name; empty by default. */
    first_name: models.CharField({ maxLength: 150, default: '' }),
    /** The family name; empty by default. */
    last_name: models.CharField({ maxLength: 150, default: '' }),
    /** The e-mail address; empty by default. */
    email: models.EmailField({ maxLength: 254, default: '' }),
    /** May use the admin views (`IsAdminUser`). */
    is_staff: models.BooleanField({ default: false }),
    /** False: the user cannot log in and has no permission (deactivated rather than deleted). */
    is_active: models.BooleanField({ default: true }),
    /** When the user was created. */
    date_joined: models.DateTimeField({ autoNowAdd: true }),
  };
}

/** What {@link defineUserModel} accepts. */
export interface UserModelDefinition<
  E extends Record<string, AnyModelField>,
  P extends Record<string, ModelProperty<any>> = {},
> {
  /** Default `User`. */
  readonly name?: string;
  /** Default `auth_user`, Django's table. */
  readonly table?: string;
  /** Fields added to (or replacing) the standard ones. */
  readonly fields?: E;
  /** Computed properties (`full_name`). */
  readonly properties?: P;
}

/** A user model: the standard fields plus `fields`. */
export function defineUserModel<
  E extends Record<string, AnyModelField> = {},
  P extends Record<string, ModelProperty<any>> = {},
>(
  definition: UserModelDefinition<E, P> = {},
): Model<Omit<ReturnType<typeof userFields>, keyof E> & E, P> {
  return defineModel({
    name: definition.name ?? 'User',
    table: definition.table ?? 'auth_user',
    fields: { ...userFields(), ...(definition.fields ?? ({} as E)) } as Omit<
      ReturnType<typeof userFields>,
      keyof E
    > &
      E,
    // The members of a group property are checked when the model is made (at run time); the
    // compile-time check of defineModel cannot see through the generic P here.
    properties: (definition.properties ?? {}) as never,
    ordering: ['id'],
  });
}
