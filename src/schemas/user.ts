/**
 * The user (seller) profile: spec §2.1 to §2.3 for the response, §4.1 for `POST /users/update`.
 *
 * @module
 */

import * as z from 'zod/mini';
import {
  ALWAYS,
  described,
  FORMATS,
  fieldIssue,
  flag,
  integer,
  maybe,
  OBJECT,
  oneOf,
  openEnum,
  text,
  uploadable,
} from './common';

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/**
 * An address as the service returns it (spec §2.2). The spec's "required" column applies to
 * requests; in a response every field may be absent or `null`.
 */
export const AddressSchema = z.looseObject({
  /** Zip code, Brazilian format `00000-000`, max 10. */
  zip_code: maybe(z.string(), 'Zip code, Brazilian format 00000-000, max 10.'),
  /** City, max 191. */
  city: maybe(z.string(), 'City, max 191.'),
  /** Two-letter state abbreviation. */
  state: maybe(z.string(), 'Two-letter state abbreviation.'),
  /** Country, max 191. */
  country: maybe(z.string(), 'Country, max 191.'),
  /** Street, max 191. */
  street: maybe(z.string(), 'Street, max 191.'),
  /** Street number, max 191; may be text (for example a no-number marker). */
  street_number: maybe(z.string(), 'Street number, max 191; may be text (a no-number marker).'),
  /** Neighborhood, max 191. */
  neighborhood: maybe(z.string(), 'Neighborhood, max 191.'),
  /** Complement, max 191. */
  complement: maybe(z.string(), 'Complement, max 191.'),
  /** Main address flag; default false. */
  is_default: maybe(z.boolean(), 'Main address flag; default false.'),
});
/** An address as the service returns it (spec §2.2). */
export type Address = z.infer<typeof AddressSchema>;

/** A phone as the service returns it (spec §2.3). */
export const PhoneSchema = z.looseObject({
  /** Phone id, integer 1 to 999999999. */
  id: maybe(z.number(), 'Phone id, integer 1 to 999999999.'),
  /** Country code, max 5; default `55`. */
  ddi: maybe(z.string(), 'Country code, max 5; default 55.'),
  /** Area code, max 2. */
  ddd: maybe(z.string(), 'Area code, max 2.'),
  /** Kind of phone, max 191; kinds seen: `whatsapp`, `mobile`, `landline`, `work`. */
  type: maybe(
    openEnum(['whatsapp', 'mobile', 'landline', 'work']),
    'Kind of phone, max 191; kinds seen: whatsapp, mobile, landline, work.',
  ),
  /** Digits only, without area code. */
  number: maybe(z.string(), 'Digits only, without area code.'),
});
/** A phone as the service returns it (spec §2.3). */
export type Phone = z.infer<typeof PhoneSchema>;

/** A user (seller) as returned by the profile update (spec §2.1). */
export const UserSchema = z.looseObject({
  /** User name; always present. */
  name: described(z.string(), 'User name; always present.'),
  /** Unique user code; always present. */
  code: described(z.string(), 'Unique user code; always present.'),
  /** User status; always present. Allowed values: not shown by the spec. */
  status: described(z.string(), 'User status; always present. Allowed values: not shown.'),
  /** Whether the user is approved. */
  is_approved: maybe(z.boolean(), 'Whether the user is approved.'),
  /** Whether registration is complete. */
  is_registration_completed: maybe(z.boolean(), 'Whether registration is complete.'),
  /** `person` or `company`; always present. */
  type: described(openEnum(['person', 'company']), '`person` or `company`; always present.'),
  /** E-mail address; always present. */
  email: described(z.string(), 'E-mail address; always present.'),
  /** User-scoped token for protected endpoints (send it through `client.forUser`). */
  public_token: maybe(z.string(), 'User-scoped token for protected endpoints.'),
  /** URL of the user photo. */
  avatar: maybe(z.string(), 'URL of the user photo.'),
  /** Address (spec §2.2). */
  address: maybe(AddressSchema, 'Address (spec §2.2).'),
  /** Phones (spec §2.3). */
  phones: maybe(z.array(PhoneSchema), 'Phones (spec §2.3).'),
  /** Free text about the user. */
  about: maybe(z.string(), 'Free text about the user.'),
  /** Website URL. */
  website: maybe(z.string(), 'Website URL.'),
  /** Recovery e-mail address. */
  recovery_email: maybe(z.string(), 'Recovery e-mail address.'),
  /** Nickname, max 191. */
  nickname: maybe(z.string(), 'Nickname, max 191.'),
  /** Birth date; person only. */
  birth: maybe(z.string(), 'Birth date; person only.'),
  /** Whether the person (under 18) is emancipated. */
  is_emancipated: maybe(z.boolean(), 'Whether the person (under 18) is emancipated.'),
  /** Person national tax id, format `###.###.###-##`. */
  cpf: maybe(z.string(), 'Person national tax id, format ###.###.###-##.'),
  /** Company national tax id, format `##.###.###/####-##`. */
  cnpj: maybe(z.string(), 'Company national tax id, format ##.###.###/####-##.'),
  /** Company tax regime: `mei`, `simple`, `presumed`, `real`. */
  company_type: maybe(
    openEnum(['mei', 'simple', 'presumed', 'real']),
    'Company tax regime: mei, simple, presumed, real.',
  ),
});
/** A user (seller) as returned by the profile update (spec §2.1). */
export type User = z.infer<typeof UserSchema>;

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

