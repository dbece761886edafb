/**
 * The webhooks guide's Fastify and Koa mounts, run as written (turned into a module as
 * `snippets-run.test.ts` turns every snippet) around a real receiver, and sent deliveries from the
 * testing kit: each is handled once, its redelivery acknowledged, a body over `maxBodyBytes`
 * answered by the handler's 413 (the framework's own limit does not come first), and a request
 * elsewhere on the app left to the framework.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { deliver, subscriptionEndedEvent } from '../../src/testing';
import { createWebhookHandler } from '../../src/webhooks';
import { ROOT, snippetsOf } from '../helpers/doc-snippets';
import { listen, type RunningServer, send } from '../helpers/http-servers';
import { runnableModule } from './snippet-module';

const dir = `${ROOT}.tmp/doc-snippets-frameworks`;
const open: RunningServer[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

function mountOf(framework: string) {
  const found = snippetsOf('docs/webhooks.md').find(
    (snippet) =>
      snippet.section === 'On Fastify, Koa and NestJS' &&
      snippet.code.includes(`from '${framework}'`),
  );
  if (!found) throw new Error(`no ${framework} snippet in the webhooks guide`);
  return found;
}

/** Runs the snippet with `handler` bound, and gives back the app it declared. */
async function appOf(framework: string, handler: unknown): Promise<unknown> {
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/${framework}.ts`;
  writeFileSync(file, runnableModule(mountOf(framework), ['handler']).source);
  const module = (await import(/* @vite-ignore */ file)) as {
    default: (scope: unknown) => Promise<{ app: unknown }>;
  };
  return (await module.default({ handler })).app;
}

const servers: Record<string, (app: unknown) => Promise<http.Server>> = {
  fastify: async (app) => {
    const fastify = app as import('fastify').FastifyInstance;
    fastify.get('/health', async () => ({ ok: true }));
    await fastify.ready();
    return fastify.server;
  },
  koa: async (app) => {
    const koa = app as import('koa');
    koa.use((ctx) => {
      ctx.body = { ok: true };
    });
    return http.createServer(koa.callback());
  },
};

describe.each(Object.keys(servers))("the webhooks guide's %s mount", (framework) => {
  it('hands a delivery to the handler once, within the handler’s own body limit', async () => {
    const handled: string[] = [];
    const handler = createWebhookHandler({
      dedupe: true,
      maxBodyBytes: 64 * 1024,
      verify: ({ headers }) => headers.get('x-webhook-token') === 's3cret',
      on: {
        subscription_ended: (event) => {
          handled.push(event.payload.subscription_code);
        },
      },
    });
    const server = await listen(await servers[framework]!(await appOf(framework, handler)));
    open.push(server);
    const url = `${server.url}/webhooks/partner`;
    const token = { headers: { 'x-webhook-token': 's3cret' } };
    const event = subscriptionEndedEvent();

    expect(await deliver(url, event, token)).toBe(200);
    expect(await deliver(url, event, token)).toBe(200);
    expect(handled).toEqual([event.payload.subscription_code]);
    expect(await deliver(url, subscriptionEndedEvent(), {})).toBe(401);

    const large = await send(url, { headers: token.headers, body: 'x'.repeat(128 * 1024) });
    expect(large.status).toBe(413);
    expect(JSON.parse(large.body)).toEqual({ error: 'payload_too_large', max_bytes: 64 * 1024 });

    const elsewhere = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5_000) });
    expect(await elsewhere.json()).toEqual({ ok: true });
  });
});
