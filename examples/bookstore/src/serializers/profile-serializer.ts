/**
 * Profile serializer (spec 2.5).
 * @module
 */
import { CharField, ModelSerializer } from '@restframework/core';
import { Profile } from '../models/index.ts';

/**
 * `username`, `full_name` and `email` come from the user, read-only. `user` (write-only, a
 * user's id) is an addition to the spec's table: without it no request could create a
 * profile, and the original answered such a POST with a 500.
 */
export class ProfileSerializer extends ModelSerializer.with({
  model: Profile,
  fields: ['id', 'username', 'full_name', 'email', 'biography', 'hobbies', 'user'],
  declaredFields: {
    username: new CharField({ source: 'user.username', readOnly: true }),
    full_name: new CharField({ source: 'user.full_name', readOnly: true }),
    email: new CharField({ source: 'user.email', readOnly: true }),
  },
  extraKwargs: { user: { writeOnly: true } },
}) {}
