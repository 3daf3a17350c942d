/**
 * Author (spec 2.4): groups of groups, two levels deep.
 * @module
 */
import { defineModel, models } from '@restframework/core';
import { NestedProxyField } from '@restframework/tricks';

export const Author = defineModel({
  name: 'Author',
  table: 'books_author',
  fields: {
    salutation: models.CharField({ maxLength: 10 }),
    name: models.CharField({ maxLength: 200 }),
    // Stored as '' when no contact information is sent at all (as Django does); the personal
    // contact group requires it whenever the group is sent.
    email: models.EmailField({ default: '' }),
    birth_date: models.DateField({ null: true, blank: true }),
    biography: models.TextField({ null: true, blank: true }),
    phone_number: models.CharField({ maxLength: 200, null: true, blank: true }),
    website: models.URLField({ null: true, blank: true }),
    company: models.CharField({ maxLength: 200, null: true, blank: true }),
    company_phone_number: models.CharField({ maxLength: 200, null: true, blank: true }),
    company_email: models.EmailField({ null: true, blank: true }),
    company_website: models.URLField({ null: true, blank: true }),
  },
  properties: {
    personal_contact_information: NestedProxyField('email', 'phone_number', 'website'),
    business_contact_information: NestedProxyField(
      'company',
      'company_email',
      'company_phone_number',
      'company_website',
    ),
    contact_information: NestedProxyField(
      'personal_contact_information',
      'business_contact_information',
    ),
  },
  ordering: ['id'],
});
