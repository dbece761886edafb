/**
 * A call that acts (a refund request, an offer, profile or bank-account update, an anticipation
 * confirmed, an export requested) answered 2xx in a shape the SDK cannot read: a field the spec
 * gives as a number sent as a string, as a Laravel `decimal` cast writes it. The service acted, so
 * the error says the call took effect: its status, its body kept (secrets masked), the request
 * sent once, never again by the client's retries; `tookEffect` says it as a field. A read answered
 * so says nothing of the kind.
 */

import { PartnerClient, ResponseValidationError, type SellerClient } from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { paulistaAddress } from '../helpers/addresses';
import { wireBankAccount, wireUser } from '../helpers/kit-fixtures';
import { stubsClosedAfterEach } from '../helpers/stub-server';

const stub = stubsClosedAfterEach();

const TOOK_EFFECT = '; the call took effect all the same: do not repeat it as a retry';

interface Case {
  /** The answer, with one field of the wrong type. */
  body: unknown;
  call: (seller: SellerClient) => Promise<unknown>;
  /** The issue the error names. */
  issue: string;
}

const CASES: Record<string, Case> = {
  'refunds.request': {
    body: {
      status: 'success',
      message: 'ok',
      data: { hash: 'ref_1', transaction_hash: 'tx_1', status: 'success', amount: '19.90' },
    },
    call: (s) => s.refunds.request('tx_1'),
    issue: 'data.amount: expected a number, received a string',
  },
  'offers.update': {
    body: { code: 'off_1', price: '19.90' },
    call: (s) => s.offers.update('prd_1', 'off_1', { price: 1990 }),
    issue: 'price: expected a number, received a string',
  },
  'users.update': {
    body: { ...wireUser(), is_approved: '1' },
    call: (s) =>
      s.users.update({
        name: 'Ana Souza',
        cpf: '123.456.789-09',
        birth: '1990-04-01',
        address: paulistaAddress,
      }),
    issue: 'is_approved: expected true or false, received a string',
  },
  'bankAccounts.update': {
    body: { ...wireBankAccount(), code: 341 },
    call: (s) => s.bankAccounts.update('acc_1', { holder_name: 'Ana Souza', bank_code: '341' }),
    issue: 'code: expected a string, received an integer',
  },
  'anticipations.confirm': {
    body: { amount: '100.00', status: 'approved', created_at: '2024-01-01T00:00:00-03:00' },
    call: (s) => s.anticipations.confirm('ant_1', { scenario: 'above' }),
    issue: 'amount: expected a number, received a string',
  },
  'statements.export': {
    body: {
      status: 'success',
      message: 'ok',
      data: { hash: 'exp_1', status: 'processing', url: 0 },
    },
    call: (s) =>
      s.statements.export({ format: 'csv', filter: { betweenDates: '01/01/2024,31/01/2024' } }),
    issue: 'data.url: expected a string, received an integer',
  },
};

async function failureOf(body: unknown, call: Case['call']) {
  const server = await stub((_request, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  const client = new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'tok',
    logLevel: 'off',
  });
  const error = await call(client.forUser('pub')).then(
    () => expect.unreachable('an unreadable answer must not pass as a result'),
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ResponseValidationError);
  return { error: error as ResponseValidationError, server };
}

describe.each(Object.entries(CASES))(
  '%s answered 200 in a shape the SDK cannot read',
  (_name, spec) => {
    it('throws a ResponseValidationError saying the call took effect, the body kept, sent once', async () => {
      const { error, server } = await failureOf(spec.body, spec.call);
      expect(error.status).toBe(200);
      expect(error.message).toContain(`→ 200 OK: unexpected response shape: ${spec.issue}`);
      expect(error.message.endsWith(TOOK_EFFECT)).toBe(true);
      expect(error.tookEffect).toBe(true);
      expect(error.body).toMatchObject(
        JSON.parse(
          JSON.stringify(spec.body).replace(
            /"public_token":"[^"]*"/,
            '"public_token":"[REDACTED]"',
          ),
        ),
      );
      expect(server.requests).toHaveLength(1);
    });
  },
);

describe('the secrets of an unreadable answer to a call that acts', () => {
  it('are masked in the body the error keeps, and in no message', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXNlbGxlcg.c2lnbmF0dXJl';
    const { error } = await failureOf(
      { ...wireUser(), public_token: token, is_approved: '1' },
      CASES['users.update']!.call,
    );
    expect(error.body).toMatchObject({ public_token: '[REDACTED]', is_approved: '1' });
    expect(JSON.stringify(error.body)).not.toContain(token);
    expect(error.message).not.toContain(token);
  });
});

describe('a read answered in a shape the SDK cannot read', () => {
  it('says nothing of an effect, and tookEffect is false', async () => {
    const { error } = await failureOf({ hash: 'prd_1', category_id: '7' }, (s) =>
      s.products.retrieve('prd_1'),
    );
    expect(error.message).toBe(
      'GET /products/prd_1 → 200 OK: unexpected response shape: category_id: expected a number, received a string',
    );
    expect(error.tookEffect).toBe(false);
  });
});
