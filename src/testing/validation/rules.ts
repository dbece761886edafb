/**
 * The kit's request rules, written from the spec's tables (§2.2, §2.3, §4, §8) as a Laravel
 * service would declare them, independent of the SDK's request schemas. Rules that depend on the
 * service's state (the seller's type, `company_partner` once defined, the product's type, the
 * stored offer's type) or on the clock (under 18) take that state as arguments. Rules the spec
 * does not state (a birth before today, an avatar that is an image, the export range in order)
 * apply only when the seed's `assumedRules` turns them on.
 *
 * Where the spec says nothing about requiredness, a field is `nullable` and optional (a Laravel
 * `FormRequest` for an update usually says `sometimes|nullable`). An offer's rules are
 * `offer-rules.ts`.
 *
 * @module
 */

import type { CustomRule, Rule, RuleSet } from './laravel';
import { readDate, today } from './php-values';
import { optionalFlag, optionalInteger, optionalText } from './shorthands';

const CPF = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
const CNPJ = /^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/;
const ZIP_CODE = /^\d{5}-\d{3}$/;
const STATE = /^[A-Za-z]{2}$/;

/** Image types Laravel's `image` rule accepts, told by their first bytes as PHP's `finfo` does. */
const IMAGE_SIGNATURES: Array<(b: Uint8Array) => boolean> = [
  (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff, // JPEG
  (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47, // PNG
  (b) => String.fromCharCode(...b.subarray(0, 4)) === 'GIF8', // GIF
  (b) => b[0] === 0x42 && b[1] === 0x4d, // BMP
  (b) =>
    String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' &&
    String.fromCharCode(...b.subarray(8, 12)) === 'WEBP', // WebP
  (b) => /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/i.test(new TextDecoder().decode(b)), // SVG
];

/**
 * Laravel's `image`: a file whose content is a JPEG, PNG, GIF, BMP, WebP or SVG image. Like the
 * service, the kit reads the bytes, not the declared content type.
 */
export const image: CustomRule = async (value, attribute) => {
  if (!(value instanceof Blob)) return `The ${attribute} must be an image.`;
  const head = new Uint8Array(await value.slice(0, 256).arrayBuffer());
  return IMAGE_SIGNATURES.some((matches) => matches(head))
    ? undefined
    : `The ${attribute} must be an image.`;
};

/** Age in whole years on the platform's today, from a `YYYY-MM-DD…` date. */
export function ageOf(birth: string, now = Date.now()): number {
  const [y, m, d] = birth.slice(0, 10).split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today(now).split('-').map(Number) as [number, number, number];
  return ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
}

/** What the profile rules need to know about the seller. */
export interface ProfileState {
  /** The seller's type, stored by the service (the request does not carry it). */
  type: 'person' | 'company';
  /** Whether the company's partner was defined by an earlier update. */
  companyPartnerDefined: boolean;
  /** The `birth` sent, if any, to decide the under-18 rules. */
  birth: unknown;
  /** The unstated rules turned on: a birth before today, an avatar that is an image. */
  rules: { birthBeforeToday: boolean; avatarIsImage: boolean };
  /** The kit's time (milliseconds since the epoch), which decides "today". */
  now: number;
}

/** Laravel's `before:today`, with today read on the kit's clock. */
function beforeToday(now: number): CustomRule {
  return (value, attribute) => {
    const date = readDate(value);
    return date && date < today(now) ? undefined : `The ${attribute} must be a date before today.`;
  };
}

const ADDRESS: RuleSet = {
  address: ['required', 'array'],
  'address.zip_code': ['required', 'string', 'max:10', { regex: ZIP_CODE }],
  'address.city': ['required', 'string', 'max:191'],
  'address.state': ['required', 'string', 'max:2', { regex: STATE }],
  'address.country': ['required', 'string', 'max:191'],
  'address.street': ['required', 'string', 'max:191'],
  'address.street_number': ['required', 'string', 'max:191'],
  'address.neighborhood': ['required', 'string', 'max:191'],
  'address.complement': optionalText('max:191'),
  'address.is_default': optionalFlag,
};

const PHONES: RuleSet = {
  phones: ['nullable', 'array'],
  'phones.*': ['array'],
  'phones.*.id': optionalInteger('between:1,999999999'),
  'phones.*.ddi': optionalText('max:5'),
  'phones.*.ddd': optionalText('max:2'),
  'phones.*.type': ['required', 'string', 'max:191'],
  'phones.*.number': ['nullable', 'digits_between:8,9'],
};

/** `POST /users/update` (spec §4.1), for the seller's stored type and the clock. */
export function profileRules(state: ProfileState): RuleSet {
  const common: RuleSet = {
    name: ['required', 'string', 'min:3', 'max:191'],
    ...ADDRESS,
    avatar: ['nullable', 'file', ...(state.rules.avatarIsImage ? [image] : [])],
    ...PHONES,
    about: optionalText(),
    website: ['nullable', 'url'],
    recovery_email: ['nullable', 'email'],
    nickname: optionalText('max:191'),
  };
  const birthRules: Rule[] = [
    'date',
    ...(state.rules.birthBeforeToday ? [beforeToday(state.now)] : []),
  ];
  if (state.type === 'person') {
    const birth = readDate(state.birth);
    const minor = birth !== undefined && birth < today(state.now) && ageOf(birth, state.now) < 18;
    return {
      ...common,
      birth: ['required', ...birthRules],
      is_emancipated: [{ requiredWhen: minor }, 'nullable', 'boolean'],
      emancipated_document: [{ requiredWhen: minor }, 'nullable', 'file'],
      cpf: ['required', 'string', 'max:191', { regex: CPF }],
    };
  }
  return {
    ...common,
    cnpj: ['required', 'string', 'max:191', { regex: CNPJ }],
    company_type: ['required', 'in:mei,simple,presumed,real'],
    social_name: ['required', 'string', 'max:191'],
    company_partner: state.companyPartnerDefined ? ['prohibited'] : ['required', 'array'],
    'company_partner.name': optionalText('max:191'),
    // The spec gives the cpf format for the user only, not for the partner (§4.1).
    'company_partner.cpf': optionalText(),
    'company_partner.birth': ['nullable', ...birthRules],
  };
}

/** `POST /users/bank-accounts/{hash}` (spec §2.4, §4.5): the variants' fields are not shown. */
export const BANK_ACCOUNT_RULES: RuleSet = {
  holder_name: optionalText('max:191'),
  receiver_type: ['nullable', 'in:pix,bank'],
  pix_key: optionalText('max:191'),
  bank_code: optionalText(),
  agency: optionalText(),
  account: optionalText(),
  account_type: optionalText(),
  holder_document: optionalText(),
  branch_number: optionalText('max:20'),
  branch_check_digit: optionalText('max:3'),
  account_number: optionalText('max:20'),
  account_check_digit: optionalText('max:3'),
};

/** `POST /financial/refund/{hash}` (spec §4.2); `user_id` must name an existing user. */
export function refundRules(userExists: (code: string) => boolean): RuleSet {
  return {
    observation: optionalText(),
    reason: optionalText('max:1000'),
    fraud_confirmed: optionalFlag,
    refund_type: optionalText(),
    cancel_subscription: optionalFlag,
    user_id: optionalText((value, attribute) =>
      typeof value === 'string' && userExists(value)
        ? undefined
        : `The selected ${attribute} is invalid.`,
    ),
  };
}

/** A real day in `DD/MM/YYYY`, as `YYYY-MM-DD`, or `undefined`. */
function readBrazilianDay(text: string): string | undefined {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  return m ? readDate(`${m[3]}-${m[2]}-${m[1]}`) : undefined;
}

/**
 * `filter.betweenDates`: two real days `DD/MM/YYYY`, comma-separated (spec §4.4); with `inOrder`
 * (an assumption the spec does not state) the start not after the end.
 */
function betweenDates(inOrder: boolean): CustomRule {
  return (value, attribute) => {
    const parts = typeof value === 'string' ? value.split(',') : [];
    const days = parts.map(readBrazilianDay);
    if (parts.length !== 2 || days.some((d) => d === undefined))
      return `The ${attribute} must be two dates in the format DD/MM/YYYY separated by a comma.`;
    return !inOrder || days[0]! <= days[1]!
      ? undefined
      : `The ${attribute} start must not be after its end.`;
  };
}

/**
 * `POST /financial/account-statement/export-report` (spec §4.4): no field documented required;
 * `inOrder` adds the unstated rule that the range does not start after it ends.
 */
export function exportRules(inOrder: boolean): RuleSet {
  return {
    format: optionalText(),
    filter: ['nullable', 'array'],
    'filter.betweenDates': ['nullable', 'string', betweenDates(inOrder)],
  };
}

/**
 * `POST /financial/anticipation/confirm/{hash}` (spec §4.7): the scenario, under the field name
 * the kit is configured with (not shown by the spec; `scenario` by default, as the SDK assumes).
 */
export function confirmAnticipationRules(field: string): RuleSet {
  return { [field]: ['required', 'in:above,below'] };
}

/** `GET /financial/anticipation` (spec §4.8). */
export const LIST_ANTICIPATIONS_RULES: RuleSet = {
  page: optionalInteger('min:1'),
  per_page: optionalInteger('min:1', 'max:100'),
};

/** `GET /products` (spec §4.10). */
export const LIST_PRODUCTS_RULES: RuleSet = {
  page: optionalInteger('min:1', 'max:999'),
  per_page: optionalInteger('min:1', 'max:50'),
};
