/**
 * `mock.addSeller`: a seller beyond the two seeded ones, for a platform partner's tests of many
 * sellers kept apart. It is registered where the seeded sellers are (the bearers, the users, the
 * per-seller histories), so every rule that keeps the seeded two apart holds for it too.
 *
 * @module
 */

import { addedUser } from './fixtures/users';
import { type MockSeller, type MockState, randomId } from './state';

/** What `mock.addSeller` takes: the seller's type, and optionally its name and e-mail. */
export interface MockSellerOptions {
  /** `person` (registered with a CPF) or `company` (with a CNPJ): the rules of its profile updates. */
  type: 'person' | 'company';
  /** The seller's name. Default `Seller N`, N its place among the kit's sellers. */
  name?: string;
  /** The seller's e-mail. Default `seller-N@example.com.br`. */
  email?: string;
}

/** A code no seller of the kit has yet: `usr_` and 8 lower-case letters or digits. */
function freshCode(state: MockState): string {
  for (;;) {
    const code = randomId('usr', 8, 'abcdefghijklmnopqrstuvwxyz0123456789');
    if (!state.users.has(code)) return code;
  }
}

function textOption(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw new TypeError(`addSeller: ${name} must be a non-empty string, got ${String(value)}`);
}

/** Adds a seller owning nothing: no transaction, bank account, product, anticipation or fee tier. */
export function addSeller(state: MockState, options: MockSellerOptions): MockSeller {
  const type = (options as Partial<MockSellerOptions> | undefined)?.type;
  if (type !== 'person' && type !== 'company') {
    throw new TypeError(`addSeller: type must be 'person' or 'company', got ${String(type)}`);
  }
  const place = state.sellers.length + 1;
  const name = textOption('name', options.name) ?? `Seller ${place}`;
  const email = textOption('email', options.email) ?? `seller-${place}@example.com.br`;
  const user = addedUser(freshCode(state), type, name, email);
  // A company's first profile update must name its partner, as the seeded company's must.
  state.users.set(user.code, { user, companyPartnerDefined: type === 'person' });
  state.anticipations.set(user.code, []);
  state.feeTiers.set(user.code, []);
  const seller: MockSeller = { code: user.code, type, publicToken: user.public_token! };
  state.sellers.push(seller);
  return { ...seller };
}
