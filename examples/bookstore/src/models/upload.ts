/**
 * Upload (spec 2.6): the model field has no size limit of its own; the serializer's
 * ConstrainedFileField has.
 * @module
 */
import { defineModel, models } from '@restframework/core';

export const Upload = defineModel({
  name: 'Upload',
  table: 'books_upload',
  fields: {
    username: models.CharField({ maxLength: 255 }),
    resume: models.FileField(),
  },
  ordering: ['id'],
});
