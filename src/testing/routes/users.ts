/**
 * `POST /users/update` (spec §4.1, multipart, bearer required) and
 * `POST /users/bank-accounts/{account_hash}` (spec §4.5).
 *
 * The kit's own rules (`validation/rules.ts`) include those that depend on the service's state or
 * the clock, which the SDK leaves to the service: the tax id and required fields of the seller's
 * stored type, `company_partner` required on a company's first update and prohibited once defined,
 * and the emancipation fields of a person under 18. The person or company variant of §4.1 is the
 * one of the seller's stored type. Rules the spec does not state (a birth before today, an avatar
 * that is an image, a bank-account update sending the account back to `pending`) apply only when
 * the seed's `assumedRules` turns them on.
 *
 * @module
 */

import { formToObject } from '../multipart';
import { errorMessage, json, unprocessable } from '../respond';
import type { Route } from '../router';
import { randomId } from '../state';
import { laravelInput, validate } from '../validation/laravel';
import { BANK_ACCOUNT_RULES, profileRules } from '../validation/rules';
import type { WireAddress, WirePhone, WireUser } from '../wire';

type Params = Record<string, unknown>;

function fileUrl(code: string, file: unknown): string | undefined {
  if (!(file instanceof Blob)) return undefined;
  const ext = file.type === 'image/png' ? 'png' : 'jpg';
  return `https://cdn.partner-platform.test/avatars/${code}-${randomId('v', 6)}.${ext}`;
}

function applyProfile(user: WireUser, p: Params): void {
  const text = (k: string) => (typeof p[k] === 'string' ? (p[k] as string) : undefined);
  user.name = text('name') ?? user.name;
  const address = p.address as Partial<WireAddress> | undefined;
  if (address) {
    const pick = (k: keyof WireAddress) => address[k] as string;
    user.address = {
      zip_code: pick('zip_code'),
      city: pick('city'),
      state: pick('state'),
      country: pick('country'),
      street: pick('street'),
      street_number: pick('street_number'),
      neighborhood: pick('neighborhood'),
      complement: address.complement ?? null,
      is_default: address.is_default ?? false,
    };
  }
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
    async handle({ form, accountCode, state }) {
      if (!form) return errorMessage(400, 'The request must be sent as multipart/form-data.');
      const params = laravelInput(formToObject(form), state.shapes.strings) as Params;
      const record = state.users.get(accountCode)!;
      const rules = profileRules({
        type: record.user.type,
        companyPartnerDefined: record.companyPartnerDefined,
        birth: params.birth,
        rules: state.shapes.rules,
        now: state.clock.now(),
      });
      const errors = await validate(params, rules);
      if (errors) return unprocessable(errors);
      applyProfile(record.user, params);
      if (record.user.type === 'company') record.companyPartnerDefined = true;
      return json(record.user);
    },
  },
  {
    method: 'POST',
    pattern: '/users/bank-accounts/:hash',
    auth: 'user',
    async handle({ body, params, state, accountCode }) {
      const stored = state.bankAccounts.get(params.hash!);
      // Another seller's account is not found, as the service keeps each account's apart.
      if (!stored || stored.seller !== accountCode)
        return errorMessage(404, 'Bank account not found.');
      const { account } = stored;
      const input = laravelInput(body ?? {}, state.shapes.strings) as Params;
      const errors = await validate(input, BANK_ACCOUNT_RULES);
      if (errors) return unprocessable(errors);
      // §4.5 names `agency` and `account` among the updatable fields; they are the branch and
      // account numbers of §2.4.
      const aliases = new Map([
        ['agency', 'branch_number'],
        ['account', 'account_number'],
      ]);
      const target = account as unknown as Params;
      for (const [key, value] of Object.entries(input)) {
        const field = aliases.get(key) ?? key;
        // Only the account's own fields: a key an object inherits (`toString`, `__proto__`) is none.
        const updatable = field !== 'code' && field !== 'status' && Object.hasOwn(account, field);
        if (updatable) target[field] = value;
      }
      // An assumption, off by default: the spec shows no transition of the status (§3).
      if (state.shapes.rules.bankAccountUpdateResetsStatus) account.status = 'pending';
      return json(account);
    },
  },
];
