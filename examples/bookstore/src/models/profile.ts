/**
 * Profile (spec 2.5): one per user.
 * @module
 */
import { defineModel, models } from '@restframework/core';
import { User } from './user.ts';

export const Profile = defineModel({
  name: 'Profile',
  table: 'books_profile',
  fields: {
    user: models.OneToOneField(User, { onDelete: 'CASCADE' }),
    biography: models.TextField(),
    hobbies: models.TextField(),
  },
  ordering: ['id'],
});
