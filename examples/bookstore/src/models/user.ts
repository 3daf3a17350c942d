/**
 * The users profiles belong to.
 * @module
 */
import { computed, defineModel, models } from '@restframework/core';

export const User = defineModel({
  name: 'User',
  table: 'auth_user',
  fields: {
    username: models.CharField({ maxLength: 150, unique: true }),
    first_name: models.CharField({ maxLength: 150, blank: true }),
    last_name: models.CharField({ maxLength: 150, blank: true }),
    email: models.EmailField({ blank: true, dbIndex: true }),
  },
  properties: {
    /** "First Last", trimmed (Django's `get_full_name`). */
    full_name: computed((user: { first_name: string; last_name: string }) =>
      `${user.first_name} ${user.last_name}`.trim(),
    ),
  },
  ordering: ['id'],
});
