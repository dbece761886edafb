/**
 * The user (seller) profile: spec §2.1 to §2.3 for the response, §4.1 for `POST /users/update`.
 *
 * @module
 */

import * as z from 'zod/mini';
import { withKeywords } from './json-keywords';
import {
  crossFieldRule,
  dateText,
  FORMATS,
  fieldIssue,
  flag,
  integer,
  listOf,
  oneOf,
  optional,
  paramsObject,
  text,
  type Uploadable,
  uploadable,
} from './request-rules';
import {
  BOOLEAN,
  INTEGER,
  maybe,
  type OpenEnum,
  openEnum,
  responseObject,
  STRING,
} from './response-fields';

// ---------------------------------------------------------------------------------------------
// Types: the documentation a partner reads (hover, reference). The schemas below are proven to
// infer exactly these types (test/types/schemas-match.test-d.ts).
// ---------------------------------------------------------------------------------------------

/** A user is a person or a company (spec §2.1). Open: a new value passes. */
export type UserType = OpenEnum<'person' | 'company'>;

/**
 * A company's tax regime (spec §2.1, §4.1): `mei` (individual micro-entrepreneur), `simple`
 * (Simples Nacional), `presumed` (presumed profit) or `real` (real profit).
 */
export type CompanyType = 'mei' | 'simple' | 'presumed' | 'real';

/** Kinds of phone seen (spec §2.3): `whatsapp`, `mobile`, `landline`, `work`; others pass. */
export type PhoneType = OpenEnum<'whatsapp' | 'mobile' | 'landline' | 'work'>;

/**
 * An address as the service returns it (spec §2.2). The spec's "required" column applies to
 * requests: in a response every field may be absent or `null`.
 */
export interface Address {
  /** Zip code, Brazilian format `00000-000` (at most 10 characters). Absent or `null` when empty. Spec §2.2. */
  zip_code?: string | null;
  /** City, at most 191 characters. Absent or `null` when empty. Spec §2.2. */
  city?: string | null;
  /** Two-letter state abbreviation (e.g. `SP`). Absent or `null` when empty. Spec §2.2. */
  state?: string | null;
  /** Country, at most 191 characters. Absent or `null` when empty. Spec §2.2. */
  country?: string | null;
  /** Street, at most 191 characters. Absent or `null` when empty. Spec §2.2. */
  street?: string | null;
  /** Street number, at most 191 characters; may be text (e.g. a no-number marker). Absent or `null` when empty. Spec §2.2. */
  street_number?: string | null;
  /** Neighborhood, at most 191 characters. Absent or `null` when empty. Spec §2.2. */
  neighborhood?: string | null;
  /** Complement (apartment, block…), at most 191 characters. Absent or `null` when empty. Spec §2.2. */
  complement?: string | null;
  /** Whether this is the main address (the service's default: `false`). Absent or `null` when not sent. Spec §2.2. */
  is_default?: boolean | null;
}

/** A phone as the service returns it (spec §2.3). Every field may be absent or `null`. */
export interface Phone {
  /** Phone id, an integer from 1 to 999999999. Absent or `null` when not sent. Spec §2.3. */
  id?: number | null;
  /** Country calling code, at most 5 characters (the service's default: `55`, Brazil). Absent or `null` when not sent. Spec §2.3. */
  ddi?: string | null;
  /** Area code (DDD), at most 2 characters. Absent or `null` when not sent. Spec §2.3. */
  ddd?: string | null;
  /** Kind of phone: `whatsapp`, `mobile`, `landline`, `work` seen; others pass. Absent or `null` when not sent. Spec §2.3. */
  type?: PhoneType | null;
  /** The number, digits only, without the area code. Absent or `null` when not sent. Spec §2.3. */
  number?: string | null;
}

/**
 * A user (seller) as `users.update` returns it (spec §2.1). `name`, `code`, `status`, `type` and
 * `email` are always present (the spec says so); every other field may be absent or `null`.
 */
