/**
 * A partner that makes a client per request or per seller, each with credentials of its own,
 * must not grow the set of secrets every masked text is scanned for: once such a client is
 * collected its secret and tokens join the 256 recently used ones, and the oldest are let go. A
 * client still reachable keeps its own masked however many come and go.
 *
 * The service is an in-process `fetch` (as in secret-registry-never-forgets.test.ts): the set of
 * secrets is all that is tested. Collection is forced with V8's `gc`, and the release it causes is
 * awaited a turn at a time, for at most five seconds.
 */

import { describe, expect, it } from 'vitest';
import { APIError, PartnerClient } from '../../../src/index';
import {
  AT_MOST_MASKED,
  BASE_URL,
  collectUntil,
  maskedAmong,
  numbered as numberedOf,
  service,
} from '../../helpers/collected-secrets';

const CLIENTS = 400;

/** Numbered names, one per client. */
const numbered = (prefix: string) => numberedOf(prefix, CLIENTS);

describe('the credentials of clients since collected', () => {
  it(`are let go past the 256 recent ones once ${CLIENTS} clients with tokens of their own are dropped`, async () => {
    const tokens = numbered('collected-client-token');
    for (const clientToken of tokens) {
      new PartnerClient({ baseUrl: BASE_URL, clientToken, logLevel: 'off' });
    }
    await collectUntil(async () => (await maskedAmong(tokens)) <= AT_MOST_MASKED);
    expect(await maskedAmong(tokens)).toBeLessThanOrEqual(AT_MOST_MASKED);
  });

  it("stay masked for a client still in use, its secret and its login's token", async () => {
    let echo = '';
    const live = new PartnerClient({
      baseUrl: BASE_URL,
      clientId: 'collected-live-id',
      clientSecret: 'collected-live-secret-0001',
      logLevel: 'off',
      fetch: service('collected-live', () => echo),
    });
    await live.products.retrieve('prd_1');
    const secrets = numbered('collected-other-secret');
    for (const clientSecret of secrets) {
      await new PartnerClient({
        baseUrl: BASE_URL,
        clientId: 'collected-other-id',
        clientSecret,
        logLevel: 'off',
        fetch: service(clientSecret, () => ''),
      }).products.retrieve('prd_1');
    }
    await collectUntil(async () => (await maskedAmong(secrets)) <= AT_MOST_MASKED);
    expect(await maskedAmong(secrets)).toBeLessThanOrEqual(AT_MOST_MASKED);
    echo = 'collected-live-secret-0001 / collected-live-login-token';
    const error = await live.request({ method: 'GET', path: '/echo' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).message).toContain('bad: [REDACTED] / [REDACTED]');
  });
});
