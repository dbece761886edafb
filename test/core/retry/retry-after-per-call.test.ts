/**
 * A `Retry-After` holds back the call it answered, not the client: without a `pace` (the fleet's
 * one pause is that option's, see the replicas guide), a 429 storm on one endpoint of a shared
 * client neither blocks nor slows the calls to the others, and each refused call waits its own.
 */

import { describe, expect, it } from 'vitest';
import { APIUserAbortError, PartnerClient } from '../../../src/index';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';
import { nextTurn, waitFor, withTimeout } from '../../helpers/waits';

const stub = stubsClosedAfterEach();

describe('a 429 storm on one endpoint of a shared client', () => {
  it('leaves the calls to other endpoints unblocked while its own calls wait their Retry-After', async () => {
    const server = await stub((request, res) =>
      request.path.startsWith('/products/storm')
        ? json(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '30' })
        : json(res, 200, { hash: request.path.slice('/products/'.length), name: 'Curso' }),
    );
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'storm-token-1',
      logLevel: 'off',
    });
    const stop = new AbortController();
    let stormSettled = false;
    const storm = Array.from({ length: 20 }, (_, call) =>
      client.products
        .retrieve(`storm-${call}`, { signal: stop.signal })
        .catch((error: unknown) => error)
        .finally(() => {
          stormSettled = true;
        }),
    );
    await waitFor(() => server.requests.length === 20, 'the storm to be refused');
    const others = await withTimeout(
      Promise.all(Array.from({ length: 100 }, (_, call) => client.products.retrieve(`p${call}`))),
      5_000,
      'the calls to other endpoints',
    );
    expect(others).toHaveLength(100);
    await nextTurn();
    // Every refused call is still waiting its 30 s, sent once, while the others were answered.
    expect(stormSettled).toBe(false);
    expect(server.requests.filter((r) => r.path.startsWith('/products/storm'))).toHaveLength(20);
    stop.abort();
    for (const error of await Promise.all(storm)) expect(error).toBeInstanceOf(APIUserAbortError);
  });
});
