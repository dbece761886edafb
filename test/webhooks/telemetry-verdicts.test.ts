/**
 * The tracing guide's webhook verdicts beyond `handled`, `duplicate`, `failed` and `invalid`
 * (telemetry.test.ts): `unauthorized` and `in_progress`, each with its span and its count; and what
 * a delivery refused before its body is read records.
 */

import { describe, expect, it } from 'vitest';
import { createWebhookHandler, MemoryDedupeStore, secretVerifier } from '../../src/webhooks';
import { useOtel } from '../helpers/otel-harness';
import { waitFor } from '../helpers/waits';
import { subscriptionEndedBody } from '../helpers/webhook-bodies';

const otel = useOtel();

const delivery = (headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1/webhooks/partner', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(subscriptionEndedBody),
  });

async function verdicts(): Promise<{ spans: unknown[]; counted: unknown[] }> {
  const spans = otel()
    .spans()
    .filter((span) => span.name === 'webhooks.delivery')
    .map((span) => span.attributes['partner_sdk.webhook.verdict']);
  const counted = (await otel().points())
    .filter((point) => point.metric === 'partner_sdk.webhook.deliveries')
    .map((point) => [point.attributes['partner_sdk.webhook.verdict'], point.value]);
  return { spans, counted };
}

describe('webhook verdicts in telemetry', () => {
  it('records unauthorized for a delivery its verify refused', async () => {
    const handler = createWebhookHandler({ verify: () => false, on: {} });
    expect((await handler.fetch(delivery())).status).toBe(401);
    expect(await verdicts()).toEqual({ spans: ['unauthorized'], counted: [['unauthorized', 1]] });
  });

  it('records in_progress for a delivery another receiver sharing the store is handling', async () => {
    const store = new MemoryDedupeStore();
    let release: () => void = () => {};
    const busy = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = false;
    const first = createWebhookHandler({
      dedupe: store,
      on: {
        subscription_ended: () => {
          started = true;
          return busy;
        },
      },
    });
    const second = createWebhookHandler({ dedupe: store, on: { subscription_ended: () => {} } });
    const handling = first.fetch(delivery());
    await waitFor(() => started, 'the first receiver to run its handler');
    expect((await second.fetch(delivery())).status).toBe(503);
    release();
    expect((await handling).status).toBe(200);
    const { spans, counted } = await verdicts();
    expect(spans).toEqual(['in_progress', 'handled']);
    expect(counted).toEqual(
      expect.arrayContaining([
        ['in_progress', 1],
        ['handled', 1],
      ]),
    );
  });

  it('records no delivery span for a request a secretVerifier refused before its body was read', async () => {
    const handler = createWebhookHandler({
      verify: secretVerifier({ secret: 's3cret-webhook-token', header: 'x-webhook-secret' }),
      on: {},
    });
    expect((await handler.fetch(delivery({ 'x-webhook-secret': 'wrong' }))).status).toBe(401);
    expect(await verdicts()).toEqual({ spans: [], counted: [] });
  });
});
