/**
 * Params are closed at run time too (issue 14): a key no schema documents (a typo, a camelCase
 * spelling, a JavaScript caller's guess) is a `RequestValidationError` naming the key and the
 * documented name it most likely meant, and nothing is sent, not even a login. `extraBody` and
 * `extraQuery` send undocumented fields knowingly.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestName, unknownKeyIssues } from '../../src/core/validation/unknown-keys';
import {
  OfferUpdateParamsSchema,
  PartnerClient,
  type PartnerError,
  ProductListParamsSchema,
  RequestValidationError,
  UserUpdateParamsSchema,
} from '../../src/index';
import { paulistaAddress as ADDRESS } from '../helpers/addresses';

const BASE_URL = 'https://partner.test/api/v1';

/** Canned answers by path, enough for each method to succeed. */
function answerFor(request: Request): Response {
  const path = new URL(request.url).pathname.replace('/api/v1', '');
  if (path === '/products')
    return Response.json({ data: [], meta: { current_page: 1, last_page: 1 } });
  if (path === '/financial/anticipation') {
    return Response.json({ status: 'success', data: { anticipations: [], pagination: null } });
  }
  if (path.startsWith('/products/')) return Response.json({ code: 'off_1', price: 100 });
  if (path === '/users/update') {
    return Response.json({
      name: 'Ana',
      code: 'u1',
      status: 'active',
      type: 'person',
      email: 'a@b.c',
    });
  }
  if (path.startsWith('/users/bank-accounts/')) return Response.json({ code: 'acc_1' });
  if (path.startsWith('/financial/refund/')) {
    return Response.json(
      { status: 'processing', data: { transaction_hash: 'tx_1' } },
      { status: 202 },
    );
  }
  if (path.startsWith('/financial/account-statement')) {
    return Response.json({
      status: 'success',
      data: { hash: 'exp_1', status: 'processing', url: null },
    });
  }
  if (path.startsWith('/financial/anticipation/confirm/')) return Response.json({ amount: 1 });
  return new Response('not found', { status: 404 });
}

/** A client on a fake `fetch` that records every request it is asked to send. */
function recordingClient() {
  const sent: Request[] = [];
  const client = new PartnerClient({
    baseUrl: BASE_URL,
    clientToken: 'client-token',
    maxRetries: 0,
    logLevel: 'off',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      sent.push(request.clone());
      return answerFor(request);
    },
  });
  return { client, seller: client.forUser('public-token'), sent };
}

async function refusal(call: Promise<unknown>): Promise<RequestValidationError> {
  const error = await call.then(
    () => undefined,
    (reason: PartnerError) => reason,
  );
  expect(error).toBeInstanceOf(RequestValidationError);
  return error as RequestValidationError;
}

// Each method, a misspelled key, where it is reported and the name suggested. `as never`: the
// types already refuse these keys (test/types/closed-params.test-d.ts); this is the JavaScript caller.
type Seller = ReturnType<typeof recordingClient>['seller'];
const MISSPELLINGS: [string, (seller: Seller) => Promise<unknown>, string, string][] = [
  ['products.list', (s) => s.products.list({ perPage: 10 } as never), 'perPage', 'per_page'],
  [
    'anticipations.list',
    (s) => s.anticipations.list({ per_pag: 10 } as never),
    'per_pag',
    'per_page',
  ],
  [
    'anticipations.confirm',
    (s) => s.anticipations.confirm('ant_1', { scenario: 'above', senario: 'x' } as never),
    'senario',
    'scenario',
  ],
  [
    'offers.update',
    (s) => s.offers.update('prd_1', 'off_1', { prise: 100 } as never),
    'prise',
    'price',
  ],
  [
    'offers.update (nested)',
    (s) => s.offers.update('prd_1', 'off_1', { subscription: { trialDays: 7 } } as never),
    'subscription.trialDays',
    'trial_days',
  ],
  [
    'refunds.request',
    (s) => s.refunds.request('tx_1', { reasn: 'asked' } as never),
    'reasn',
    'reason',
  ],
  [
    'refunds.requestAndWait',
    (s) => s.refunds.requestAndWait('tx_1', { fraudConfirmed: true } as never),
    'fraudConfirmed',
    'fraud_confirmed',
  ],
  [
    'bankAccounts.update',
    (s) => s.bankAccounts.update('acc_1', { holderName: 'Ana' } as never),
    'holderName',
    'holder_name',
  ],
  [
    'users.update',
    (s) => s.users.update({ name: 'Ana Souza', address: ADDRESS, nick_name: 'ana' } as never),
    'nick_name',
    'nickname',
  ],
  [
    'users.update (in an array item)',
    (s) =>
      s.users.update({
        name: 'Ana Souza',
        address: ADDRESS,
        phones: [{ type: 'mobile', numbr: '912345678' }],
      } as never),
    'phones.0.numbr',
    'number',
  ],
  [
    'statements.export',
    (s) =>
      s.statements.export({
        format: 'csv',
        filter: { betweenDate: '01/01/2026,31/01/2026' },
      } as never),
    'filter.betweenDate',
    'betweenDates',
  ],
];

