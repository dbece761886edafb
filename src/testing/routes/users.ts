/**
 * `POST /users/update` (spec §4.1, multipart, bearer required) and
 * `POST /users/bank-accounts/{account_hash}` (spec §4.5).
 *
 * Beyond the SDK's schemas, the mock applies the rules that depend on the service's state or the
 * clock (DESIGN §5): the tax id and required fields of the seller's type, `company_partner`
 * required on a company's first update and prohibited once defined, and the emancipation fields
 * of a person under 18.
 *
 * @module
 */

import { formToObject } from '../multipart';
import { errorMessage, json, unprocessable } from '../respond';
import type { Route } from '../router';
import { randomId } from '../state';
import { validateRequest } from '../validation';
import type { WireAddress, WirePhone, WireUser } from '../wire';

type Params = Record<string, unknown>;

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

function ageOn(birth: string, today = new Date()): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(birth);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < mo || (today.getUTCMonth() + 1 === mo && today.getUTCDate() < d))
    age -= 1;
  return age;
}

function stateRules(user: WireUser, partnerDefined: boolean, p: Params): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const require = (field: string, why = '') => {
    if (!present(p[field]))
      errors[field] = [`The ${field.replaceAll('_', ' ')} field is required${why}.`];
  };
  if (user.type === 'person') {
    require('cpf', ' for a person');
    require('birth', ' for a person');
    const age = typeof p.birth === 'string' ? ageOn(p.birth) : undefined;
    if (age !== undefined && age < 18) {
      require('is_emancipated', ' when the user is under 18');
      require('emancipated_document', ' when the user is under 18');
    }
  } else {
    require('cnpj', ' for a company');
    require('company_type', ' for a company');
    require('social_name', ' for a company');
    if (partnerDefined && p.company_partner !== undefined) {
      errors.company_partner = ['The company partner field is prohibited once defined.'];
    } else if (!partnerDefined) {
      require('company_partner', ' on the first profile update');
    }
  }
  return errors;
}

function fileUrl(code: string, file: unknown): string | undefined {
  if (!(file instanceof Blob)) return undefined;
  const ext = file.type === 'image/png' ? 'png' : 'jpg';
  return `https://cdn.partner-platform.test/avatars/${code}-${randomId('v', 6)}.${ext}`;
}

function applyProfile(user: WireUser, p: Params): void {
  const text = (k: string) => (typeof p[k] === 'string' ? (p[k] as string) : undefined);
  user.name = text('name') ?? user.name;
  const address = p.address as Partial<WireAddress> | undefined;
  if (address)
    user.address = { ...address, is_default: address.is_default ?? false } as WireAddress;
  if (Array.isArray(p.phones)) {
    user.phones = (p.phones as Partial<WirePhone>[]).map((ph) => ({
      id: ph.id ?? 40000 + Math.floor(Math.random() * 1e6),
      ddi: ph.ddi ?? '55',
      ddd: ph.ddd ?? '',
      type: ph.type ?? '',
      number: ph.number ?? '',
    }));
  }
  for (const k of ['about', 'website', 'recovery_email', 'nickname', 'birth'] as const) {
    if (text(k) !== undefined) user[k] = text(k)!;
  }
  if (typeof p.is_emancipated === 'boolean') user.is_emancipated = p.is_emancipated;
  if (user.type === 'person') user.cpf = text('cpf') ?? user.cpf ?? null;
  else {
    user.cnpj = text('cnpj') ?? user.cnpj ?? null;
    user.company_type = text('company_type') ?? user.company_type ?? null;
  }
  user.avatar = fileUrl(user.code, p.avatar) ?? user.avatar;
  user.is_registration_completed = true;
}

/** Profile and bank-account routes. */
export const userRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/users/update',
    auth: 'user',
    async handle({ form, seller, state }) {
      if (!form) return errorMessage(400, 'The request must be sent as multipart/form-data.');
      const params = formToObject(form);
      const schemaErrors = await validateRequest('updateUser', params);
      if (schemaErrors) return unprocessable(schemaErrors);
      const record = state.users.get(seller!.code)!;
      const errors = stateRules(record.user, record.companyPartnerDefined, params);
      if (Object.keys(errors).length > 0) return unprocessable(errors);
      applyProfile(record.user, params);
      if (record.user.type === 'company') record.companyPartnerDefined = true;
      return json(record.user);
    },
  },
  {
    method: 'POST',
    pattern: '/users/bank-accounts/:hash',
    auth: 'client',
    async handle({ body, params, state }) {
      const account = state.bankAccounts.get(params.hash!);
      if (!account) return errorMessage(404, 'Bank account not found.');
      const errors = await validateRequest('updateBankAccount', body ?? {});
      if (errors) return unprocessable(errors);
      const input = (body ?? {}) as Params;
      // §4.5 names `agency` and `account` among the updatable fields; they are the branch and
      // account numbers of §2.4.
      const aliases: Record<string, string> = {
        agency: 'branch_number',
        account: 'account_number',
      };
      const target = account as unknown as Params;
      for (const [key, value] of Object.entries(input)) {
        const field = aliases[key] ?? key;
        if (field !== 'code' && field !== 'status' && field in account) target[field] = value;
      }
      // Changed bank data goes back to review.
      account.status = 'pending';
      return json(account);
    },
  },
];
