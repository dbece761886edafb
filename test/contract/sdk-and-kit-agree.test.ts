/**
 * The contract between the SDK's request validation and the testing kit's (issue 15): for every
 * SDK method, at each documented limit (spec §2.2, §2.3, §4, §8), a value the SDK accepts is
 * accepted by the kit, and a value the SDK refuses before sending (`RequestValidationError`) is
 * refused by the kit with a 422 naming the same field when sent raw. The two validations are
 * written independently (src/schemas vs src/testing/validation), so an over-strict or over-lax
 * rule on either side fails here.
 *
 * Strings are judged as a Laravel service reads them: trimmed, a blank one as missing.
 *
 * Rules the spec does not state are accepted by both (the kit's `assumedRules` switches, the SDK's
 * warnings): a future birth, a non-image avatar, a reversed export range, a company partner's cpf
 * in another format, both tax ids.
 *
 * Deliberately outside the contract: rules that need the service's state or the clock (the SDK
 * leaves them to the service: see the last block), unknown keys (the SDK refuses them to catch
 * typos; a Laravel service ignores them), JSON types (Laravel accepts `"5"` for an integer) and a
 * `birth` in a form other than `YYYY-MM-DD` (the spec shows no format; the SDK checks only that a
 * `YYYY-MM-DD` date is a real day, and leaves other forms to the service, whose `date` rule reads
 * more of them than the kit does).
 */
import { describe, expect, it } from 'vitest';
import { type PartnerClient, RequestValidationError, UnprocessableEntityError } from '../../src';
import type { MockPartnerApi } from '../../src/testing';
import { paulistaAddress as address } from '../helpers/addresses';
import { toForm } from './form';
import { sellerOnKit } from './kit-seller';

type Seller = ReturnType<PartnerClient['forUser']>;
type Loose = Record<string, unknown>;

interface Endpoint {
  /** Calls the SDK method with `params`. */
  sdk(seller: Seller, mock: MockPartnerApi, params: Loose): Promise<unknown>;
  /** Sends `params` raw, past the SDK's validation. */
  raw(seller: Seller, mock: MockPartnerApi, params: Loose): Promise<unknown>;
  /** A valid request, which each case changes at one field. */
  base(mock: MockPartnerApi): Loose;
  /** The seller it acts for. */
  as?: 'person' | 'company';
}

const offerPath = (mock: MockPartnerApi, key: 'course' | 'recurring') =>
  `/products/${mock.products[key].hash}/offers/${mock.products[key].offerCode}`;

const offer = (key: 'course' | 'recurring'): Endpoint => ({
  sdk: (s, m, p) => s.offers.update(m.products[key].hash, m.products[key].offerCode, p as never),
  raw: (s, m, p) => s.request({ method: 'PUT', path: offerPath(m, key), body: p }),
  base: () => ({}),
});

