import { SpanStatusCode, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../src/webhooks';
import { spanTree, useOtel } from '../helpers/otel-harness';
import {
  bankAccountDeletedBody,
  subscriptionEndedBody,
  userUpdatedBody,
} from '../helpers/webhook-bodies';

const otel = useOtel();

function delivery(body: unknown): Request {
  return new Request('http://127.0.0.1/webhooks/partner', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A delivery received under the partner's own server span, as their HTTP instrumentation makes it. */
function receive(handler: ReturnType<typeof createWebhookHandler>, body: unknown) {
  return trace
    .getTracer('partner-app')
    .startActiveSpan('POST /webhooks/partner', async (server) => {
      const response = await handler.fetch(delivery(body));
      server.end();
      return response;
    });
}

describe('telemetry of webhook deliveries', () => {
  it('records a delivery span under the server span with the event name and verdict, the handler inside it', async () => {
    const handler = createWebhookHandler({
      dedupe: true,
      on: {
        subscription_ended: async () => {
          trace.getTracer('partner-app').startSpan('cancel access').end();
        },
      },
    });
    expect((await receive(handler, subscriptionEndedBody)).status).toBe(200);
    expect((await receive(handler, subscriptionEndedBody)).status).toBe(200);
    const [handled, duplicate] = spanTree(otel().spans());
    for (const server of [handled, duplicate]) expect(server!.name).toBe('POST /webhooks/partner');
    expect(handled!.children).toEqual([
      expect.objectContaining({
        name: 'webhooks.delivery',
        attributes: {
          'partner_sdk.webhook.event': 'subscription_ended',
          'partner_sdk.webhook.verdict': 'handled',
          'http.response.status_code': 200,
        },
        children: [expect.objectContaining({ name: 'cancel access' })],
      }),
    ]);
    expect(duplicate!.children).toEqual([
      expect.objectContaining({
        name: 'webhooks.delivery',
        attributes: {
          'partner_sdk.webhook.event': 'subscription_ended',
          'partner_sdk.webhook.verdict': 'duplicate',
          'http.response.status_code': 200,
        },
        children: [],
      }),
    ]);
  });

  it('records the event names the spec lists as they are, and any other name as _OTHER', async () => {
    const handler = createWebhookHandler({ on: {} });
    const deliveries = [
      userUpdatedBody,
      bankAccountDeletedBody,
      { ...userUpdatedBody, event: 'order_created' },
      { ...userUpdatedBody, event: 'charge.renewed-7f3a9c' },
    ];
    for (const body of deliveries) await receive(handler, body);
    const recorded = spanTree(otel().spans()).map(
      (server) => server.children[0]?.attributes['partner_sdk.webhook.event'],
    );
    expect(recorded).toEqual(['user_updated', 'bank_account_deleted', '_OTHER', '_OTHER']);
  });

  it('records a delivery whose handler failed as a failed span, and counts deliveries by verdict', async () => {
    const handler = createWebhookHandler({
      onError: () => {},
      on: {
        subscription_ended: async () => {
          throw new Error('database down for maria@example.com');
        },
      },
    });
    expect((await receive(handler, subscriptionEndedBody)).status).toBe(500);
    expect((await receive(handler, { not: 'an event' })).status).toBe(400);
    const deliveries = otel()
      .spans()
      .filter((span) => span.name === 'webhooks.delivery');
    expect(deliveries.map((span) => span.attributes['partner_sdk.webhook.verdict'])).toEqual([
      'failed',
      'invalid',
    ]);
    expect(deliveries[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(
      JSON.stringify(deliveries.map((span) => [span.attributes, span.events, span.status])),
    ).not.toContain('maria');
    const counted = (await otel().points()).filter(
      (point) => point.metric === 'partner_sdk.webhook.deliveries',
    );
    expect(
      counted.map((point) => [point.attributes['partner_sdk.webhook.verdict'], point.value]),
    ).toEqual(
      expect.arrayContaining([
        ['failed', 1],
        ['invalid', 1],
      ]),
    );
  });
});
