/**
 * The users profiles belong to, and who logs in: `@restframework/core`'s user model (password
 * hash, staff and active flags, ...), with the spec's name and e-mail fields as the spec
 * declares them.
 * @module
 */
import { computed, defineUserModel, models } from '@restframework/core';

export const User = defineUserModel({
  fields: {
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
});