export interface User {
  /** The user's name. Always present. Spec §2.1. */
  name: string;
  /** Unique user code: the user's identity (e.g. `user_id` of a refund). Always present. Spec §2.1. */
  code: string;
  /** Account status. Always present; its allowed values: not shown (any string). Spec §2.1. */
  status: string;
  /** Whether the platform approved the user. Absent or `null` when not sent. Spec §2.1. */
  is_approved?: boolean | null;
  /** Whether the user completed registration. Absent or `null` when not sent. Spec §2.1. */
  is_registration_completed?: boolean | null;
  /** `person` or `company`. Always present. Spec §2.1. */
  type: UserType;
  /** E-mail address. Always present. Spec §2.1. */
  email: string;
  /**
   * The user-scoped token for protected endpoints: pass it to `client.forUser`. A secret (the SDK
   * redacts it in logs and errors). Absent or `null` when not sent. Spec §2.1, §5.
   */
  public_token?: string | null;
  /** URL of the user's photo. Absent or `null` when there is none. Spec §2.1. */
  avatar?: string | null;
  /** Address. Absent or `null` when not set. Spec §2.2. */
  address?: Address | null;
  /** Phones. Absent or `null` when none. Spec §2.3. */
  phones?: Phone[] | null;
  /** Free text about the user. Absent or `null` when empty. Spec §2.1. */
  about?: string | null;
  /** Website URL. Absent or `null` when empty. Spec §2.1. */
  website?: string | null;
  /** Recovery e-mail address. Absent or `null` when empty. Spec §2.1. */
  recovery_email?: string | null;
  /** Nickname, at most 191 characters. Absent or `null` when empty. Spec §2.1. */
  nickname?: string | null;
  /** Birth date (a date string); persons only. Absent or `null` for companies or when not set. Spec §2.1. */
  birth?: string | null;
  /** Whether a person under 18 is emancipated. Absent or `null` when not set. Spec §2.1. */
  is_emancipated?: boolean | null;
  /** A person's national tax id (CPF), format `###.###.###-##`. Absent or `null` for companies. Spec §2.1. */
  cpf?: string | null;
  /** A company's national tax id (CNPJ), format `##.###.###/####-##`. Absent or `null` for persons. Spec §2.1. */
  cnpj?: string | null;
  /** A company's tax regime: `mei`, `simple`, `presumed` or `real`. Absent or `null` for persons. Spec §2.1. */
  company_type?: OpenEnum<CompanyType> | null;
}

/** An address in `users.update` (spec §2.2): the required fields and their limits. */
export interface AddressParams {
  /** Zip code, Brazilian format `00000-000` (at most 10 characters). Required. Spec §2.2. */
  zip_code: string;
  /** City, at most 191 characters. Required. Spec §2.2. */
  city: string;
  /** Two-letter state abbreviation (e.g. `SP`). Required. Spec §2.2. */
  state: string;
  /** Country, at most 191 characters. Required. Spec §2.2. */
  country: string;
  /** Street, at most 191 characters. Required. Spec §2.2. */
  street: string;
  /** Street number, at most 191 characters; may be text (e.g. a no-number marker). Required. Spec §2.2. */
  street_number: string;
  /** Neighborhood, at most 191 characters. Required. Spec §2.2. */
  neighborhood: string;
  /** Complement (apartment, block…), at most 191 characters. Spec §2.2. */
  complement?: string;
  /** Whether this is the main address; the service's default is `false`. Spec §2.2. */
  is_default?: boolean;
}

/** A phone in `users.update` (spec §2.3, §4.1): `type` required, `number` 8 or 9 digits. */
export interface PhoneParams {
  /** Id of an existing phone to update, an integer from 1 to 999999999. Spec §2.3. */
  id?: number;
  /** Country calling code, at most 5 characters; the service's default is `55` (Brazil). Spec §2.3, §8. */
  ddi?: string;
  /** Area code (DDD), at most 2 characters. Spec §2.3, §8. */
  ddd?: string;
  /** Kind of phone, at most 191 characters: `whatsapp`, `mobile`, `landline`, `work` seen. Required. Spec §2.3, §4.1. */
  type: PhoneType;
  /** The number: 8 or 9 digits, without the area code. Spec §2.3, §4.1. */
  number?: string;
}

