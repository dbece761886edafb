/**
 * `refunds.findCreatedSince` from a time the service wrote (a webhook event's `created_at`): that
 * time is on the service's clock already, so it is compared with the refunds' `created_at` as it
 * is, whatever this machine's clock says. Here the service's clock runs 5 minutes ahead of this
 * machine's, or 5 minutes behind, as a `Date` header would show. A time read on another machine's
 * clock (`{ otherMachine }`) is searched from less the skew bound, whatever that header says.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { PartnerClient, RequestValidationError } from '../../src/index';
import { type StubServer, startStub } from '../helpers/stub-server';

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** `DD/MM/YYYY HH:mm:ss` in São Paulo (UTC-3 since 2019), as the service writes a refund's. */
function brazilian(instant: number): string {
  const d = new Date(instant - 3 * 3_600_000).toISOString();
  return `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)} ${d.slice(11, 19)}`;
}

/** A service `skewMs` off this machine: an event 30 s ago, the refund its first run made 1 s later. */
async function service(skewMs: number) {
  const eventAt = Date.now() + skewMs - 30_000;
  const refunds = [
    { hash: 'rfd_old', status: 'failed', created_at: brazilian(eventAt - 60_000) },
    { hash: 'rfd_first_run', status: 'completed', created_at: brazilian(eventAt + 1_000) },
  ];
  server = await startStub((_request, res) => {
    res.sendDate = false;
    res.writeHead(200, {
      'content-type': 'application/json',
      date: new Date(Date.now() + skewMs).toUTCString(),
    });
    res.end(JSON.stringify({ status: 'success', message: 'ok', data: refunds }));
  });
  const seller = new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'since-token-1',
    logLevel: 'off',
  }).forUser('since-seller-1');
  // The event's created_at, as the service writes an envelope's: ISO8601, microseconds, Z.
  const created = new Date(eventAt).toISOString().replace('Z', '123Z');
  return { seller, created };
}

describe("findCreatedSince from a time on the service's clock", () => {
  it.each([
    ['5 minutes ahead', 5 * 60_000],
    ['5 minutes behind', -5 * 60_000],
  ])("finds the first run's refund with the service %s", async (_what, skewMs) => {
    const { seller, created } = await service(skewMs);
    expect((await seller.refunds.findCreatedSince('tx_event', created))?.hash).toBe(
      'rfd_first_run',
    );
  });

  it('refuses a time it cannot read, sending nothing', async () => {
    const { seller } = await service(0);
    await expect(seller.refunds.findCreatedSince('tx_event', 'yesterday')).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    expect(server?.requests).toHaveLength(0);
  });
});

describe("findCreatedSince from a time on another machine's clock", () => {
  it.each([
    ['5 minutes ahead', 5 * 60_000],
    ['5 minutes behind', -5 * 60_000],
  ])(
    "finds the first run's refund from a machine 1 minute ahead of a service %s of this one",
    async (_what, skewMs) => {
      const { seller, created } = await service(skewMs);
      // The event's time as a machine running 1 minute ahead of the service read it.
      const otherMachine = new Date(Date.parse(created) + 60_000);
      expect((await seller.refunds.findCreatedSince('tx_event', { otherMachine }))?.hash).toBe(
        'rfd_first_run',
      );
    },
  );

  it('refuses { otherMachine } without a valid Date, sending nothing', async () => {
    const { seller } = await service(0);
    const refused = await seller.refunds
      .findCreatedSince('tx_event', { otherMachine: new Date('not a date') })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RequestValidationError);
    expect((refused as RequestValidationError).message).toMatch(/findCreatedSince/);
    expect(server?.requests).toHaveLength(0);
  });
});