const ENDPOINTS = {
  'users.update (person)': {
    sdk: (s, _m, p) => s.users.update(p as never),
    raw: (s, _m, p) => s.request({ method: 'POST', path: '/users/update', form: toForm(p) }),
    base: () => ({
      name: 'Maria Aparecida Souza',
      address,
      cpf: '529.982.247-25',
      birth: '1988-04-12',
      phones: [{ type: 'mobile', ddd: '11', number: '912345678' }],
    }),
  },
  'users.update (company)': {
    as: 'company',
    sdk: (s, _m, p) => s.users.update(p as never),
    raw: (s, _m, p) => s.request({ method: 'POST', path: '/users/update', form: toForm(p) }),
    base: () => ({
      name: 'Editora Horizonte',
      address,
      cnpj: '11.222.333/0001-81',
      company_type: 'simple',
      social_name: 'Editora Horizonte Digital Ltda',
      company_partner: { name: 'Roberto Lima', cpf: '529.982.247-25', birth: '1975-09-30' },
    }),
  },
  'bankAccounts.update': {
    sdk: (s, m, p) => s.bankAccounts.update(m.bankAccounts.pix, p as never),
    raw: (s, m, p) =>
      s.request({ method: 'POST', path: `/users/bank-accounts/${m.bankAccounts.pix}`, body: p }),
    base: () => ({ holder_name: 'Maria Aparecida Souza' }),
  },
  'offers.update (one-time)': offer('course'),
  'offers.update (recurring)': offer('recurring'),
  'refunds.request': {
    sdk: (s, m, p) => s.refunds.request(m.transactions.refundable[0]!, p as never),
    raw: (s, m, p) =>
      s.request({
        method: 'POST',
        path: `/financial/refund/${m.transactions.refundable[0]}`,
        body: p,
      }),
    base: () => ({ reason: 'Customer asked' }),
  },
  'statements.export': {
    sdk: (s, _m, p) => s.statements.export(p as never),
    raw: (s, _m, p) =>
      s.request({ method: 'POST', path: '/financial/account-statement/export-report', body: p }),
    base: () => ({ format: 'csv', filter: { betweenDates: '01/02/2025,28/02/2025' } }),
  },
  'anticipations.confirm': {
    sdk: (s, m, p) => s.anticipations.confirm(m.anticipations.confirmable[0]!, p as never),
    raw: (s, m, p) =>
      s.request({
        method: 'POST',
        path: `/financial/anticipation/confirm/${m.anticipations.confirmable[0]}`,
        body: p,
      }),
    base: () => ({ scenario: 'above' }),
  },
  'anticipations.list': {
    sdk: (s, _m, p) => s.anticipations.list(p as never),
    raw: (s, _m, p) =>
      s.request({ method: 'GET', path: '/financial/anticipation', query: p as never }),
    base: () => ({}),
  },
  'products.list': {
    sdk: (s, _m, p) => s.products.list(p as never),
    raw: (s, _m, p) => s.request({ method: 'GET', path: '/products', query: p as never }),
    base: () => ({}),
  },
} satisfies Record<string, Endpoint>;

type Name = keyof typeof ENDPOINTS;

/** One edge: `field` (dot path) set to each value, which both sides accept or both refuse. */
interface Edge {
  endpoint: Name;
  field: string;
  accepted?: unknown[];
  refused?: unknown[];
  /** Fields set beside the one under test. */
  with?: Loose;
}

const x = (n: number) => 'x'.repeat(n);
const text191 = (endpoint: Name, field: string): Edge => ({
  endpoint,
  field,
  accepted: [x(191)],
  refused: [x(192)],
});

