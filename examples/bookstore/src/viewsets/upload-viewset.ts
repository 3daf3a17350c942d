/**
 * The Upload view set: multipart first among the parsers.
 * @module
 */
import {
  AllowAny,
  FormParser,
  JSONParser,
  ModelViewSet,
  MultiPartParser,
} from '@restframework/core';
import { Upload } from '../models/index.ts';
import { UploadSerializer } from '../serializers/upload-serializer.ts';

export class UploadViewSet extends ModelViewSet {
  static override description = 'Upload ViewSet.';
  override queryset = Upload.objects.all();
  override serializerClass = UploadSerializer;
  override permissionClasses = [AllowAny];
  override parserClasses = [MultiPartParser, FormParser, JSONParser];
}
