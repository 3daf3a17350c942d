/**
 * Author serializers (spec 2.4): `contact_information` holds two groups.
 * @module
 */
import { ModelSerializer } from '@restframework/tricks';
import { Author } from '../models/index.ts';

/** `email` is required whenever this group is sent. */
export class PersonalContactInformationSerializer extends ModelSerializer.with({
  model: Author,
  fields: ['email', 'phone_number', 'website'],
  nestedProxyField: true,
  extraKwargs: { email: { required: true } },
}) {}

export class BusinessContactInformationSerializer extends ModelSerializer.with({
  model: Author,
  fields: ['company', 'company_email', 'company_phone_number', 'company_website'],
  nestedProxyField: true,
}) {}

export class ContactInformationSerializer extends ModelSerializer.with({
  model: Author,
  fields: ['personal_contact_information', 'business_contact_information'],
  nestedProxyField: true,
  declaredFields: {
    personal_contact_information: new PersonalContactInformationSerializer({ required: false }),
    business_contact_information: new BusinessContactInformationSerializer({ required: false }),
  },
}) {}

export class AuthorSerializer extends ModelSerializer.with({
  model: Author,
  fields: ['id', 'salutation', 'name', 'birth_date', 'biography', 'contact_information'],
  declaredFields: { contact_information: new ContactInformationSerializer({ required: false }) },
}) {}