const EDGES: Edge[] = [
  // Profile (§2.2, §2.3, §4.1, §8).
  {
    endpoint: 'users.update (person)',
    field: 'name',
    accepted: ['Ana', x(191)],
    refused: ['Jo', x(192), undefined],
  },
  {
    endpoint: 'users.update (person)',
    field: 'address.zip_code',
    accepted: ['01310-100'],
    refused: ['01310100', '01310-1000', undefined],
  },
  {
    endpoint: 'users.update (person)',
    field: 'address.state',
    accepted: ['SP', 'rj'],
    refused: ['S', 'SPX', '1A'],
  },
  ...['city', 'country', 'street', 'street_number', 'neighborhood', 'complement'].map((f) =>
    text191('users.update (person)', `address.${f}`),
  ),
  { endpoint: 'users.update (person)', field: 'address.city', refused: [undefined] },
  { endpoint: 'users.update (person)', field: 'address', refused: [undefined] },
  {
    endpoint: 'users.update (person)',
    field: 'phones.0.number',
    accepted: ['12345678', '123456789'],
    refused: ['1234567', '1234567890', '1234-5678'],
  },
  {
    endpoint: 'users.update (person)',
    field: 'phones.0.ddi',
    accepted: ['55', '12345'],
    refused: ['123456'],
  },
  { endpoint: 'users.update (person)', field: 'phones.0.ddd', accepted: ['11'], refused: ['111'] },
  {
    endpoint: 'users.update (person)',
    field: 'phones.0.type',
    accepted: ['work', x(191)],
    refused: [x(192), undefined],
  },
  {
    endpoint: 'users.update (person)',
    field: 'phones.0.id',
    accepted: [1, 999_999_999],
    refused: [0, 1_000_000_000],
  },
  text191('users.update (person)', 'nickname'),
  {
    endpoint: 'users.update (person)',
    field: 'website',
    accepted: ['https://mariasouza.com.br', 'http://127.0.0.1:8080/loja?a=1'],
    refused: ['mariasouza dot com', 'javascript:alert(1)', 'mailto:maria@example.com.br'],
  },
  {
    endpoint: 'users.update (person)',
    field: 'recovery_email',
    accepted: ['maria@example.com.br'],
    refused: ['maria.example.com.br'],
  },
  {
    endpoint: 'users.update (person)',
    field: 'cpf',
    accepted: ['529.982.247-25'],
    refused: ['52998224725', '529.982.247-2'],
  },
  { endpoint: 'users.update (person)', field: 'birth', refused: [undefined] },
  {
    endpoint: 'users.update (company)',
    field: 'cnpj',
    accepted: ['11.222.333/0001-81'],
    refused: ['11222333000181'],
  },
  {
    endpoint: 'users.update (company)',
    field: 'company_type',
    accepted: ['mei', 'simple', 'presumed', 'real'],
    refused: ['ltda', undefined],
  },
  {
    endpoint: 'users.update (company)',
    field: 'social_name',
    accepted: [x(191)],
    refused: [x(192), undefined],
  },
  text191('users.update (company)', 'company_partner.name'),
  // Rules the spec does not state, accepted by both (the kit refuses them only behind its
  // `assumedRules` switches; the SDK sends them, warning where it suspects a mistake).
  {
    endpoint: 'users.update (person)',
    field: 'birth',
    accepted: ['2999-01-01'],
  },
  {
    endpoint: 'users.update (person)',
    field: 'avatar',
    accepted: [new File(['plain text'], 'me.png', { type: 'image/png' })],
  },
  // Both tax ids: the variant is not told by the body (§4.1 rule 1), so neither variant's own
  // fields are required by either side.
  {
    endpoint: 'users.update (person)',
    field: 'cnpj',
    accepted: ['11.222.333/0001-81'],
  },
  // Not in §4.6's request table, bounded by §8's "affiliate commission percentages": both accept
  // it within 1 to 80 (the one-time row above holds the bounds), on a recurring offer too.
  {
    endpoint: 'offers.update (recurring)',
    field: 'affiliates_percentage',
    accepted: [1, 80],
    refused: [0, 81],
  },
  // The spec gives `cpf`'s format for the user, not the partner: both accept any text (the SDK
  // warns about one not in the user's format).
  {
    endpoint: 'users.update (company)',
    field: 'company_partner.cpf',
    accepted: ['529.982.247-25', '529.982.247/25', '52998224725'],
  },
  // Whitespace (a Laravel service trims every string and reads a blank one as missing).
  {
    endpoint: 'users.update (person)',
    field: 'name',
    accepted: ['  Ana  ', ` ${x(191)}\t`],
    refused: ['  Jo ', '   ', '\n\t'],
  },
  // Characters as mb_strlen counts them (code points), after Laravel's trim (zero-width spaces,
  // marks and NUL at the ends too): an accent written apart counts, an emoji is one.
  {
    endpoint: 'users.update (person)',
    field: 'name',
    accepted: [`\u200B${x(191)}\u200E\0`, '😀'.repeat(191), `${'e\u0301'.repeat(95)}a`],
    refused: ['\u200BJo\u200B', 'e\u0301', '😀'.repeat(192), 'e\u0301'.repeat(96)],
  },
  ...['city', 'country', 'street', 'street_number', 'neighborhood'].map((f) => ({
    endpoint: 'users.update (person)' as const,
    field: `address.${f}`,
    accepted: [` ${x(191)} `],
    refused: ['   '],
  })),
  {
    endpoint: 'users.update (person)',
    field: 'address.zip_code',
    accepted: [' 01310-100 '],
    refused: ['  '],
  },
  { endpoint: 'users.update (person)', field: 'address.state', accepted: [' SP '], refused: [' '] },
  {
    endpoint: 'users.update (person)',
    field: 'address.complement',
    accepted: ['   ', ` ${x(191)} `],
    refused: [` ${x(192)} `],
  },
  {
    endpoint: 'users.update (person)',
    field: 'phones.0.type',
    accepted: [' mobile '],
    refused: ['  '],
  },
  {
    endpoint: 'users.update (person)',
    field: 'phones.0.number',
    accepted: [' 912345678 ', '  '],
    refused: [' 9123 4567 '],
  },
  { endpoint: 'users.update (person)', field: 'phones.0.ddd', accepted: [' 11 '] },
  {
    endpoint: 'users.update (person)',
    field: 'nickname',
    accepted: ['  ', ` ${x(191)} `],
    refused: [` ${x(192)} `],
  },
  {
    endpoint: 'users.update (person)',
    field: 'website',
    accepted: [' https://mariasouza.com.br ', '   '],
  },
  { endpoint: 'users.update (person)', field: 'recovery_email', accepted: ['  '] },
  {
    endpoint: 'users.update (person)',
    field: 'cpf',
    accepted: [' 529.982.247-25 '],
    refused: ['529.982. 247-25'],
  },
  { endpoint: 'users.update (person)', field: 'birth', refused: ['   '] },
  {
    endpoint: 'users.update (company)',
    field: 'social_name',
    accepted: [` ${x(191)} `],
    refused: ['  '],
  },
  {
    endpoint: 'users.update (company)',
    field: 'company_type',
    accepted: [' mei '],
    refused: ['  '],
  },
  { endpoint: 'bankAccounts.update', field: 'receiver_type', accepted: [' pix ', '  '] },
  {
    endpoint: 'bankAccounts.update',
    field: 'branch_number',
    accepted: [` ${x(20)} `],
    refused: [` ${x(21)} `],
  },
  {
    endpoint: 'offers.update (one-time)',
    field: 'type_of_charge',
    accepted: [' recurring ', '  '],
    refused: [' weekly '],
  },
  {
    endpoint: 'offers.update (recurring)',
    field: 'pix_recurring_frequency',
    with: {
      allow_pix_recurring: true,
      pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
    },
    accepted: [' monthly '],
    refused: ['   '],
  },
  {
    endpoint: 'refunds.request',
    field: 'reason',
    accepted: [`\n${x(1000)}\n`, '  '],
    refused: [` ${x(1001)} `],
  },
  {
    endpoint: 'anticipations.confirm',
    field: 'scenario',
    accepted: [' below '],
    refused: ['  '],
  },
  // Birth (§4.1 "string (date)", format not shown): a YYYY-MM-DD date must be a real day.
  {
    endpoint: 'users.update (person)',
    field: 'birth',
    accepted: ['1988-02-29', '2000-02-29', '1988-04-30', ' 1988-04-12 '],
    refused: ['1989-02-29', '1900-02-29', '1988-04-31', '1988-13-01', '1988-00-10'],
  },
  {
    endpoint: 'users.update (company)',
    field: 'company_partner.birth',
    accepted: ['1975-09-30', '  '],
    refused: ['1975-09-31', '1975-02-29'],
  },
  // Bank account (§2.4, §4.5).
  text191('bankAccounts.update', 'holder_name'),
  {
    endpoint: 'bankAccounts.update',
    field: 'receiver_type',
    accepted: ['pix', 'bank'],
    refused: ['wire'],
  },
  {
    endpoint: 'bankAccounts.update',
    field: 'pix_key',
    accepted: [x(191), null],
    refused: [x(192)],
  },
  ...(['branch_number', 'account_number'] as const).map((field) => ({
    endpoint: 'bankAccounts.update' as const,
    field,
    accepted: [x(20)],
    refused: [x(21)],
  })),
  ...(['branch_check_digit', 'account_check_digit'] as const).map((field) => ({
    endpoint: 'bankAccounts.update' as const,
    field,
    accepted: [x(3)],
    refused: [x(4)],
  })),
  // Offer (§2.6, §4.6, §8).
  text191('offers.update (one-time)', 'name'),
  {
    endpoint: 'offers.update (one-time)',
    field: 'price',
    accepted: [0, 99_999_999],
    refused: [-1, 100_000_000, 1.5],
  },
  {
    endpoint: 'offers.update (one-time)',
    field: 'fake_initial_price',
    accepted: [0, 29_700],
    refused: [9.9],
  },
  {
    endpoint: 'offers.update (one-time)',
    field: 'type_of_charge',
    accepted: ['one-time', 'recurring'],
    refused: ['weekly'],
  },
  {
    endpoint: 'offers.update (one-time)',
    field: 'quantity_items',
    accepted: [1, 100],
    refused: [0, 101],
  },
  {
    endpoint: 'offers.update (one-time)',
    field: 'bank_slip_days_due',
    accepted: [1, 7],
    refused: [0, 8],
  },
  {
    endpoint: 'offers.update (one-time)',
    field: 'bank_slip_installments_limit',
    accepted: [1, 12],
    refused: [0, 13],
  },
  {
    endpoint: 'offers.update (one-time)',
    field: 'credit_card_installments_options.0',
    accepted: [1, 36],
    refused: [0, 37],
  },
  {
    endpoint: 'offers.update (one-time)',
    field: 'affiliates_percentage',
    accepted: [1, 80, 12.5],
    refused: [0.99, 80.01],
  },
  {
    endpoint: 'offers.update (recurring)',
    field: 'affiliates_subscription_percentage',
    accepted: [1, 80],
    refused: [0.5, 81],
  },
  {
    endpoint: 'offers.update (recurring)',
    field: 'pix_recurring_frequency',
    with: {
      allow_pix_recurring: true,
      pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
    },
    accepted: ['weekly', 'biweekly', 'monthly', 'quarterly', 'biannual', 'annual'],
    refused: ['daily', undefined],
  },
  {
    endpoint: 'offers.update (recurring)',
    field: 'pix_recurring_authorization_type',
    with: { allow_pix_recurring: true, pix_recurring_frequency: 'monthly' },
    accepted: ['monthly_auth_monthly_retry'],
    refused: ['monthly_auth', undefined],
  },
  // Recurring-only fields, judged on the type in the body.
  ...(['commission_only_first_installment', 'allow_pix_recurring'] as const).map((field) => ({
    endpoint: 'offers.update (one-time)' as const,
    field,
    with: { type_of_charge: 'one-time' },
    accepted: [false],
    refused: [true],
  })),
  {
    endpoint: 'offers.update (one-time)',
    field: 'subscription',
    with: { type_of_charge: 'one-time' },
    refused: [{ max_charges: 12 }],
  },
  {
    endpoint: 'offers.update (one-time)',
    field: 'allow_bank_slip_installments',
    with: { type_of_charge: 'recurring' },
    accepted: [false],
    refused: [true],
  },
  {
    endpoint: 'offers.update (recurring)',
    field: 'subscription.max_charges',
    accepted: [12],
    refused: [1.5],
  },
  // Refund (§4.2, §8).
  { endpoint: 'refunds.request', field: 'reason', accepted: [x(1000)], refused: [x(1001)] },
  // Statement export (§4.4): two real days. The order is not stated: both accept a reversed
  // range (the SDK warns, the kit refuses it only behind `assumedRules.exportRangeInOrder`).
  {
    endpoint: 'statements.export',
    field: 'filter.betweenDates',
    accepted: [
      '01/01/2025,31/01/2025',
      '31/01/2025,31/01/2025',
      '29/02/2024,01/03/2024',
      '29/02/2000,01/03/2000',
      ' 01/01/2025,31/01/2025\n',
      '   ',
      '01/03/2025,28/02/2025',
      '01/02/2025,31/01/2025',
    ],
    refused: [
      '2025-01-01,2025-01-31',
      '01/01/2025',
      '01/01/2025;31/01/2025',
      '01/01/2025, 31/01/2025',
      '31/02/2025,01/03/2025',
      '29/02/2025,01/03/2025',
      '29/02/1900,01/03/1900',
      '01/01/2025,32/01/2025',
      '00/01/2025,31/01/2025',
      '01/13/2025,31/12/2025',
    ],
  },
  // Anticipations (§4.7, §4.8, §8).
  {
    endpoint: 'anticipations.confirm',
    field: 'scenario',
    accepted: ['above', 'below'],
    refused: ['middle', undefined],
  },
  { endpoint: 'anticipations.list', field: 'page', accepted: [1, 2], refused: [0] },
  { endpoint: 'anticipations.list', field: 'per_page', accepted: [1, 100], refused: [0, 101] },
  // Products (§4.10, §8).
  { endpoint: 'products.list', field: 'page', accepted: [1, 999], refused: [0, 1000] },
  { endpoint: 'products.list', field: 'per_page', accepted: [1, 50], refused: [0, 51] },
];

