/**
 * `deliver` sends what the service sends, and the headers a test gives besides: a receiver that
 * checks a secret in a header (`secretVerifier({ header })`, as the webhooks guide offers, and as
 * the CLI's `trigger --header` sends it) is tested with the kit as one checking it in the URL is.
 * Through `partner-sdk/testing` and `partner-sdk/webhooks`, over loopback.
 */

import http from 'node:http';
import { deliver, subscriptionEndedEvent } from 'partner-sdk/testing';
import { createWebhookHandler, secretVerifier } from 'partner-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../helpers/http-servers';

const { serve } = closedAfterEach();

async function receiverWithHeaderSecret() {
  const seen: (string | undefined)[] = [];
  const handler = createWebhookHandler({
    on: { subscription_ended: (event) => void seen.push(event.payload.subscription_code) },
    verify: secretVerifier({ secret: 'whsec_header', header: 'x-webhook-token' }),
    logLevel: 'off',
  });
  const server = await serve(http.createServer(handler.node));
  return { url: `${server.url}/webhooks`, seen };
}

describe('deliver with headers', () => {
  it('sends the headers given beside its JSON content type', async () => {
    const { url, seen } = await receiverWithHeaderSecret();
    const event = subscriptionEndedEvent({ subscription_code: 'sub_1' });
    expect(await deliver(url, event)).toBe(401);
    expect(await deliver(url, event, { headers: { 'X-Webhook-Token': 'whsec_header' } })).toBe(200);
    expect(seen).toEqual(['sub_1']);
  });

  it('lets a test replace the content type', async () => {
    const received: (string | undefined)[] = [];
    const server = await serve(
      http.createServer((req, res) => {
        received.push(req.headers['content-type']);
        res.end();
      }),
    );
    await deliver(server.url, '{}', { headers: { 'Content-Type': 'text/plain' } });
    await deliver(server.url, '{}');
    expect(received).toEqual(['text/plain', 'application/json']);
  });
});
