/**
 * `@restframework/tricks`: the add-ons of django-rest-framework-tricks for `@restframework/core`:
 * nested proxy fields (writable nested objects over flat columns), an ordering filter with
 * friendly names, and a file field with a size limit. Uses only core's public API.
 * @module @restframework/tricks
 */
export {
  ConstrainedFileField,
  type ConstrainedFileFieldOptions,
} from './files/constrained-file-field.ts';
export { naturalSize } from './files/natural-size.ts';
export { DjangoFilterBackend } from './filtering/django-filter-backend.ts';
export { HyperlinkedModelSerializer, ModelSerializer } from './nested-proxy/model-serializer.ts';
export {
  NestedProxyField,
  NestedProxyGroup,
  type NestedProxyMember,
} from './nested-proxy/nested-proxy-field.ts';
export {
  type MappedOrderingView,
  type OrderingChoice,
  type OrderingDescription,
  type OrderingFieldsFor,
  type OrderingFieldsMapping,
  OrderingFilter,
  type OrderingPaths,
} from './ordering/ordering-filter.ts';