/** A deep copy of `base` with `field` (dot path) set to `value` (`undefined` removes it). */
function withField(base: Loose, field: string, value: unknown): Loose {
  const copy = structuredClone(base);
  const keys = field.split('.');
  let node: Loose = copy;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= /^\d+$/.test(keys[keys.indexOf(key) + 1] ?? '') ? [] : {};
    node = node[key] as Loose;
  }
  const last = keys.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

const setup = (endpoint: Endpoint) => sellerOnKit(endpoint.as);

const show = (v: unknown) =>
  typeof v === 'string' && v.length > 30 ? `"${v.slice(0, 3)}…" (${v.length})` : JSON.stringify(v);

const cases = (pick: (e: Edge) => unknown[] | undefined) =>
  EDGES.flatMap((e) =>
    (pick(e) ?? []).map((v) => [`${e.endpoint} ${e.field}`, show(v), e, v] as const),
  );
const accepted = cases((e) => e.accepted);
const refused = cases((e) => e.refused);

describe('the SDK and the kit agree at every documented limit', () => {
  it.each(Object.keys(ENDPOINTS))('%s: its valid base request passes both', async (name) => {
    const endpoint = ENDPOINTS[name as Name] as Endpoint;
    const { mock, seller } = setup(endpoint);
    await expect(endpoint.sdk(seller, mock, endpoint.base(mock))).resolves.toBeDefined();
  });

  it.each(accepted)('%s: the SDK and the kit accept %s', async (_name, _shown, edge, value) => {
    const endpoint = ENDPOINTS[edge.endpoint] as Endpoint;
    const { mock, seller } = setup(endpoint);
    const params = withField({ ...endpoint.base(mock), ...edge.with }, edge.field, value);
    const answer = await endpoint.sdk(seller, mock, params).catch((error: unknown) => error);
    if (answer instanceof Error) {
      const detail =
        answer instanceof UnprocessableEntityError ? JSON.stringify(answer.fieldErrors) : '';
      expect.fail(`${edge.endpoint} ${edge.field}=${show(value)}: ${answer.message} ${detail}`);
    }
  });

  it.each(refused)(
    '%s: the SDK refuses %s before sending, the kit with a 422',
    async (_name, _shown, edge, value) => {
      const endpoint = ENDPOINTS[edge.endpoint] as Endpoint;
      const { mock, seller } = setup(endpoint);
      const params = withField({ ...endpoint.base(mock), ...edge.with }, edge.field, value);

      const before = mock.stats.requests;
      const local = await endpoint.sdk(seller, mock, params).catch((error: unknown) => error);
      expect(local, `the SDK accepted ${edge.field}=${show(value)}`).toBeInstanceOf(
        RequestValidationError,
      );
      expect((local as RequestValidationError).issues.map((i) => i.path.join('.'))).toContain(
        edge.field,
      );
      expect(mock.stats.requests).toBe(before);

      const remote = await endpoint.raw(seller, mock, params).catch((error: unknown) => error);
      expect(remote, `the kit accepted ${edge.field}=${show(value)}`).toBeInstanceOf(
        UnprocessableEntityError,
      );
      expect(Object.keys((remote as UnprocessableEntityError).fieldErrors)).toContain(edge.field);
    },
  );
});

