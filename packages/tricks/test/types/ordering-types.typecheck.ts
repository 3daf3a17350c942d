/**
 * Type tests of ordering declarations: the first segment of every path must name a field of
 * the view's model. Type-checked by `npm run typecheck`, never run.
 */
import type { ModelPath, OrderingTerm } from '@restframework/core';
import type { OrderingFieldsFor } from '@restframework/tricks';
import type { Profile } from '../fixtures/ordering-models.ts';

export const mapping: OrderingFieldsFor<typeof Profile> = {
  id: 'id',
  key: 'pk',
  username: 'user__username',
  owner: 'user_id',
  full_name: ['user__first_name', '-user__last_name'],
};

export const typoField: OrderingFieldsFor<typeof Profile> = {
  // @ts-expect-error: Profile has no field 'usr'.
  username: 'usr__username',
};
export const typoInList: OrderingFieldsFor<typeof Profile> = {
  // @ts-expect-error: Profile has no field 'nam' (inside a list too).
  full_name: ['user__first_name', 'nam'],
};
// @ts-expect-error: '--id' is no ordering term.
export const doubleDash: OrderingTerm<typeof Profile> = '--id';
// @ts-expect-error: only relations are followed by '__' ('biography' is a column).
export const notRelation: ModelPath<typeof Profile> = 'biography__x';
export const core: readonly ModelPath<typeof Profile>[] = ['id', 'biography', 'user__email'];
