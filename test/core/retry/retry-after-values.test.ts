/**
 * The errors guide: "A `Retry-After` header, in seconds or as an HTTP date, replaces that wait, up
 * to 60 s", tried against a hostile server on loopback: values that are neither seconds nor an
 * HTTP date, the two older date forms HTTP still allows, and a service whose clock disagrees with
 * this machine's (its HTTP date names a moment on its own clock, which its `Date` header tells).
 */

import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientOver } from '../../../src/client';
import type { ClientOptions } from '../../../src/core/options';
import { resolveOptions } from '../../../src/core/options/resolve';
import { Transport } from '../../../src/core/transport/engine';
import { type PartnerClient, RateLimitError } from '../../../src/index';
import { json, type StubServer, sequence, stubsClosedAfterEach } from '../../helpers/stub-server';
import { virtualClock } from '../../helpers/virtual-clock';

const stub = stubsClosedAfterEach();
let server: StubServer | undefined;
afterEach(() => {
  vi.restoreAllMocks();
});

/** A client of `s` whose waits are recorded on `clock` instead of slept. */
function clientFor(s: StubServer, clock = virtualClock(), options: ClientOptions = {}) {
  const all: ClientOptions = {
    baseUrl: s.baseUrl,
    clientToken: 'tok-retry-after',
    logLevel: 'off',
    ...options,
  };
  return clientOver(new Transport(resolveOptions(all), undefined, clock), all);
}

const get = (client: PartnerClient) => client.request({ method: 'GET', path: '/products' });

/** A 429 (or `status`), then a 200: the wait between them is what the test reads. */
async function limitedOnce(headers: Record<string, string>, status = 429): Promise<number[]> {
  server = await stub(
    sequence(
      (_r, res) => json(res, status, { message: 'Too Many Attempts.' }, headers),
      (_r, res) => json(res, 200, { ok: true }),
    ),
  );
  const clock = virtualClock();
  await expect(get(clientFor(server, clock))).resolves.toEqual({ ok: true });
  return clock.waits;
}

describe('a Retry-After that is neither seconds nor an HTTP date', () => {
  it.each(['-1', '+5', 'Tomorrow 1', '1, 2', 'soon', '5 s', '0x10'])(
    '%j asks for no wait: the back-off applies, and RateLimitError.retryAfterMs is undefined',
    async (value) => {
      // The jitter pinned at half: the first back-off is then 150 ms.
      vi.spyOn(Math, 'random').mockReturnValue(0.5);
      expect(await limitedOnce({ 'retry-after': value })).toEqual([150]);
      await server?.close();
      server = await stub((_r, res) => json(res, 429, {}, { 'retry-after': value }));
      const error = await get(clientFor(server, virtualClock(), { maxRetries: 0 })).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfterMs).toBeUndefined();
    },
  );
});

describe('a Retry-After given as an HTTP date', () => {
  const at = (ms: number) => new Date(ms);

  it.each([
    ['IMF-fixdate', (d: Date) => d.toUTCString()],
    [
      'RFC 850',
      (d: Date) => {
        const [, date, month, year, time] = d.toUTCString().split(' ');
        const weekday = d.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
        return `${weekday}, ${date}-${month}-${year!.slice(2)} ${time} GMT`;
      },
    ],
    [
      'asctime',
      (d: Date) => {
        const [day, date, month, year, time] = d.toUTCString().split(' ');
        return `${day!.slice(0, 3)} ${month} ${date!.replace(/^0/, ' ')} ${time} ${year}`;
      },
    ],
  ])('is read in the %s form HTTP allows', async (_form, format) => {
    const service = Math.floor(Date.now() / 1000) * 1000;
    const waits = await limitedOnce({
      date: at(service).toUTCString(),
      'retry-after': format(at(service + 7_000)),
    });
    expect(waits).toEqual([7_000]);
  });

  it.each([
    ['ahead of', 120_000],
    ['behind', -120_000],
  ])(
    "is read on the service's clock when it is two minutes %s this machine's",
    async (_way, skew) => {
      // Whole seconds, as HTTP dates have them: the service's now, and 5 s after it.
      const service = Math.floor((Date.now() + skew) / 1000) * 1000;
      const waits = await limitedOnce({
        date: at(service).toUTCString(),
        'retry-after': at(service + 5_000).toUTCString(),
      });
      expect(waits).toEqual([5_000]);
    },
  );

  it("carries the service's wait on RateLimitError, whatever this machine's clock says", async () => {
    const service = Math.floor((Date.now() + 600_000) / 1000) * 1000;
    server = await stub((_r, res) =>
      json(
        res,
        429,
        {},
        {
          date: at(service).toUTCString(),
          'retry-after': at(service + 90_000).toUTCString(),
        },
      ),
    );
    const error = await get(clientFor(server)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(90_000);
    expect(server.requests).toHaveLength(1);
  });
});

describe('a Retry-After on a 503, as a load balancer or CDN sends it', () => {
  const service = () => Math.floor(Date.now() / 1000) * 1000;

  it('as an HTTP date: waited until then on the service’s clock', async () => {
    const now = service();
    const waits = await limitedOnce(
      {
        date: new Date(now).toUTCString(),
        'retry-after': new Date(now + 4_000).toUTCString(),
      },
      503,
    );
    expect(waits).toEqual([4_000]);
  });

  it('as a date already past (a cached page): no wait asked, retried at once as after 0', async () => {
    const now = service();
    const headers = {
      date: new Date(now).toUTCString(),
      'retry-after': new Date(now - 3_600_000).toUTCString(),
    };
    expect(await limitedOnce(headers, 503)).toEqual([0]);
    server = await stub((_r, res) => json(res, 429, {}, headers));
    const error = await get(clientFor(server, virtualClock(), { maxRetries: 0 })).catch(
      (e: unknown) => e,
    );
    expect((error as RateLimitError).retryAfterMs).toBe(0);
  });

  it.each(['soon', '', 'Fri, 32 Foo 2026 99:00:00 GMT'])(
    'as %j, neither: the back-off applies',
    async (value) => {
      vi.spyOn(Math, 'random').mockReturnValue(0.5);
      expect(await limitedOnce({ 'retry-after': value }, 503)).toEqual([150]);
    },
  );
});
