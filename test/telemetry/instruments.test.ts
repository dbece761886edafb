/**
 * Each metric as the OpenTelemetry conventions define it: the stable HTTP client duration by its
 * stable name, in seconds, as a histogram; the SDK's own durations likewise; every counter a sum
 * whose unit names the thing counted in curly braces (`{retry}`, not `{count}`), as the metrics
 * guidelines ask of integer counts.
 */

import { describe, expect, it } from 'vitest';
import { requestRefunds } from '../../src/bulk';
import { createMockPartnerApi } from '../../src/testing/index';
import { createWebhookHandler } from '../../src/webhooks';
import { useOtel } from '../helpers/otel-harness';
import { kit, losingRefundPost } from '../helpers/virtual-kit';

const otel = useOtel();

describe('the metrics the SDK records', () => {
  it('have the conventions’ names, units and instrument kinds', async () => {
    const { mock, client, seller } = kit();
    const hash = mock.products.ebook.hash;
    await client.products.retrieve(hash);
    mock.failNext({ status: 429, retryAfter: 1, path: `/products/${hash}` });
    await client.products.retrieve(hash);
    mock.failNext({ status: 401, path: `/products/${hash}` });
    await client.products.retrieve(hash);
    await requestRefunds(seller, [mock.addTransaction(1200)]);
    const handler = createWebhookHandler({ on: { subscription_ended: async () => {} } });
    await handler.fetch(
      new Request('http://127.0.0.1/webhooks', {
        method: 'POST',
        body: JSON.stringify({ event: 'subscription_ended', payload: {}, metadata: {} }),
      }),
    );
    expect(await otel().instruments()).toEqual({
      'http.client.request.duration': ['s', 'HISTOGRAM'],
      'partner_sdk.operation.duration': ['s', 'HISTOGRAM'],
      'partner_sdk.retries': ['{retry}', 'SUM'],
      'partner_sdk.rate_limited': ['{request}', 'SUM'],
      'partner_sdk.relogins': ['{login}', 'SUM'],
      'partner_sdk.bulk.items': ['{item}', 'SUM'],
      'partner_sdk.webhook.deliveries': ['{delivery}', 'SUM'],
    });
  });
  it('count reconciliations in {reconciliation}, a sum, as the guide lists', async () => {
    const mock = createMockPartnerApi();
    const { seller } = kit({ fetch: losingRefundPost(mock, { lost: 'answer' }) }, mock);
    await seller.refunds.request(mock.addTransaction(1500));
    const instruments = await otel().instruments();
    expect(instruments['partner_sdk.reconciliations']).toEqual(['{reconciliation}', 'SUM']);
  });

  it("put call durations in buckets of seconds, from milliseconds up to a call's whole time", async () => {
    // An SDK's default buckets are made for milliseconds: in seconds nearly every call would share
    // the first one, and no percentile of the operation's duration could be read.
    const { mock, client } = kit();
    await client.products.retrieve(mock.products.ebook.hash);
    const boundaries = await otel().boundaries();
    for (const name of ['http.client.request.duration', 'partner_sdk.operation.duration']) {
      const upper = boundaries[name]!;
      expect(upper.filter((bound) => bound < 1).length, name).toBeGreaterThanOrEqual(8);
      expect(
        upper.filter((bound) => bound >= 1 && bound <= 10).length,
        name,
      ).toBeGreaterThanOrEqual(4);
    }
    // A call's retries and waits run up to its totalTimeout, by default.
    expect(Math.max(...boundaries['partner_sdk.operation.duration']!)).toBeGreaterThanOrEqual(120);
  });
});
