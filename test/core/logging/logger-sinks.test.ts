import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi, subscriptionEndedEvent } from 'partner-sdk/testing';
import { createWebhookHandler } from 'partner-sdk/webhooks';
// pino comes with fastify, a devDependency for the webhooks guide's mounts.
import pino from 'pino';
import { describe, expect, it } from 'vitest';

// The loggers a partner hands the client: pino through the adapter `Logger`'s documentation shows,
// which gets what its level promises, and one short of a method, refused where it is given.

type Level = 'error' | 'warn' | 'info' | 'debug';

/** What of pino's API the tests use (the type check reads a stand-in of pino's types, without streams). */
type PinoLog = Record<Level, (fields: object, message: string) => void>;
const pinoWith = pino as unknown as (
  options: { level: string },
  stream: { write(line: string): void },
) => PinoLog;

/** A pino logger writing its JSON lines into `lines`. */
function pinoInto(lines: Record<string, unknown>[]): PinoLog {
  return pinoWith(
    { level: 'debug' },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
}

/** The adapter `Logger`'s documentation gives for pino, which takes its fields before the message. */
function pinoSink(log: PinoLog) {
  const at =
    (level: Level) =>
    (message: string, ...details: unknown[]) =>
      details[0] instanceof Error
        ? log[level]({ err: details[0], details: details.slice(1) }, message)
        : log[level]({ details }, message);
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

describe('the loggers a partner passes', () => {
  it('pino, through the documented adapter, gets the headers and bodies of debug lines, redacted', async () => {
    const mock = createMockPartnerApi();
    const lines: Record<string, unknown>[] = [];
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      ...mock.credentials,
      logger: pinoSink(pinoInto(lines)),
      logLevel: 'debug',
    });
    await client.products.retrieve(mock.products.course.hash);
    const text = JSON.stringify(lines);
    expect(text).toContain(mock.products.course.hash);
    expect(text).toContain('"x-api-client-token":"[REDACTED]"');
    expect(text).toContain('"client_secret":"[REDACTED]"');
    expect(text).not.toContain(mock.credentials.clientSecret);
    const login = lines.find((line) => String(line.msg).includes('← 200 POST /auth'));
    expect(login?.details).toEqual([{ body: { client_token: '[REDACTED]' } }]);
  });

  it('pino gets an error a line carries under err, with its message and stack', async () => {
    const lines: Record<string, unknown>[] = [];
    const handler = createWebhookHandler({
      on: {
        subscription_ended: () => {
          throw new Error('ledger down');
        },
      },
      logger: pinoSink(pinoInto(lines)),
    });
    const delivery = new Request('http://127.0.0.1/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(subscriptionEndedEvent()),
    });
    const answer = await handler.fetch(delivery);
    expect(answer.status).toBe(500);
    const failure = lines.find((line) => line.level === 50);
    expect(failure?.err).toMatchObject({
      type: 'Error',
      message: 'ledger down',
      stack: expect.stringContaining('ledger down'),
    });
  });

  it('a logger short of a method is refused where it is given, by the client and the receiver alike, naming it', () => {
    const mock = createMockPartnerApi();
    // It would swallow that level's lines without a word: a failed delivery's error, for one.
    const withoutDebug = { error: () => {}, warn: () => {}, info: () => {} } as never;
    expect(
      () => new PartnerClient({ baseUrl: mock.baseUrl, fetch: mock.fetch, logger: withoutDebug }),
    ).toThrow(/`logger` must have console's methods error, warn, info and debug \(debug missing\)/);
    expect(() => createWebhookHandler({ logger: withoutDebug })).toThrow(
      /`logger` must have console's methods error, warn, info and debug \(debug missing\)/,
    );
  });
});
