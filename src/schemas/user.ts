/**
 * The user (seller) profile: spec §2.1 to §2.3 for the response, §4.1 for `POST /users/update`.
 *
 * @module
 */

import * as z from 'zod/mini';
import {
  crossFieldRule,
  FORMATS,
  fieldIssue,
  flag,
  integer,
  listOf,
  oneOf,
  optional,
  paramsObject,
  text,
  uploadable,
} from './request-rules';
import { BOOLEAN, maybe, NUMBER, openEnum, STRING } from './response-fields';

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/**
 * An address as the service returns it (spec §2.2). The spec's "required" column applies to
 * requests; in a response every field may be absent or `null`.
 */
export const AddressSchema = z.looseObject({
  /** Zip code, Brazilian format `00000-000`, max 10. */
  zip_code: maybe(STRING),
  /** City, max 191. */
  city: maybe(STRING),
  /** Two-letter state abbreviation. */
  state: maybe(STRING),
  /** Country, max 191. */
  country: maybe(STRING),
  /** Street, max 191. */
  street: maybe(STRING),
  /** Street number, max 191; may be text (for example a no-number marker). */
  street_number: maybe(STRING),
  /** Neighborhood, max 191. */
  neighborhood: maybe(STRING),
  /** Complement, max 191. */
  complement: maybe(STRING),
  /** Main address flag; default false. */
  is_default: maybe(BOOLEAN),
});
/** An address as the service returns it (spec §2.2). */
export type Address = z.infer<typeof AddressSchema>;

/** A phone as the service returns it (spec §2.3). */
export const PhoneSchema = z.looseObject({
  /** Phone id, integer 1 to 999999999. */
  id: maybe(NUMBER),
  /** Country code, max 5; default `55`. */
  ddi: maybe(STRING),
  /** Area code, max 2. */
  ddd: maybe(STRING),
  /** Kind of phone, max 191; kinds seen: `whatsapp`, `mobile`, `landline`, `work`. */
  type: maybe(openEnum(['whatsapp', 'mobile', 'landline', 'work'])),
  /** Digits only, without area code. */
  number: maybe(STRING),
});
/** A phone as the service returns it (spec §2.3). */
export type Phone = z.infer<typeof PhoneSchema>;

/** A user (seller) as returned by the profile update (spec §2.1). */
export const UserSchema = z.looseObject({
  /** User name; always present. */
  name: STRING,
  /** Unique user code; always present. */
  code: STRING,
  /** User status; always present. Allowed values: not shown by the spec. */
  status: STRING,
  /** Whether the user is approved. */
  is_approved: maybe(BOOLEAN),
  /** Whether registration is complete. */
  is_registration_completed: maybe(BOOLEAN),
  /** `person` or `company`; always present. */
  type: openEnum(['person', 'company']),
  /** E-mail address; always present. */
  email: STRING,
  /** User-scoped token for protected endpoints (send it through `client.forUser`). */
  public_token: maybe(STRING),
  /** URL of the user photo. */
  avatar: maybe(STRING),
  /** Address (spec §2.2). */
  address: maybe(AddressSchema),
  /** Phones (spec §2.3). */
  phones: maybe(z.array(PhoneSchema)),
  /** Free text about the user. */
  about: maybe(STRING),
  /** Website URL. */
  website: maybe(STRING),
  /** Recovery e-mail address. */
  recovery_email: maybe(STRING),
  /** Nickname, max 191. */
  nickname: maybe(STRING),
  /** Birth date; person only. */
  birth: maybe(STRING),
  /** Whether the person (under 18) is emancipated. */
  is_emancipated: maybe(BOOLEAN),
  /** Person national tax id, format `###.###.###-##`. */
  cpf: maybe(STRING),
  /** Company national tax id, format `##.###.###/####-##`. */
  cnpj: maybe(STRING),
  /** Company tax regime: `mei`, `simple`, `presumed`, `real`. */
  company_type: maybe(openEnum(['mei', 'simple', 'presumed', 'real'])),
});
/** A user (seller) as returned by the profile update (spec §2.1). */
export type User = z.infer<typeof UserSchema>;

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

const TEXT_191 = { max: 191 } as const;

/** An address in a profile update (spec §2.2): the required fields and their limits. */
export const AddressParamsSchema = paramsObject({
  /** Zip code, Brazilian format `00000-000` (max 10). Required. */
  zip_code: text({
    max: 10,
    pattern: FORMATS.zipCode,
    format: '00000-000',
  }),
  /** City, max 191 characters. Required. */
  city: text(TEXT_191),
  /** Two-letter state abbreviation. Required. */
  state: text({
    pattern: FORMATS.state,
    format: 'two letters (state abbreviation)',
  }),
  /** Country, max 191 characters. Required. */
  country: text(TEXT_191),
  /** Street, max 191 characters. Required. */
  street: text(TEXT_191),
  /** Street number, max 191 characters; may be text (for example a no-number marker). Required. */
  street_number: text(TEXT_191),
  /** Neighborhood, max 191 characters. Required. */
  neighborhood: text(TEXT_191),
  /** Complement, max 191 characters. */
  complement: optional(text(TEXT_191)),
  /** Main address flag; the service defaults to false. */
  is_default: optional(flag()),
});
/** An address in a profile update (spec §2.2). */
export type AddressParams = z.infer<typeof AddressParamsSchema>;