describe('an undocumented params key', () => {
  it.each(MISSPELLINGS)(
    '%s: refused before sending, naming the key and the likely name',
    async (_, call, key, guess) => {
      const { seller, sent } = recordingClient();
      const error = await refusal(call(seller));
      expect(error.issues[0]).toMatchObject({
        path: key.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
        code: 'unrecognized_keys',
      });
      expect(error.issues[0]?.message).toContain(`did you mean \`${guess}\`?`);
      expect(error.message).toContain(
        `${key}: not a documented parameter; did you mean \`${guess}\`?`,
      );
      expect(sent).toHaveLength(0);
    },
  );

  it('is reported together with the other broken rules, the unknown key first', async () => {
    const { seller, sent } = recordingClient();
    const error = await refusal(
      seller.offers.update('prd_1', 'off_1', { prise: 1, price: -1 } as never),
    );
    expect(error.issues.map((issue) => issue.path.join('.'))).toEqual(['prise', 'price']);
    expect(sent).toHaveLength(0);
  });

  it('gets no suggestion when no documented name is close', async () => {
    const { client, sent } = recordingClient();
    const error = await refusal(client.products.list({ colour: 'red' } as never));
    expect(error.issues[0]?.message).toBe('not a documented parameter');
    expect(sent).toHaveLength(0);
  });

  it('is refused also as an own `__proto__` key (a JSON-parsed object), without touching prototypes', async () => {
    const { client, sent } = recordingClient();
    const params = JSON.parse('{"__proto__": {"polluted": true}, "page": 1}');
    const error = await refusal(client.products.list(params));
    expect(error.issues[0]?.path).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(sent).toHaveLength(0);
  });

  it('does not affect documented keys, even with undefined values', async () => {
    const { client, sent } = recordingClient();
    await client.products.list({ page: undefined, per_page: 10 });
    expect(new URL(sent[0]!.url).search).toBe('?per_page=10');
  });
});

describe('closestName', () => {
  it('finds the same name in another case or separator style', () => {
    expect(closestName('perPage', ['page', 'per_page'])).toBe('per_page');
    expect(closestName('HOLDER-NAME', ['holder_name', 'pix_key'])).toBe('holder_name');
  });

  it('finds a near misspelling, and nothing for a name far from every documented one', () => {
    expect(closestName('prise', ['name', 'price', 'fake_initial_price'])).toBe('price');
    expect(closestName('reasn', ['observation', 'reason'])).toBe('reason');
    expect(closestName('colour', ['page', 'per_page'])).toBeUndefined();
    expect(closestName('', ['page'])).toBeUndefined();
  });
});

describe('unknownKeyIssues (property)', () => {
  const documented = Object.keys(OfferUpdateParamsSchema._zod.def.shape);

  it('reports exactly the keys the schema does not document, at any nesting of the walk', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof(fc.constantFrom(...documented), fc.string({ maxLength: 12 })), {
          maxLength: 8,
        }),
        (keys) => {
          const value = Object.fromEntries(keys.map((key) => [key, 1]));
          const reported = unknownKeyIssues(OfferUpdateParamsSchema, value).map((i) => i.path[0]);
          expect(reported.sort()).toEqual(keys.filter((key) => !documented.includes(key)).sort());
        },
      ),
    );
  });

  it('never throws on values of any shape', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        unknownKeyIssues(UserUpdateParamsSchema, value);
        unknownKeyIssues(ProductListParamsSchema, value);
      }),
    );
  });
});

describe('extraBody and extraQuery', () => {
  it('send an undocumented body field knowingly, next to the checked params', async () => {
    const { seller, sent } = recordingClient();
    await seller.offers.update(
      'prd_1',
      'off_1',
      { price: 100 },
      { extraBody: { checkout_theme: 'dark' } },
    );
    expect(await sent[0]!.json()).toEqual({ price: 100, checkout_theme: 'dark' });
  });

  it('merge into a nested object, keeping its checked fields', async () => {
    const { seller, sent } = recordingClient();
    await seller.statements.export(
      { format: 'csv', filter: { betweenDates: { start: '2026-01-01', end: '2026-01-31' } } },
      { extraBody: { filter: { type: 'credit' } } },
    );
    expect(await sent[0]!.json()).toEqual({
      format: 'csv',
      filter: { betweenDates: '01/01/2026,31/01/2026', type: 'credit' },
    });
  });

  it('send a field named __proto__ as a field, never as the prototype of the body', async () => {
    const { seller, sent } = recordingClient();
    const extraBody = JSON.parse('{"__proto__":{"price":5},"constructor":{"prototype":{"p":1}}}');
    await seller.offers.update('prd_1', 'off_1', { name: 'Oferta' }, { extraBody });
    expect(await sent[0]!.text()).toBe(
      '{"name":"Oferta","__proto__":{"price":5},"constructor":{"prototype":{"p":1}}}',
    );
    expect(({} as Record<string, unknown>).price).toBeUndefined();
  });

  it('send an undocumented query parameter knowingly', async () => {
    const { client, sent } = recordingClient();
    await client.products.list({ per_page: 5 }, { extraQuery: { status: 'approved' } });
    const query = new URL(sent[0]!.url).searchParams;
    expect(Object.fromEntries(query)).toEqual({ per_page: '5', status: 'approved' });
  });

  it('add to a multipart body in its bracket form', async () => {
    const { seller, sent } = recordingClient();
    await seller.users.update(
      { name: 'Ana Souza', address: ADDRESS, cpf: '123.456.789-09', birth: '1990-04-01' },
      { extraBody: { marketing: { opt_in: true } } },
    );
    const form = await sent[0]!.formData();
    expect(form.get('marketing[opt_in]')).toBe('1');
    expect(form.get('address[city]')).toBe('São Paulo');
  });

  it('are refused, nothing sent, on a call without a body', async () => {
    const { client, sent } = recordingClient();
    const error = await refusal(client.products.retrieve('prd_1', { extraBody: { x: 1 } }));
    expect(error.issues[0]).toMatchObject({ path: ['extraBody'] });
    expect(sent).toHaveLength(0);
  });
});
