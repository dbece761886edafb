/**
 * A framework whose parser read the body and kept it out of the handler's reach (Fastify's
 * default JSON parser keeps it on `request.body`, the handler is given `request.raw`): the
 * delivery is answered 500, so the sender delivers it again, and `onError` hears how to mount the
 * handler instead, with the guide's section that shows it.
 */

import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { deliver, subscriptionEndedEvent } from '../../src/testing';
import { createWebhookHandler } from '../../src/webhooks';
import { listen, type RunningServer } from '../helpers/http-servers';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("behind Fastify's default JSON parser", () => {
  it('answers 500 and tells onError where the guide mounts the handler on Fastify', async () => {
    const errors: unknown[] = [];
    const handled: unknown[] = [];
    const handler = createWebhookHandler({
      on: { subscription_ended: (event) => void handled.push(event) },
      onError: (error) => void errors.push(error),
    });
    const app = Fastify();
    app.post('/webhooks/partner', (request, reply) => {
      reply.hijack();
      return handler.node(request.raw, reply.raw);
    });
    await app.ready();
    server = await listen(app.server);

    expect(await deliver(`${server.url}/webhooks/partner`, subscriptionEndedEvent())).toBe(500);
    expect(handled).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
    expect(String(errors[0])).toMatch(/already read/);
    expect(String(errors[0])).toContain('docs/webhooks.md, "On Fastify, Koa and NestJS"');
  });
});