const TEXT_191 = { max: 191 } as const;

/** An address in a profile update (spec §2.2): the required fields and their limits. */
export const AddressParamsSchema = z.looseObject(
  {
    /** Zip code, Brazilian format `00000-000` (max 10). Required. */
    zip_code: text('Zip code, Brazilian format 00000-000, max 10. Required.', {
      max: 10,
      pattern: FORMATS.zipCode,
      format: '00000-000',
    }),
    /** City, max 191 characters. Required. */
    city: text('City, max 191. Required.', TEXT_191),
    /** Two-letter state abbreviation. Required. */
    state: text('Two-letter state abbreviation. Required.', {
      pattern: FORMATS.state,
      format: 'two letters (state abbreviation)',
    }),
    /** Country, max 191 characters. Required. */
    country: text('Country, max 191. Required.', TEXT_191),
    /** Street, max 191 characters. Required. */
    street: text('Street, max 191. Required.', TEXT_191),
    /** Street number, max 191 characters; may be text (for example a no-number marker). Required. */
    street_number: text('Street number, max 191; may be text. Required.', TEXT_191),
    /** Neighborhood, max 191 characters. Required. */
    neighborhood: text('Neighborhood, max 191. Required.', TEXT_191),
    /** Complement, max 191 characters. */
    complement: z.optional(text('Complement, max 191.', TEXT_191)),
    /** Main address flag; the service defaults to false. */
    is_default: z.optional(flag('Main address flag; default false.')),
  },
  OBJECT,
);
/** An address in a profile update (spec §2.2). */
export type AddressParams = z.infer<typeof AddressParamsSchema>;

/** A phone in a profile update (spec §2.3, §4.1): `type` required, `number` 8 or 9 digits. */
export const PhoneParamsSchema = z.looseObject(
  {
    /** Phone id, integer 1 to 999999999 (to update an existing phone). */
    id: z.optional(integer('Phone id, integer 1 to 999999999.', { min: 1, max: 999_999_999 })),
    /** Country code, max 5 characters; the service defaults to `55`. */
    ddi: z.optional(text('Country code, max 5; default 55.', { max: 5 })),
    /** Area code, max 2 characters. */
    ddd: z.optional(text('Area code, max 2.', { max: 2 })),
    /** Kind of phone, max 191; kinds seen: `whatsapp`, `mobile`, `landline`, `work`. Required. */
    type: text('Kind of phone, max 191; kinds seen: whatsapp, mobile, landline, work. Required.', {
      max: 191,
    }) as unknown as z.ZodMiniType<'whatsapp' | 'mobile' | 'landline' | 'work' | (string & {})>,
    /** Digits only, 8 or 9, without area code. */
    number: z.optional(
      text('Digits only, 8 or 9, without area code.', {
        pattern: FORMATS.phoneNumber,
        format: '8 or 9 digits, without area code',
      }),
    ),
  },
  OBJECT,
);
/** A phone in a profile update (spec §2.3, §4.1). */
export type PhoneParams = z.infer<typeof PhoneParamsSchema>;

/** The company partner of a company profile (spec §4.1). */
export const CompanyPartnerParamsSchema = z.looseObject(
  {
    /** Partner name, max 191 characters. */
    name: z.optional(text('Partner name, max 191.', TEXT_191)),
    /** Partner tax id, format `###.###.###-##`. */
    cpf: z.optional(
      text('Partner tax id, format ###.###.###-##.', {
        pattern: FORMATS.cpf,
        format: '###.###.###-##',
      }),
    ),
    /** Partner birth date (a date the service reads, e.g. `YYYY-MM-DD`). */
    birth: z.optional(text('Partner birth date.')),
  },
  OBJECT,
);
/** The company partner of a company profile (spec §4.1). */
export type CompanyPartnerParams = z.infer<typeof CompanyPartnerParamsSchema>;

