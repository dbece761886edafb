import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bankAccountDeletedEvent,
  bankAccountUpdatedEvent,
  deliver,
  subscriptionEndedEvent,
  webhookEvent,
} from '../../src/testing';

interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function receiver(status = 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ method: req.method ?? '', headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks`, received };
}

const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('webhook helpers', () => {
  it('build events with the spec §6 envelope', () => {
    const event = subscriptionEndedEvent({ end_reason: 'delinquency' });
    expect(event).toMatchObject({
      event: 'subscription_ended',
      endpoint: expect.stringMatching(/^https:\/\//),
      metadata: {
        origin: expect.any(String),
        request_id: expect.any(String),
        correlation_id: null,
      },
      created_at: expect.stringMatching(ISO_MICROS),
      updated_at: expect.stringMatching(ISO_MICROS),
      payload: {
        status: 'ended',
        end_reason: 'delinquency',
        commissions: { items: [{ type: 'producer' }, { type: 'affiliate' }] },
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      },
    });
    expect(bankAccountUpdatedEvent({ status: 'reproved' }).payload).toMatchObject({
      status: 'reproved',
      reason: null,
      bank_document: null,
    });
    expect(bankAccountDeletedEvent().event).toBe('bank_account_deleted');
    expect(
      webhookEvent('order_created', { id: 1 }, { metadata: { correlation_id: 'c1' } }),
    ).toMatchObject({
      event: 'order_created',
      payload: { id: 1 },
      metadata: { correlation_id: 'c1' },
    });
  });

  it('makes two factory calls two different events, even within one millisecond', () => {
    const metadata = { request_id: 'req_same' };
    const events = Array.from({ length: 50 }, () => subscriptionEndedEvent({}, { metadata }));
    const stamps = events.map((e) => e.created_at);
    expect(new Set(stamps).size).toBe(50);
    expect(stamps.every((s) => ISO_MICROS.test(s))).toBe(true);
    expect([...stamps].sort()).toEqual(stamps);
  });

  it('deliver POSTs the JSON event with Content-Type application/json and returns the status', async () => {
    const { url, received } = await receiver();
    const event = bankAccountUpdatedEvent();
    expect(await deliver(url, event)).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]!.method).toBe('POST');
    expect(received[0]!.headers['content-type']).toBe('application/json');
    expect(received[0]!.headers).not.toHaveProperty('authorization');
    expect(JSON.parse(received[0]!.body)).toEqual(event);
  });

  it("deliver reports the receiver's refusal and sends strings as they are", async () => {
    const { url, received } = await receiver(400);
    expect(await deliver(url, '{not json')).toBe(400);
    expect(received[0]!.body).toBe('{not json');
  });

  it.each([
    ['with no scheme', '127.0.0.1:3000/webhooks?token=whsec_in_url'],
    ['relative', '/webhooks?token=whsec_in_url'],
    ['of another scheme', 'ftp://127.0.0.1/webhooks?token=whsec_in_url'],
  ])(
    'deliver refuses a URL %s with a TypeError of its own that does not quote it',
    async (_, url) => {
      const error = await deliver(url, subscriptionEndedEvent()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(
        /^deliver: expected an absolute http: or https: URL/,
      );
      // The receiver's URL may carry its secret.
      expect((error as Error).message).not.toContain('whsec_in_url');
    },
  );
});
