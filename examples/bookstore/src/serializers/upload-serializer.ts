/**
 * Upload serializer (spec 2.6): `resume` limited to 5 MiB.
 * @module
 */
import { ModelSerializer } from '@restframework/core';
import { ConstrainedFileField } from '@restframework/tricks';
import { Upload } from '../models/index.ts';

/** The largest resume accepted (spec 4.3's example value). */
export const MAX_RESUME_SIZE = 5 * 1024 * 1024;

export class UploadSerializer extends ModelSerializer.with({
  model: Upload,
  fields: ['id', 'username', 'resume'],
  declaredFields: { resume: new ConstrainedFileField({ maxUploadSize: MAX_RESUME_SIZE }) },
}) {}