/**
 * The body of `users.update` (`POST /users/update`, multipart; spec §4.1).
 *
 * Checked here: every documented limit and format, and the variant by the tax id sent (`cpf` →
 * `birth` required; `cnpj` → `company_type` and `social_name` required). Left to the service,
 * whose 422 comes back as `UnprocessableEntityError`: which tax id the user's type needs (the type
 * is not in the request), `company_partner` being required on the first update and forbidden once
 * defined (service state), and the under-18 fields (the clock).
 */
export const UpdateUserParamsSchema = z
  .looseObject(
    {
      /** User name, 3 to 191 characters. Required. */
      name: text('User name, 3 to 191 characters. Required.', { min: 3, max: 191 }),
      /** Address (spec §2.2). Required. */
      address: described(AddressParamsSchema, 'Address (spec §2.2). Required.'),
      /** User photo. */
      avatar: z.optional(uploadable('User photo.')),
      /** Phones; `type` required in each, `number` 8 or 9 digits. */
      phones: z.optional(
        described(
          z.array(PhoneParamsSchema, { error: 'Expected an array of phones' }),
          'Phones; type required in each, number 8 or 9 digits.',
        ),
      ),
      /** Free text about the user. */
      about: z.optional(text('Free text about the user.')),
      /** Website, an absolute URL. */
      website: z.optional(
        text('Website, an absolute URL.', { pattern: FORMATS.url, format: 'an absolute URL' }),
      ),
      /** Recovery e-mail address. */
      recovery_email: z.optional(
        text('Recovery e-mail address.', { pattern: FORMATS.email, format: 'an e-mail address' }),
      ),
      /** Nickname, max 191 characters. */
      nickname: z.optional(text('Nickname, max 191.', TEXT_191)),
      /** Birth date (a date the service reads, e.g. `YYYY-MM-DD`). Required for a person (when `cpf` is sent). */
      birth: z.optional(text('Birth date. Required for a person (when cpf is sent).')),
      /** Whether the person is emancipated. The service requires it for a person under 18. */
      is_emancipated: z.optional(
        flag('Whether the person is emancipated. Required for a person under 18.'),
      ),
      /** Emancipation document. The service requires it for a person under 18. */
      emancipated_document: z.optional(
        uploadable('Emancipation document. Required for a person under 18.'),
      ),
      /** Person national tax id, format `###.###.###-##`. Sending it selects the person variant. */
      cpf: z.optional(
        text('Person national tax id, format ###.###.###-##, max 191.', {
          max: 191,
          pattern: FORMATS.cpf,
          format: '###.###.###-##',
        }),
      ),
      /** Company national tax id, format `##.###.###/####-##`. Sending it selects the company variant. */
      cnpj: z.optional(
        text('Company national tax id, format ##.###.###/####-##, max 191.', {
          max: 191,
          pattern: FORMATS.cnpj,
          format: '##.###.###/####-##',
        }),
      ),
      /** Company tax regime: `mei`, `simple`, `presumed`, `real`. Required for a company (when `cnpj` is sent). */
      company_type: z.optional(
        oneOf('Company tax regime. Required for a company (when cnpj is sent).', [
          'mei',
          'simple',
          'presumed',
          'real',
        ]),
      ),
      /** Company legal name, max 191 characters. Required for a company (when `cnpj` is sent). */
      social_name: z.optional(
        text('Company legal name, max 191. Required for a company (when cnpj is sent).', TEXT_191),
      ),
      /**
       * Company partner. The service requires it on the first profile update of a company and
       * forbids it once defined (not checked here: it depends on the service's state).
       */
      company_partner: z.optional(
        described(
          CompanyPartnerParamsSchema,
          'Company partner; required on the first profile update, forbidden once defined.',
        ),
      ),
    },
    OBJECT,
  )
  .check(
    z.superRefine((value: Record<string, unknown>, ctx) => {
      if (value.cpf !== undefined && value.birth === undefined) {
        fieldIssue(ctx, ['birth'], 'Required for a person (when cpf is sent)');
      }
      if (value.cnpj !== undefined) {
        if (value.company_type === undefined) {
          fieldIssue(ctx, ['company_type'], 'Required for a company (when cnpj is sent)');
        }
        if (value.social_name === undefined) {
          fieldIssue(ctx, ['social_name'], 'Required for a company (when cnpj is sent)');
        }
      }
    }, ALWAYS),
  );
/** The body of `users.update` (spec §4.1). */
export type UpdateUserParams = z.input<typeof UpdateUserParamsSchema>;
