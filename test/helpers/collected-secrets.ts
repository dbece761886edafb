/**
 * What the tests of secrets held by collected objects (clients, webhook verifiers) need: how many
 * of some values the SDK masks now, read from the error of a call quoting them all, and V8's `gc`
 * forced until a FinalizationRegistry's release shows.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'vitest';
import { APIError, PartnerClient } from '../../src/index';
import { sleep } from './waits';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

export const BASE_URL = 'http://collected.test/api/v1';

/**
 * The service: a login answering `name`'s token, and a 400 quoting `echo()` in its message and
 * `seen()` in a field.
 */
export function service(
  name: string,
  echo: () => string,
  seen: () => string[] = () => [],
): typeof fetch {
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
export async function maskedAmong(values: string[]): Promise<number> {
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
export async function collectUntil(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    collectGarbage();
    await sleep(1);
    if (await done()) return;
  }
}

/** `count` numbered names (`prefix-0000`…), one per object made. */
export const numbered = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(4, '0')}`);

/** The 256 recently used stay masked; the last object made may still be held by V8 a while. */
export const AT_MOST_MASKED = 257;
