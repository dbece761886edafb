/**
 * A framework that parses the body and keeps its bytes beside it, on `req.rawBody`: NestJS's
 * `NestFactory.create(AppModule, { rawBody: true })`, or Express's own idiom of
 * `express.json({ verify })` storing the buffer. A `verify` checking a signature over the bytes
 * sent gets those bytes, as it does when the handler reads the stream itself.
 */

import { createHmac } from 'node:crypto';
import http from 'node:http';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../src/webhooks';
import { closedAfterEach, send } from '../helpers/http-servers';
import { subscriptionEndedBody } from '../helpers/webhook-bodies';

const servers = closedAfterEach();
const sign = (bytes: Uint8Array | string) => createHmac('sha256', 'k').update(bytes).digest('hex');

/** Express with the parser Nest's `rawBody: true` installs: JSON parsed, its buffer kept. */
function keepingRawBody(handler: ReturnType<typeof createWebhookHandler>): http.Server {
  const app = express();
  app.use(
    express.json({
      limit: '1mb',
      verify: (req, _res, buffer) => {
        (req as { rawBody?: Buffer }).rawBody = buffer;
      },
    }),
  );
  app.post('/webhooks/partner', handler.node);
  return http.createServer(app);
}

describe('a body parsed with its bytes kept on req.rawBody', () => {
  it('gives verify the bytes sent, so a signature over them holds', async () => {
    const seen: Array<Uint8Array | undefined> = [];
    const handled: string[] = [];
    const handler = createWebhookHandler({
      verify: ({ rawBody, headers }) => {
        seen.push(rawBody);
        return rawBody !== undefined && sign(rawBody) === headers.get('x-signature');
      },
      on: {
        subscription_ended: (event) => {
          handled.push(event.payload.subscription_code);
        },
      },
    });
    const server = await servers.serve(keepingRawBody(handler));
    // Spaced as a PHP sender's json_encode with JSON_PRETTY_PRINT: re-serialising would differ.
    const body = JSON.stringify(subscriptionEndedBody, null, 4);
    const answer = await send(`${server.url}/webhooks/partner`, {
      headers: { 'x-signature': sign(body) },
      body,
    });
    expect(answer.status).toBe(200);
    expect(new TextDecoder().decode(seen[0])).toBe(body);
    expect(handled).toEqual([subscriptionEndedBody.payload.subscription_code]);
  });

  it('counts those bytes against maxBodyBytes', async () => {
    const handler = createWebhookHandler({ maxBodyBytes: 64, onError: () => {} });
    const server = await servers.serve(keepingRawBody(handler));
    // Sent chunked, so no Content-Length says the size before the parser reads it.
    const body = JSON.stringify(subscriptionEndedBody);
    const answer = await send(`${server.url}/webhooks/partner`, {
      body: [new TextEncoder().encode(body)],
    });
    expect(answer.status).toBe(413);
  });
});
