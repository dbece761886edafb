/**
 * `secretVerifier` as a partner mounts it, over real loopback HTTP: what a forger on the network
 * tries (no secret, a near miss, the secret twice, an empty one) is refused with 401 before any
 * handler runs, and a receiver is never built to accept everything because its secret is unset.
 */

import http from 'node:http';
import { createWebhookHandler, secretVerifier } from 'partner-sdk/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer, send } from '../helpers/http-servers';
import { withTimeout } from '../helpers/waits';
import { userUpdatedBody } from '../helpers/webhook-bodies';

const SECRET = 'wh_8f1c2a9d4e7b6c3f0a1b2c3d';
const body = JSON.stringify(userUpdatedBody);
let server: RunningServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function receiver(verify: ReturnType<typeof secretVerifier>): Promise<{
  url: string;
  handled: string[];
}> {
  const handled: string[] = [];
  const handler = createWebhookHandler({
    on: { user_updated: (event) => void handled.push(event.event) },
    verify,
    logLevel: 'off',
  });
  server = await listen(http.createServer(handler.node));
  return { url: `${server.url}/webhooks/partner`, handled };
}

/** POSTs the body with `name` sent once per value, as separate header lines; the status. */
function postWithHeaderTwice(url: string, name: string, values: string[]): Promise<number> {
  const answer = new Promise<number>((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent: false });
    request.setHeader('content-type', 'application/json');
    request.setHeader(name, values);
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(body);
  });
  return withTimeout(answer, 5_000, `POST ${url} with ${name} twice`);
}

