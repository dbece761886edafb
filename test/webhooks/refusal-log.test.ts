/**
 * A delivery refused as invalid (400) is one the sender may never send again: the partner must be
 * able to see it in its log, with the reason the sender is told and nothing else of the body.
 */

import http from 'node:http';
import { createWebhookHandler, type Logger, secretVerifier } from 'partner-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { closedAfterEach, send, serveFetch } from '../helpers/http-servers';
import { subscriptionEndedBody } from '../helpers/webhook-bodies';

const { serve } = closedAfterEach();

/** A logger keeping each level's lines. */
function keptLines() {
  const lines: Record<keyof Logger, string[]> = { error: [], warn: [], info: [], debug: [] };
  const logger = Object.fromEntries(
    Object.entries(lines).map(([level, kept]) => [
      level,
      (...args: unknown[]) => void kept.push(args.map(String).join(' ')),
    ]),
  ) as unknown as Logger;
  return { lines, logger };
}

describe.each([
  [
    '.node on node:http',
    (handle: ReturnType<typeof createWebhookHandler>) => http.createServer(handle.node),
  ],
  [
    '.fetch over node:http',
    (handle: ReturnType<typeof createWebhookHandler>) => serveFetch(handle.fetch),
  ],
])('a delivery refused with 400, %s', (_face, face) => {
  it('is logged once through logger.warn with the reason, not the body, and onError hears nothing', async () => {
    const { lines, logger } = keptLines();
    const errors: unknown[] = [];
    const handler = createWebhookHandler({
      on: { subscription_ended: () => {} },
      verify: () => true,
      logger,
      onError: (error) => void errors.push(error),
    });
    const url = `${(await serve(face(handler))).url}/webhooks/partner`;
    const drifted = JSON.stringify({
      ...subscriptionEndedBody,
      payload: { ...subscriptionEndedBody.payload, total_charges: 'twelve' },
    });

    const refused = await send(url, { body: drifted });
    expect(refused.status).toBe(400);
    expect(lines.warn).toHaveLength(1);
    expect(lines.warn[0]).toMatch(/webhook delivery refused with 400/);
    expect(lines.warn[0]).toContain('payload.total_charges: expected number, received string');
    expect(lines.warn[0]).not.toContain(subscriptionEndedBody.payload.buyer.email);
    expect(lines.warn[0]).toContain(JSON.parse(refused.body).message);

    expect((await send(url, { body: 'not json\nat all' })).status).toBe(400);
    expect(lines.warn).toHaveLength(2);
    expect(lines.warn[1]).toMatch(/webhook delivery refused with 400: webhook body is not JSON/);
    expect(lines.warn[1]).not.toContain('\n');
    expect(errors).toEqual([]);
  });
});

describe.each([
  [
    '.node on node:http',
    (handle: ReturnType<typeof createWebhookHandler>) => http.createServer(handle.node),
  ],
  [
    '.fetch over node:http',
    (handle: ReturnType<typeof createWebhookHandler>) => serveFetch(handle.fetch),
  ],
])('a delivery refused with 401, %s', (_face, face) => {
  // A secret the platform holds wrong, or a signature checked over the wrong bytes, refuses every
  // delivery: the partner must see that in its log, as the sender's retries pile up.
  const body = JSON.stringify(subscriptionEndedBody);

  it('by secretVerifier, before the body is read, is logged at warn without what was sent', async () => {
    const { lines, logger } = keptLines();
    const handler = createWebhookHandler({
      on: { subscription_ended: () => {} },
      verify: secretVerifier({ secret: 'whsec-right-7731', header: 'x-webhook-secret' }),
      logger,
    });
    const url = `${(await serve(face(handler))).url}/webhooks/partner`;
    const headers = { 'x-webhook-secret': 'whsec-wrong-0042' };
    expect((await send(url, { body, headers })).status).toBe(401);
    expect(lines.warn).toEqual([
      '[partner-sdk] webhook delivery refused with 401: verify refused it (a secret or signature missing or not the expected one)',
    ]);
    expect(
      (await send(url, { body, headers: { 'x-webhook-secret': 'whsec-right-7731' } })).status,
    ).toBe(200);
    expect(lines.warn).toHaveLength(1);
  });

  it('by a verify over the body, is logged at warn', async () => {
    const { lines, logger } = keptLines();
    const handler = createWebhookHandler({
      on: { subscription_ended: () => {} },
      verify: ({ rawBody }) => rawBody !== undefined && rawBody.length === 0,
      logger,
    });
    const url = `${(await serve(face(handler))).url}/webhooks/partner`;
    expect((await send(url, { body })).status).toBe(401);
    expect(lines.warn).toEqual([
      '[partner-sdk] webhook delivery refused with 401: verify refused it (a secret or signature missing or not the expected one)',
    ]);
  });
});
