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

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { APIError, PartnerClient } from '../../../src/index';
import { sleep } from '../../helpers/waits';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const BASE_URL = 'http://collected.test/api/v1';
const CLIENTS = 400;

/**
 * The service: a login answering `name`'s token, and a 400 quoting `echo()` in its message and
 * `seen()` in a field.
 */
function service(name: string, echo: () => string, seen: () => string[] = () => []): typeof fetch {
  return async (input, init) => {
    const path = new URL(new Request(input, init).url).pathname;
    if (path.endsWith('/auth')) return Response.json({ client_token: `${name}-login-token` });
    if (path.endsWith('/echo')) {
      return Response.json({ message: `bad: ${echo()}`, seen: seen() }, { status: 400 });
    }
    return Response.json({ data: { hash: 'prd_1', name: 'Course' } });
  };
}

/** How many of `values` the error of a call quoting them all masks. */
async function maskedAmong(values: string[]): Promise<number> {
  const client = new PartnerClient({
    baseUrl: BASE_URL,
    clientToken: 'collected-echo-client-token',
    logLevel: 'off',
    fetch: service(
      'echo',
      () => '',
      () => values,
    ),
  });
  const error = await client.request({ method: 'GET', path: '/echo' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(APIError);
  const seen = ((error as APIError).body as { seen: string[] }).seen;
  return seen.filter((value) => value === '[REDACTED]').length;
}

/** Collects garbage until `done` holds (a FinalizationRegistry runs on a later turn), within 5 s. */
async function collectUntil(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    collectGarbage();
    await sleep(1);
    if (await done()) return;
  }
}

/** Numbered names, one per client. */
const numbered = (prefix: string) =>
  Array.from({ length: CLIENTS }, (_, index) => `${prefix}-${String(index).padStart(4, '0')}`);

// The 256 recently used stay masked; the last client made may still be held by V8 a while.
const AT_MOST_MASKED = 257;

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
