/**
 * A delivery refused as invalid (400) is one the sender may never send again: the partner must be
 * able to see it in its log, with the reason the sender is told and nothing else of the body.
 */

import http from 'node:http';
import { createWebhookHandler, type Logger } from 'partner-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { closedAfterEach, send, serveFetch } from '../helpers/http-servers';
import { subscriptionEndedBody } from '../helpers/webhook-bodies';

const { serve } = closedAfterEach();

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
    const lines: Record<keyof Logger, string[]> = { error: [], warn: [], info: [], debug: [] };
    const logger = Object.fromEntries(
      Object.entries(lines).map(([level, kept]) => [
        level,
        (...args: unknown[]) => void kept.push(args.map(String).join(' ')),
      ]),
    ) as unknown as Logger;
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
