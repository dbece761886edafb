/**
 * The client's `pace` option as the transport uses it: every attempt waits for the pace first,
 * every 429 is told to it with the service's `Retry-After`, the budget is named by the
 * credentials, and a bad value is refused at construction. The pace here is a recording double;
 * the Redis one is tested across processes in test/redis/fleet-pace.test.ts.
 */

import { describe, expect, it } from 'vitest';
import { PartnerClient, PartnerError, type RequestPace } from '../../../src/index';
import { createMockPartnerApi } from '../../../src/testing/index';

function recordingPace() {
  const events: string[] = [];
  const keys: string[] = [];
  const pace: RequestPace = {
    forClient({ key }) {
      keys.push(key);
      return {
        async acquire() {
          events.push('acquire');
        },
        refused(retryAfterMs) {
          events.push(`refused ${retryAfterMs}`);
        },
      };
    },
  };
  return { pace, events, keys };
}

describe('the pace option', () => {
  it('is asked before each attempt and told of each 429 with its Retry-After', async () => {
    const mock = createMockPartnerApi();
    const { pace, events } = recordingPace();
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      clientToken: mock.credentials.clientToken,
      fetch: mock.fetch,
      pace,
      logLevel: 'off',
    });
    mock.failNext({ status: 429, times: 1, retryAfter: 0, path: '/products' });
    await client.products.list();
    expect(events).toEqual(['acquire', 'refused 0', 'acquire']);
    expect(mock.stats.requests).toBe(2);
  });

  it('is told at most the 60 s the SDK ever waits, whatever Retry-After asks (a year here)', async () => {
    const mock = createMockPartnerApi();
    const { pace, events } = recordingPace();
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      clientToken: mock.credentials.clientToken,
      fetch: mock.fetch,
      pace,
      logLevel: 'off',
    });
    mock.failNext({ status: 429, retryAfter: 365 * 24 * 3_600, path: '/products' });
    const error = await client.products.list().catch((e: unknown) => e);
    expect((error as { retryAfterMs?: number }).retryAfterMs).toBe(365 * 24 * 3_600_000);
    // One answer must not hold every process sharing the pace for longer than any call waits.
    expect(events).toEqual(['acquire', 'refused 60000']);
  });

  it('names the budget by base URL and client id, never the secret', () => {
    const { pace, keys } = recordingPace();
    new PartnerClient({
      baseUrl: 'https://partner.example.com/api/v1',
      clientId: 'client-7',
      clientSecret: 'very-secret-value',
      pace,
      logLevel: 'off',
    });
    expect(keys).toEqual(['https://partner.example.com/api/v1 client-7']);
  });

  it('that is not a RequestPace fails at construction, before anything is sent', () => {
    const build = () =>
      new PartnerClient({
        baseUrl: 'https://partner.example.com/api/v1',
        clientToken: 'tok',
        pace: {} as RequestPace,
      });
    expect(build).toThrow(PartnerError);
    expect(build).toThrow(/`pace` must be a RequestPace/);
  });
});
