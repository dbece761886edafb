/**
 * The test a partner writes for its own integration, using nothing but the published package:
 * `partner-sdk`, `partner-sdk/testing` and `partner-sdk/webhooks` (no import from `src/`). It runs
 * the SDK over real HTTP against the kit's loopback server.
 */

import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PartnerClient,
  RequestValidationError,
  type SellerClient,
  UnprocessableEntityError,
} from 'partner-sdk';
import {
  createMockPartnerApi,
  deliver,
  type MockPartnerApi,
  type MockServer,
  subscriptionEndedEvent,
} from 'partner-sdk/testing';
import { createWebhookHandler, type SubscriptionEndedEvent } from 'partner-sdk/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Short poll intervals: the mock finishes refunds and exports after one status poll.
const fastPolls = { interval: 10, maxInterval: 20, timeout: 5_000 };

let mock: MockPartnerApi;
let server: MockServer;
let client: PartnerClient;
let seller: SellerClient;

beforeAll(async () => {
  mock = createMockPartnerApi();
  server = await mock.listen();
  client = new PartnerClient({
    baseUrl: server.url,
    clientId: mock.credentials.clientId,
    clientSecret: mock.credentials.clientSecret,
    maxRetries: 0,
  });
  seller = client.forUser(mock.sellers.person.publicToken);
});

afterAll(() => server.close());

describe('a partner integration tested against partner-sdk/testing', () => {
  it('drives a refund to completed, one status at a time', async () => {
    const transactionHash = mock.transactions.refundable[0]!;
    const seen: Array<string | undefined> = [];

    const requested = await seller.refunds.request(transactionHash, { reason: 'Customer asked' });
    expect(requested.kind).toBe('accepted');
    const final = await seller.refunds.waitForCompletion(requested, {
      ...fastPolls,
      onStatus: (status) => seen.push(status),
    });

    expect(final.status).toBe('completed');
    expect(seen).toEqual(['requested', 'success', 'completed']);
    const refunds = await seller.refunds.list(transactionHash);
    expect(refunds.map((refund) => refund.status)).toEqual(['completed']);
  });

  it('resolves with status failed when the service fails the refund (no exception)', async () => {
    const transactionHash = mock.transactions.refundable[1]!;
    mock.refundOutcome(transactionHash, 'failed', { polls: 2 });

    const final = await seller.refunds.requestAndWait(transactionHash, undefined, fastPolls);

    expect(final.status).toBe('failed');
  });

  it('exports the statement to a URL and downloads the file', async () => {
    const exported = await seller.statements.export({
      format: 'csv',
      filter: { betweenDates: { start: '2026-01-01', end: '2026-01-31' } },
    });
    expect(exported).toMatchObject({ status: 'processing', url: null, alreadyRunning: false });

    const finished = await seller.statements.waitForExport(exported, fastPolls);
    expect(finished.hash).toBe(exported.hash);
    expect(finished.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+\.csv\?/);

    const file = await seller.statements.download(finished);
    expect(file.status).toBe(200);
    const [header, ...entries] = (await file.text()).trimEnd().split(/\r?\n/);
    expect(header).toBe('data;descricao;tipo;valor;saldo');
    expect(entries[0]).toMatch(/^01\/01\/2026 /);
  });

  it('stops bad input before sending it: RequestValidationError, no request made', async () => {
    const transactionHash = mock.transactions.refundable[2]!;
    mock.clearRequests();

    const refused = seller.refunds.request(transactionHash, { reason: 'x'.repeat(1001) });

    await expect(refused).rejects.toBeInstanceOf(RequestValidationError);
    await expect(refused).rejects.toMatchObject({ issues: [{ path: ['reason'] }] });
    expect(mock.requests).toEqual([]);
  });

  it('gets a Laravel 422 from the mock when the same bad input is sent raw', async () => {
    const transactionHash = mock.transactions.refundable[2]!;

    const refused = seller.request({
      method: 'POST',
      path: `/financial/refund/${transactionHash}`,
      body: { reason: 'x'.repeat(1001) },
    });

    const error = await refused.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    const { status, fieldErrors, message } = error as UnprocessableEntityError;
    expect(status).toBe(422);
    expect(Object.keys(fieldErrors)).toEqual(['reason']);
    expect(fieldErrors.reason?.[0]).toMatch(/1000/);
    expect(message).toMatch(/^POST \/financial\/refund\/\S+ → 422/);
    expect(await seller.refunds.list(transactionHash)).toEqual([]);
  });

  it('keeps the dot-form keys of a 422 on a nested field', async () => {
    const { hash, offerCode } = mock.products.course;

    const error = await seller
      .request({
        method: 'PUT',
        path: `/products/${hash}/offers/${offerCode}`,
        body: { credit_card_installments_options: [1, 48] },
      })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(Object.keys((error as UnprocessableEntityError).fieldErrors)).toEqual([
      'credit_card_installments_options.1',
    ]);
  });

  it('delivers a webhook into the handler and gets 200 once it was handled', async () => {
    const handled: SubscriptionEndedEvent[] = [];
    const handler = createWebhookHandler({
      on: { subscription_ended: async (event) => void handled.push(event) },
      dedupe: true,
    });
    const receiver = createServer(handler.node).listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
    try {
      const event = subscriptionEndedEvent({ end_reason: 'delinquency', total_charges: 3 });

      expect(await deliver(url, event)).toBe(200);
      expect(await deliver(url, event)).toBe(200); // a redelivery: acknowledged, not handled again
      expect(await deliver(url, '{"event":')).toBe(400);

      expect(handled).toHaveLength(1);
      expect(handled[0]!.payload).toMatchObject({
        subscription_code: event.payload.subscription_code,
        end_reason: 'delinquency',
        total_charges: 3,
      });
      expect(handled[0]!.metadata?.request_id).toBe(event.metadata.request_id);
    } finally {
      receiver.close();
      receiver.closeAllConnections();
    }
  });
});