/** A phone in a profile update (spec §2.3, §4.1): `type` required, `number` 8 or 9 digits. */
export const PhoneParamsSchema = paramsObject({
  /** Phone id, integer 1 to 999999999 (to update an existing phone). */
  id: optional(integer({ min: 1, max: 999_999_999 })),
  /** Country code, max 5 characters; the service defaults to `55`. */
  ddi: optional(text({ max: 5 })),
  /** Area code, max 2 characters. */
  ddd: optional(text({ max: 2 })),
  /** Kind of phone, max 191; kinds seen: `whatsapp`, `mobile`, `landline`, `work`. Required. */
  type: text({
    max: 191,
  }) as unknown as z.ZodMiniType<'whatsapp' | 'mobile' | 'landline' | 'work' | (string & {})>,
  /** Digits only, 8 or 9, without area code. */
  number: optional(
    text({
      pattern: FORMATS.phoneNumber,
      format: '8 or 9 digits, without area code',
    }),
  ),
});
/** A phone in a profile update (spec §2.3, §4.1). */
export type PhoneParams = z.infer<typeof PhoneParamsSchema>;

/** The company partner of a company profile (spec §4.1). */
export const CompanyPartnerParamsSchema = paramsObject({
  /** Partner name, max 191 characters. */
  name: optional(text(TEXT_191)),
  /** Partner tax id, format `###.###.###-##`. */
  cpf: optional(
    text({
      pattern: FORMATS.cpf,
      format: '###.###.###-##',
    }),
  ),
  /** Partner birth date (a date the service reads, e.g. `YYYY-MM-DD`). */
  birth: optional(text()),
});
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
export const UpdateUserParamsSchema = paramsObject({
  /** User name, 3 to 191 characters. Required. */
  name: text({ min: 3, max: 191 }),
  /** Address (spec §2.2). Required. */
  address: AddressParamsSchema,
  /** User photo. */
  avatar: optional(uploadable()),
  /** Phones; `type` required in each, `number` 8 or 9 digits. */
  phones: optional(listOf(PhoneParamsSchema, 'phones')),
  /** Free text about the user. */
  about: optional(text()),
  /** Website, an absolute URL. */
  website: optional(text({ pattern: FORMATS.url, format: 'an absolute URL' })),
  /** Recovery e-mail address. */
  recovery_email: optional(text({ pattern: FORMATS.email, format: 'an e-mail address' })),
  /** Nickname, max 191 characters. */
  nickname: optional(text(TEXT_191)),
  /** Birth date (a date the service reads, e.g. `YYYY-MM-DD`). Required for a person (when `cpf` is sent). */
  birth: optional(text()),
  /** Whether the person is emancipated. The service requires it for a person under 18. */
  is_emancipated: optional(flag()),
  /** Emancipation document. The service requires it for a person under 18. */
  emancipated_document: optional(uploadable()),
  /** Person national tax id, format `###.###.###-##`. Sending it selects the person variant. */
  cpf: optional(
    text({
      max: 191,
      pattern: FORMATS.cpf,
      format: '###.###.###-##',
    }),
  ),
  /** Company national tax id, format `##.###.###/####-##`. Sending it selects the company variant. */
  cnpj: optional(
    text({
      max: 191,
      pattern: FORMATS.cnpj,
      format: '##.###.###/####-##',
    }),
  ),
  /** Company tax regime: `mei`, `simple`, `presumed`, `real`. Required for a company (when `cnpj` is sent). */
  company_type: optional(oneOf(['mei', 'simple', 'presumed', 'real'])),
  /** Company legal name, max 191 characters. Required for a company (when `cnpj` is sent). */
  social_name: optional(text(TEXT_191)),
  /**
   * Company partner. The service requires it on the first profile update of a company and
   * forbids it once defined (not checked here: it depends on the service's state).
   */
  company_partner: optional(CompanyPartnerParamsSchema),
}).check(
  crossFieldRule((payload) => {
    const value = payload.value;
    if (value.cpf !== undefined && value.birth === undefined) {
      fieldIssue(payload, ['birth'], 'Required for a person (when cpf is sent)');
    }
    if (value.cnpj !== undefined) {
      if (value.company_type === undefined) {
        fieldIssue(payload, ['company_type'], 'Required for a company (when cnpj is sent)');
      }
      if (value.social_name === undefined) {
        fieldIssue(payload, ['social_name'], 'Required for a company (when cnpj is sent)');
      }
    }
  }),
);
/** The body of `users.update` (spec §4.1). */
export type UpdateUserParams = z.input<typeof UpdateUserParamsSchema>;
