/**
 * Nothing secret or personal reaches an exporter: secrets, tokens, hashes and personal data are fed
 * through every operation and through every failure path (answers that echo them in bodies,
 * headers and `Location`, refused logins, 422s, 429s, 5xx, connection failures whose messages
 * quote them, webhook handlers that throw them), and every exported span name, attribute, event
 * and status, and every metric data point, is searched for them.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestRefunds } from '../../src/bulk';
import { createMockPartnerApi } from '../../src/testing/index';
import { createWebhookHandler } from '../../src/webhooks';
import { useOtel } from '../helpers/otel-harness';
import { assertWithinBudget } from '../helpers/property-budget';
import { kit } from '../helpers/virtual-kit';

const otel = useOtel();

const token = fc.stringMatching(/^[A-Za-z0-9]{16,24}$/);
const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));
const secretsArbitrary = fc.record({
  clientId: token,
  clientSecret: token,
  clientToken: token,
  publicToken: token,
  transactionHash: token,
  productHash: token,
  accountHash: token,
  exportHash: token,
  cpf: fc
    .tuple(digits(3), digits(3), digits(3), digits(2))
    .map(([a, b, c, d]) => `${a}.${b}.${c}-${d}`),
  accountNumber: digits(11),
  pixKey: token.map((local) => `${local}@example.com`),
});
type Secrets = typeof secretsArbitrary extends fc.Arbitrary<infer T> ? T : never;

const answerKinds = ['ok', '202', '401', '422', '429', '500', 'reset'] as const;
type AnswerKind = (typeof answerKinds)[number];

/** A service that answers each request the next way in `kinds`, echoing every secret it can. */
function echoingService(secrets: Secrets, kinds: AnswerKind[]) {
  let next = 0;
  const everything = Object.values(secrets).join(' ');
  return async (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.url.endsWith('/auth')) {
      return Response.json({ client_token: secrets.clientToken, echo: everything });
    }
    const kind = kinds[next++ % kinds.length]!;
    const headers = {
      'x-echo': everything,
      location: `https://elsewhere.example/financial/refund/${secrets.transactionHash}/status`,
      'retry-after': '1',
    };
    const body = { message: everything, errors: { cpf: [everything] }, data: { echo: everything } };
    if (kind === 'reset') {
      throw new TypeError(`fetch failed for ${everything}`, { cause: { code: 'ECONNRESET' } });
    }
    const status = kind === 'ok' ? 200 : Number(kind);
    return Response.json(body, { status, headers });
  };
}

async function everyOperation(secrets: Secrets, kinds: AnswerKind[]): Promise<void> {
  const { client } = kit({
    fetch: echoingService(secrets, kinds),
    clientId: secrets.clientId,
    clientSecret: secrets.clientSecret,
  });
  const seller = client.forUser(secrets.publicToken);
  const ignore = () => {};
  await seller.products.retrieve(secrets.productHash).catch(ignore);
  await seller.refunds
    .request(secrets.transactionHash, { reason: `asked by ${secrets.cpf}` })
    .catch(ignore);
  await seller.bankAccounts
    .update(secrets.accountHash, {
      holder_document: secrets.cpf,
      account_number: secrets.accountNumber.slice(0, 10),
      pix_key: secrets.pixKey,
    })
    .catch(ignore);
  await seller.offers.update(secrets.productHash, secrets.exportHash, { price: 990 }).catch(ignore);
  await seller.statements.retrieve(secrets.exportHash).catch(ignore);
  await seller.products.list({ per_page: 2 }).toArray({ limit: 4 }).catch(ignore);
  await seller.refunds
    .waitForCompletion(secrets.transactionHash, { interval: 1, timeout: 5 })
    .catch(ignore);
  await client.request({ method: 'GET', path: `/users/${secrets.accountHash}` }).catch(ignore);
  await seller.refunds.list(secrets.transactionHash).catch(ignore);
  await seller.refunds.retrieveStatus(secrets.transactionHash).catch(ignore);
  await seller.refunds.findCreatedSince(secrets.transactionHash, new Date(0)).catch(ignore);
  await seller.anticipations.confirm(secrets.exportHash, { scenario: 'above' }).catch(ignore);
  await seller.anticipations.list().toArray({ limit: 2 }).catch(ignore);
  await seller.feeTiers.history().catch(ignore);
  await seller.statements.export({ format: 'csv' }).catch(ignore);
  await seller.statements
    .waitForExport(secrets.exportHash, { interval: 1, timeout: 5 })
    .catch(ignore);
  await seller.statements
    .download({ url: `https://files.example/statements/${secrets.exportHash}.csv` })
    .catch(ignore);
  await seller.users
    .update({
      name: `Seller ${secrets.cpf}`,
      cpf: '123.456.789-09',
      birth: '1990-04-01',
      address: {
        zip_code: '01310-100',
        city: 'São Paulo',
        state: 'SP',
        country: 'BR',
        street: `Rua ${secrets.pixKey}`,
        street_number: secrets.accountNumber.slice(0, 5),
        neighborhood: 'Centro',
      },
    })
    .catch(ignore);
  await requestRefunds(seller, [secrets.transactionHash], { maxAttempts: 1 }).then(ignore, ignore);
  const handler = createWebhookHandler({
    onError: ignore,
    on: {
      subscription_ended: async () => {
        throw new Error(`failed for ${secrets.cpf} ${secrets.publicToken}`);
      },
    },
  });
  await handler.fetch(
    new Request('http://127.0.0.1/webhooks', {
      method: 'POST',
      body: JSON.stringify({
        event: 'subscription_ended',
        payload: { buyer: { document: secrets.cpf }, transaction_hash: secrets.transactionHash },
        metadata: { request_id: secrets.clientToken },
      }),
    }),
  );
}