/** The company partner of a company profile (spec §4.1). */
export interface CompanyPartnerParams {
  /** Partner's name, at most 191 characters. Spec §4.1. */
  name?: string;
  /** Partner's tax id (CPF), format `###.###.###-##`. Spec §4.1. */
  cpf?: string;
  /** Partner's birth date (a date string the service reads, e.g. `YYYY-MM-DD`; a `YYYY-MM-DD` date must be a real day). Spec §4.1. */
  birth?: string;
}

/**
 * What every profile update takes, person or company (`POST /users/update`, multipart; spec
 * §4.1). A body is one of {@link PersonProfileParams} and {@link CompanyProfileParams}: see
 * {@link UserUpdateParams}.
 */
export interface ProfileUpdateFields {
  /** The user's name, 3 to 191 characters. Required. Spec §4.1, §8. */
  name: string;
  /** The address (spec §2.2). Required. Spec §4.1. */
  address: AddressParams;
  /** The user's photo: a `Blob`, `File`, `Uint8Array`, `ArrayBuffer` or `ReadableStream` (see `toFile`). Spec §4.1. */
  avatar?: Uploadable;
  /** Phones; in each `type` is required and `number` has 8 or 9 digits. Spec §4.1. */
  phones?: PhoneParams[];
  /** Free text about the user. Spec §4.1. */
  about?: string;
  /** Website, an absolute URL. Spec §4.1. */
  website?: string;
  /** Recovery e-mail address. Spec §4.1. */
  recovery_email?: string;
  /** Nickname, at most 191 characters. Spec §4.1. */
  nickname?: string;
}

/**
 * A person's profile update (spec §4.1): `cpf` and `birth` required, the company fields absent.
 * The under-18 fields are the service's to require (it knows the date it checks against).
 */
export interface PersonProfileParams extends ProfileUpdateFields {
  /** A person's national tax id (CPF), format `###.###.###-##`. Required for a person: sending it selects the person variant. Spec §4.1 rule 2. */
  cpf: string;
  /** Birth date (a date string the service reads, e.g. `YYYY-MM-DD`; a `YYYY-MM-DD` date must be a real day). Required for a person (when `cpf` is sent). Spec §4.1; that it is before today is not stated (the kit's `assumedRules.birthBeforeToday` tries it). */
  birth: string;
  /** Whether the person is emancipated; the service requires it for a person under 18. Spec §4.1. */
  is_emancipated?: boolean;
  /** Emancipation document (a file, like `avatar`); the service requires it for a person under 18. Spec §4.1. */
  emancipated_document?: Uploadable;
  /** Not for a person: `cnpj` belongs to the company variant ({@link CompanyProfileParams}). Spec §4.1 rule 1. */
  cnpj?: never;
  /** Not for a person: a company field ({@link CompanyProfileParams}). Spec §4.1 rule 1. */
  company_type?: never;
  /** Not for a person: a company field ({@link CompanyProfileParams}). Spec §4.1 rule 1. */
  social_name?: never;
  /** Not for a person: a company field ({@link CompanyProfileParams}). Spec §4.1 rule 1. */
  company_partner?: never;
}

/**
 * A company's profile update (spec §4.1): `cnpj`, `company_type` and `social_name` required, the
 * person fields absent.
 */