describe('rules of state and clock: the SDK sends, the kit answers the service’s 422', () => {
  it('a future birth, an under-18 person without emancipation, a non-image avatar (the unstated rules switched on)', async () => {
    const endpoint: Endpoint = ENDPOINTS['users.update (person)'];
    for (const [field, value] of [
      ['birth', '2999-01-01'],
      ['birth', `${new Date().getUTCFullYear() - 10}-01-01`],
      ['avatar', new File(['plain text'], 'me.png', { type: 'image/png' })],
    ] as const) {
      const { mock, seller } = sellerOnKit('person', {
        assumedRules: { birthBeforeToday: true, avatarIsImage: true },
      });
      const error = await endpoint
        .sdk(seller, mock, withField(endpoint.base(mock), field, value))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnprocessableEntityError);
    }
  });

  it('quantity_items and freight of a physical product, recurring-only fields on a stored one-time offer', async () => {
    const { mock, seller } = setup(offer('course'));
    const { physical, course } = mock.products;
    await expect(
      seller.offers.update(physical.hash, physical.offerCode, { price: 4990 }),
    ).rejects.toBeInstanceOf(UnprocessableEntityError);
    await expect(
      seller.offers.update(course.hash, course.offerCode, {
        commission_only_first_installment: true,
      }),
    ).rejects.toBeInstanceOf(UnprocessableEntityError);
  });
});