/** Everything an exporter would receive, as text. */
async function exported(): Promise<string> {
  const spans = otel()
    .spans()
    .map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events.map((event) => [event.name, event.attributes]),
      status: span.status,
      links: span.links,
    }));
  return JSON.stringify({ spans, points: await otel().points() });
}

/** Every operation of the SDK: each must have left a span, so that each was searched. */
const OPERATIONS = [
  'auth.login',
  'products.retrieve',
  'products.list',
  'refunds.request',
  'refunds.list',
  'refunds.retrieveStatus',
  'refunds.findCreatedSince',
  'refunds.waitForCompletion',
  'bankAccounts.update',
  'offers.update',
  'anticipations.confirm',
  'anticipations.list',
  'feeTiers.history',
  'statements.export',
  'statements.retrieve',
  'statements.waitForExport',
  'statements.download',
  'users.update',
];

describe('no secret or personal data in telemetry', () => {
  it('keeps every secret, token, hash and personal field out of every span, event and metric', async () => {
    await assertWithinBudget(
      fc.asyncProperty(
        secretsArbitrary,
        fc.array(fc.constantFrom(...answerKinds), { minLength: 1, maxLength: 8 }),
        async (secrets, kinds) => {
          otel().exporter.reset();
          await everyOperation(secrets, kinds);
          const text = await exported();
          const names = new Set(
            otel()
              .spans()
              .map((span) => span.name),
          );
          expect(OPERATIONS.filter((operation) => !names.has(operation))).toEqual([]);
          for (const [name, value] of Object.entries(secrets)) {
            expect(text.includes(value), `${name} leaked`).toBe(false);
          }
        },
      ),
      { numRuns: 40, minRuns: 5, budgetMs: 10_000 },
    );
  }, 60_000);

  it("keeps a token function's values and the seller's token out, with url.full recorded too", async () => {
    const mock = createMockPartnerApi();
    let asked = 0;
    // The first value is refused by the service, so the function is asked again after a 401.
    const stale = 'tokfn-stale-value-7f3a';
    const clientToken = async () => (asked++ === 0 ? stale : mock.credentials.clientToken);
    const { client } = kit(
      { clientToken, clientId: undefined, clientSecret: undefined, telemetry: { recordIds: true } },
      mock,
    );
    const seller = client.forUser(mock.sellers.person.publicToken);
    await client.products.retrieve(mock.products.ebook.hash);
    await seller.refunds.request(mock.addTransaction(1200));
    await seller.products.list({ per_page: 1 }).toArray({ limit: 2 });
    expect(asked).toBeGreaterThan(1);
    const text = await exported();
    expect(text).toContain('url.full');
    for (const secret of [stale, mock.credentials.clientToken, mock.sellers.person.publicToken]) {
      expect(text.includes(secret), secret).toBe(false);
    }
  });
});