export interface CompanyProfileParams extends ProfileUpdateFields {
  /** A company's national tax id (CNPJ), format `##.###.###/####-##`. Required for a company: sending it selects the company variant. Spec §4.1 rule 2. */
  cnpj: string;
  /** The company's tax regime: `mei`, `simple`, `presumed` or `real`. Required for a company (when `cnpj` is sent). Spec §4.1. */
  company_type: CompanyType;
  /** The company's legal name, at most 191 characters. Required for a company (when `cnpj` is sent). Spec §4.1. */
  social_name: string;
  /**
   * The company's partner. The service requires it on a company's first profile update and forbids
   * it once defined (service state: not checked here). A call with it is never replayed. Spec §4.1.
   */
  company_partner?: CompanyPartnerParams;
  /** Not for a company: `cpf` belongs to the person variant ({@link PersonProfileParams}). Spec §4.1 rule 1. */
  cpf?: never;
  /** Not for a company: a person field ({@link PersonProfileParams}). Spec §4.1 rule 1. */
  birth?: never;
  /** Not for a company: a person field ({@link PersonProfileParams}). Spec §4.1 rule 1. */
  is_emancipated?: never;
  /** Not for a company: a person field ({@link PersonProfileParams}). Spec §4.1 rule 1. */
  emancipated_document?: never;
}

/**
 * The body of `users.update` (`POST /users/update`, multipart; spec §4.1): the person variant
 * ({@link PersonProfileParams}: `cpf` and `birth`) or the company variant
 * ({@link CompanyProfileParams}: `cnpj`, `company_type` and `social_name`), so a body mixing them,
 * or naming neither tax id (rule 2), is a compile error. At run time the tax id sent chooses the
 * rules checked (both tax ids are sent as given, with a warning); left to the service, whose 422
 * comes back as `UnprocessableEntityError`: which tax id the user's type needs, `company_partner`
 * being required on the first update and forbidden once defined, and the under-18 fields.
 */
export type UserUpdateParams = PersonProfileParams | CompanyProfileParams;

/**
 * The body of `users.update`.
 *
 * @deprecated Renamed {@link UserUpdateParams}.
 */
export type UpdateUserParams = UserUpdateParams;

// ---------------------------------------------------------------------------------------------
// Schemas: the run-time truth (field notes: see the types above)
// ---------------------------------------------------------------------------------------------

/** Schema of {@link Address}. */
export const AddressSchema = responseObject({
  zip_code: maybe(STRING),
  city: maybe(STRING),
  state: maybe(STRING),
  country: maybe(STRING),
  street: maybe(STRING),
  street_number: maybe(STRING),
  neighborhood: maybe(STRING),
  complement: maybe(STRING),
  is_default: maybe(BOOLEAN),
});

/** Schema of {@link Phone}. */
export const PhoneSchema = responseObject({
  id: maybe(INTEGER),
  ddi: maybe(STRING),
  ddd: maybe(STRING),
  type: maybe(openEnum(['whatsapp', 'mobile', 'landline', 'work'])),
  number: maybe(STRING),
});

/** Schema of {@link User}: `name`, `code`, `status`, `type` and `email` are required. */
export const UserSchema = responseObject({
  name: STRING,
  code: STRING,
  status: STRING,
  is_approved: maybe(BOOLEAN),
  is_registration_completed: maybe(BOOLEAN),
  type: openEnum(['person', 'company']),
  email: STRING,
  public_token: maybe(STRING),
  avatar: maybe(STRING),
  address: maybe(AddressSchema),
  phones: maybe(z.array(PhoneSchema)),
  about: maybe(STRING),
  website: maybe(STRING),
  recovery_email: maybe(STRING),
  nickname: maybe(STRING),
  birth: maybe(STRING),
  is_emancipated: maybe(BOOLEAN),
  cpf: maybe(STRING),
  cnpj: maybe(STRING),
  company_type: maybe(openEnum(['mei', 'simple', 'presumed', 'real'])),
});

const TEXT_191 = { max: 191 } as const;

/** Schema of {@link AddressParams}. */
export const AddressParamsSchema = paramsObject({
  zip_code: text({ max: 10, pattern: FORMATS.zipCode, format: '00000-000' }),
  city: text(TEXT_191),
  state: text({ pattern: FORMATS.state, format: 'two letters (state abbreviation)' }),
  country: text(TEXT_191),
  street: text(TEXT_191),
  street_number: text(TEXT_191),
  neighborhood: text(TEXT_191),
  complement: optional(text(TEXT_191)),
  // The service's default when absent (spec §2.2), for the document: the SDK sends none.
  is_default: optional(withKeywords(flag().clone(), { default: false })),
});