describe('secretVerifier', () => {
  it('passes the secret in its query parameter and refuses every forgery with 401, running nothing', async () => {
    const { url, handled } = await receiver(secretVerifier({ secret: SECRET, query: 'token' }));
    const post = (query: string) => send(`${url}${query}`, { body });

    expect((await post(`?token=${SECRET}`)).status).toBe(200);
    expect(handled).toEqual(['user_updated']);
    const forged = [
      '',
      '?token=',
      '?token=wrong',
      `?token=${SECRET.slice(0, -1)}`,
      `?token=${SECRET}x`,
      `?token=${SECRET.toUpperCase()}`,
      `?token=${SECRET}&token=${SECRET}`,
      `?token=wrong&token=${SECRET}`,
      `?Token=${SECRET}`,
    ];
    for (const query of forged) {
      expect({ query, status: (await post(query)).status }).toEqual({ query, status: 401 });
    }
    expect(handled).toEqual(['user_updated']);
  });

  it('passes the secret in its header, refusing it missing, altered or sent twice', async () => {
    const { url, handled } = await receiver(
      secretVerifier({ secret: SECRET, header: 'x-webhook-token' }),
    );
    const post = (headers: Record<string, string>) => send(url, { body, headers });

    expect((await post({ 'x-webhook-token': SECRET })).status).toBe(200);
    expect((await post({})).status).toBe(401);
    expect((await post({ 'x-webhook-token': '' })).status).toBe(401);
    expect((await post({ 'x-webhook-token': `${SECRET} ` })).status).toBe(200); // HTTP trims it
    expect((await post({ 'x-webhook-token': SECRET.replace('8', '9') })).status).toBe(401);
    // Sent twice, the header's values arrive joined: never the secret itself.
    const twice = await postWithHeaderTwice(url, 'x-webhook-token', [SECRET, SECRET]);
    expect(twice).toBe(401);
    expect(handled).toEqual(['user_updated', 'user_updated']);
  });

  it('refuses a header sent twice whatever its name, Authorization (of which Node keeps only the first) included', async () => {
    const { url, handled } = await receiver(
      secretVerifier({ secret: SECRET, header: 'authorization' }),
    );
    expect((await send(url, { body, headers: { authorization: SECRET } })).status).toBe(200);
    for (const values of [
      [SECRET, 'a guess'],
      ['a guess', SECRET],
      [SECRET, SECRET],
    ]) {
      const status = await postWithHeaderTwice(url, 'authorization', values);
      expect({ values, status }).toEqual({ values, status: 401 });
    }
    expect(handled).toEqual(['user_updated']);
  });

  it('never writes the secret into a log line or an answer, whatever the verdict', async () => {
    const lines: string[] = [];
    const record = (...args: unknown[]) => {
      lines.push(args.map((arg) => (arg instanceof Error ? arg.stack : String(arg))).join(' '));
    };
    const handler = createWebhookHandler({
      on: {
        user_updated: () => {
          throw new Error('the handler failed');
        },
      },
      verify: secretVerifier({ secret: SECRET, query: 'token' }),
      handlerTimeoutMs: 200,
      logger: { error: record, warn: record, info: record, debug: record },
      logLevel: 'debug',
    });
    server = await listen(http.createServer(handler.node));
    const url = `${server.url}/webhooks/partner?token=${SECRET}`;
    const answers = [
      await send(url, { body }),
      await send(url, { body: '{"event":' }),
      await send(url, { body: JSON.stringify({ ...userUpdatedBody, event: 'order_created' }) }),
      await send(url, { method: 'GET' }),
      await send(url, { body, headers: { 'content-encoding': 'gzip' } }),
      await send(`${url}x`, { body }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([500, 400, 200, 405, 415, 401]);
    expect(lines.length).toBeGreaterThan(0);
    for (const text of [...lines, ...answers.map((answer) => answer.body)]) {
      expect(text).not.toContain(SECRET);
    }
  });

  it('masks the secret in the log line of a handler error that quotes it, like any secret given to the SDK', async () => {
    const lines: string[] = [];
    const record = (...args: unknown[]) => {
      lines.push(args.map((arg) => (arg instanceof Error ? arg.stack : String(arg))).join(' '));
    };
    const secret = 'wh_quoted_by_a_handler_5d0e9a';
    const handler = createWebhookHandler({
      on: {
        user_updated: () => {
          // A handler that forwards the delivery and reports the URL it could not reach.
          throw new Error(`forwarding to https://relay.example/hook?token=${secret} failed`);
        },
      },
      verify: secretVerifier({ secret, query: 'token' }),
      logger: { error: record, warn: record, info: record, debug: record },
    });
    server = await listen(http.createServer(handler.node));
    const answer = await send(`${server.url}/webhooks/partner?token=${secret}`, { body });
    expect(answer.status).toBe(500);
    expect(lines.join('\n')).toContain('forwarding to https://relay.example/hook?token=');
    expect(lines.join('\n')).not.toContain(secret);
  });

  it('refuses a forger before reading its body, so forgeries never crowd out a real delivery', async () => {
    const handled: string[] = [];
    const handler = createWebhookHandler({
      on: { user_updated: (event) => void handled.push(event.event) },
      verify: secretVerifier({ secret: SECRET, query: 'token' }),
      maxBodyBytes: 256 * 1024,
      // Room for one body being read at a time: a forger holding it would stall everyone.
      maxBufferedBodyBytes: 256 * 1024,
      logLevel: 'off',
    });
    server = await listen(http.createServer(handler.node));
    const url = `${server.url}/webhooks/partner`;
    const uploads: http.ClientRequest[] = [];
    // Forgers that send most of a body and then stall, never ending it.
    const forged = Array.from({ length: 4 }, () => {
      const request = http.request(`${url}?token=guess`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(250 * 1024) },
        agent: false,
      });
      uploads.push(request);
      request.on('error', () => {});
      request.write(Buffer.alloc(200 * 1024, 32));
      return new Promise<number>((resolve) =>
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        }),
      );
    });
    try {
      const statuses = await withTimeout(Promise.all(forged), 3_000, "the forgers' answers");
      expect(statuses).toEqual([401, 401, 401, 401]);
      expect((await send(`${url}?token=${SECRET}`, { body, timeoutMs: 3_000 })).status).toBe(200);
      expect(handled).toEqual(['user_updated']);
    } finally {
      for (const upload of uploads) upload.destroy();
    }
  });

  it('compares the decoded query value: a base64 secret passes once registered encoded', async () => {
    const base64 = 'q+8/ZmFrZQ==';
    const { url, handled } = await receiver(secretVerifier({ secret: base64, query: 'token' }));
    expect((await send(`${url}?token=${encodeURIComponent(base64)}`, { body })).status).toBe(200);
    // Registered unencoded, its `+` arrives as a space: refused, as any other wrong value.
    expect((await send(`${url}?token=${base64}`, { body })).status).toBe(401);
    expect(handled).toEqual(['user_updated']);
  });

  it('accepts any of several secrets while one replaces another', async () => {
    const { url } = await receiver(
      secretVerifier({ secret: ['old-secret-value', SECRET], query: 'token' }),
    );
    expect((await send(`${url}?token=old-secret-value`, { body })).status).toBe(200);
    expect((await send(`${url}?token=${SECRET}`, { body })).status).toBe(200);
    expect((await send(`${url}?token=old-secret`, { body })).status).toBe(401);
  });

  it('refuses to be built without a secret, so an unset variable never lets every delivery in', () => {
    for (const secret of [undefined, '', [], ['']]) {
      expect(() => secretVerifier({ secret, query: 'token' })).toThrow(/missing or empty/);
    }
    expect(() => secretVerifier({ secret: SECRET })).toThrow(/exactly one of `query` and `header`/);
    expect(() => secretVerifier({ secret: SECRET, query: 'token', header: 'x-token' })).toThrow(
      TypeError,
    );
  });

  it('refuses to be built with a header secret no header could carry intact, naming neither the secret nor its characters', async () => {
    for (const secret of [
      'clé-secrète',
      'token\u2603',
      ' padded',
      'padded ',
      'line\nbreak',
      ['ok-one', 'naïve'],
    ]) {
      let thrown: unknown;
      try {
        secretVerifier({ secret, header: 'x-webhook-token' });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(secret)).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toMatch(/visible ASCII/);
      for (const item of [secret].flat())
        expect((thrown as Error).message).not.toContain(item.trim());
    }
    // The same secrets travel in the query, encoded, and pass there.
    const { url, handled } = await receiver(
      secretVerifier({ secret: 'clé-secrète', query: 'token' }),
    );
    const passed = await send(`${url}?token=${encodeURIComponent('clé-secrète')}`, {
      body,
    });
    expect(passed.status).toBe(200);
    expect(handled).toHaveLength(1);
    // A secret with spaces inside travels in a header as it is.
    expect(() => secretVerifier({ secret: 'two words', header: 'x-webhook-token' })).not.toThrow();
  });

  it('takes as long to refuse a near miss as a far one', () => {
    const verify = secretVerifier({ secret: 'a'.repeat(4096), header: 'x-webhook-token' });
    const input = (value: string) => ({
      rawBody: undefined,
      body: '',
      url: new URL('http://127.0.0.1/'),
      headers: new Headers({ 'x-webhook-token': value }),
    });
    const near = input(`${'a'.repeat(4095)}b`);
    const far = input(`b${'a'.repeat(4095)}`);
    const time = (value: ReturnType<typeof input>) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < 500; i++) verify(value);
      return Number(process.hrtime.bigint() - start);
    };
    // Alternating rounds, each side's fastest kept: what else the machine does only adds time.
    let [nearMs, farMs] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    for (let round = 0; round < 40; round++) {
      nearMs = Math.min(nearMs, time(near));
      farMs = Math.min(farMs, time(far));
    }
    expect(verify(near)).toBe(false);
    // An early-exit comparison spends its comparison on the near miss only: several times longer.
    expect(nearMs / farMs).toBeLessThan(2.5);
    expect(farMs / nearMs).toBeLessThan(2.5);
  });
});
