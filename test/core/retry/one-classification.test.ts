/**
 * The client's retries and bulk jobs read a failure through one classification in core: for every
 * status, a call the client repeats is an item a bulk job repeats, and a failure the client
 * reconciles before replaying is one a bulk job marks in doubt. Where the spec is silent, HTTP's
 * meanings decide: 408 is repeated and may have acted, 501 is final.
 */

import { requestRefunds, runBulk } from 'partner-sdk/bulk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { kitClients } from '../../helpers/kit-clients';

const setup = () => kitClients(createMockPartnerApi());

/** Whether the client, allowed one retry, repeated a read answered `status` once. */
async function clientRepeats(status: number): Promise<boolean> {
  const { mock, client } = setup();
  const hash = mock.products.hashes[0]!;
  mock.failNext({ status, times: 1, retryAfter: 0, path: `/products/${hash}` });
  const result = await client.products.retrieve(hash, { maxRetries: 1 }).then(
    () => 'ok' as const,
    () => 'failed' as const,
  );
  const sent = mock.requests.filter((r) => r.path === `/products/${hash}`).length;
  expect(sent).toBe(result === 'ok' ? 2 : 1);
  return result === 'ok';
}

/** Whether a bulk job, allowed two attempts, repeated an item answered `status` once. */
async function bulkRepeats(status: number): Promise<boolean> {
  const { mock, client } = setup();
  const hash = mock.products.hashes[0]!;
  mock.failNext({ status, times: 1, retryAfter: 0, path: `/products/${hash}` });
  const summary = await runBulk(
    [hash],
    { key: (h) => h, run: (h, options) => client.products.retrieve(h, options), replaySafe: true },
    { maxAttempts: 2 },
  );
  return summary.succeeded === 1;
}

const REPEATED = [408, 500, 502, 504, 505];
const FINAL = [400, 404, 409, 422, 501];

describe('one classification of failures, for the client and for bulk jobs', () => {
  it.each([...REPEATED, ...FINAL])('HTTP %i: both repeat it, or neither', async (status) => {
    const expected = REPEATED.includes(status);
    expect(await clientRepeats(status)).toBe(expected);
    expect(await bulkRepeats(status)).toBe(expected);
  });

  it.each([
    [408, true],
    [500, true],
    [429, false],
  ])(
    'HTTP %i on a refund request: the client reads what it did before replaying (%s)',
    async (status, acted) => {
      const { mock, seller } = setup();
      const hash = mock.transactions.refundable[0]!;
      mock.failNext({ status, times: 1, retryAfter: 0, path: `/financial/refund/${hash}` });
      await seller.refunds.request(hash, {}, { maxRetries: 1 });
      const sent = mock.requests
        .filter((r) => r.path.startsWith('/financial/refund'))
        .map((r) => r.method);
      expect(sent).toEqual(acted ? ['POST', 'GET', 'POST'] : ['POST', 'POST']);
    },
  );

  it.each([
    [408, true],
    [500, true],
    [501, true],
    [422, false],
  ])(
    'HTTP %i on a refund request: a bulk job leaves the item in doubt (%s)',
    async (status, acted) => {
      const { mock, seller } = setup();
      const hash = mock.transactions.refundable[0]!;
      mock.failNext({ status, times: 1, path: `/financial/refund/${hash}` });
      const outcomes = [];
      for await (const outcome of requestRefunds(seller, [hash], { maxAttempts: 1 })) {
        outcomes.push(outcome);
      }
      expect(outcomes).toEqual([expect.objectContaining({ status: 'failed', inDoubt: acted })]);
    },
  );
});