/** Schema of {@link PhoneParams}. */
export const PhoneParamsSchema = paramsObject({
  id: optional(integer({ min: 1, max: 999_999_999 })),
  // The service's default when absent (spec §2.3), for the document: the SDK sends none.
  ddi: optional(withKeywords(text({ max: 5 }), { default: '55' })),
  ddd: optional(text({ max: 2 })),
  type: text({ max: 191 }) as unknown as z.ZodMiniType<PhoneType, PhoneType>,
  number: optional(
    text({ pattern: FORMATS.phoneNumber, format: '8 or 9 digits, without area code' }),
  ),
});

/** Schema of {@link CompanyPartnerParams}. */
export const CompanyPartnerParamsSchema = paramsObject({
  name: optional(text(TEXT_191)),
  // The spec gives `cpf`'s format for the user, not for the partner (§4.1): only warned about.
  cpf: optional(text()),
  birth: optional(dateText),
});

/** Schema of {@link UserUpdateParams}: every documented limit and format, and the variant by tax id. */
export const UserUpdateParamsSchema = paramsObject({
  name: text({ min: 3, max: 191 }),
  address: AddressParamsSchema,
  avatar: optional(uploadable()),
  phones: optional(listOf(PhoneParamsSchema, 'phones')),
  about: optional(text()),
  website: optional(
    withKeywords(text({ pattern: FORMATS.url, format: 'an absolute URL' }), { format: 'uri' }),
  ),
  recovery_email: optional(
    withKeywords(text({ pattern: FORMATS.email, format: 'an e-mail address' }), {
      format: 'email',
    }),
  ),
  nickname: optional(text(TEXT_191)),
  birth: optional(dateText),
  is_emancipated: optional(flag()),
  emancipated_document: optional(uploadable()),
  cpf: optional(text({ max: 191, pattern: FORMATS.cpf, format: '###.###.###-##' })),
  cnpj: optional(text({ max: 191, pattern: FORMATS.cnpj, format: '##.###.###/####-##' })),
  company_type: optional(oneOf(['mei', 'simple', 'presumed', 'real'])),
  social_name: optional(text(TEXT_191)),
  company_partner: optional(CompanyPartnerParamsSchema),
}).check(
  crossFieldRule((payload) => {
    const value = payload.value;
    // With both tax ids the variant cannot be told from the body (spec §4.1 rule 1): the service
    // chooses it by the user's type, so neither variant's own fields are required here.
    if (value.cpf !== undefined && value.cnpj !== undefined) return;
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

/**
 * What a profile update sends that the spec does not forbid but that is likely a mistake: both tax
 * ids (the body is one variant or the other, §4.1 rule 1), a company partner's `cpf` not in the
 * user's `###.###.###-##` format. `users.update` sends it and warns once per client for each.
 *
 * @example
 * ```ts
 * profileSuspicions({ cpf: '123.456.789-09', cnpj: '12.345.678/0001-90' }); // ['users.update: both cpf and cnpj …']
 * ```
 */
export function profileSuspicions(params: {
  cpf?: unknown;
  cnpj?: unknown;
  company_partner?: { cpf?: unknown } | undefined;
}): string[] {
  const found: string[] = [];
  // Params that are no object are the params check's to refuse: nothing here to suspect.
  if (typeof params !== 'object' || params === null) return found;
  if (params.cpf !== undefined && params.cnpj !== undefined) {
    found.push(
      "users.update: both cpf and cnpj were sent; the spec has a person variant (cpf) and a company variant (cnpj), and the service chooses by the user's type.",
    );
  }
  const partnerCpf = params.company_partner?.cpf;
  if (typeof partnerCpf === 'string' && !FORMATS.cpf.test(partnerCpf)) {
    found.push(
      "users.update: company_partner.cpf is not in the format ###.###.###-## (the spec gives that format for the user's cpf only), sent as given.",
    );
  }
  return found;
}
