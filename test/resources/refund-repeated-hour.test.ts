/**
 * A refund's `created_at` carries no offset, so in the hour a daylight-saving change repeats it
 * names two instants. The search for a lost request's refund takes the later: "no second refund"
 * beats "maybe two". São Paulo repeated 23:00–23:59 on 17 February 2018; Lisbon repeats
 * 01:00–01:59 on 25 October 2026.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { PartnerClient } from '../../src/index';
import { type StubServer, startStub } from '../helpers/stub-server';

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CASES = [
  // The second 23:30 of that night in São Paulo (UTC-3 again) is 02:30 UTC.
  ['America/Sao_Paulo', Date.UTC(2018, 1, 18, 2, 30, 5), '17/02/2018 23:30:00'],
  // The second 01:30 in Lisbon (UTC+0 again) is 01:30 UTC.
  ['Europe/Lisbon', Date.UTC(2026, 9, 25, 1, 30, 5), '25/10/2026 01:30:00'],
] as const;

describe('the search for a lost refund in an hour a daylight-saving change repeats', () => {
  it.each(CASES)(
    'in %s finds the refund made 5 s before the search',
    async (timeZone, serviceNow, createdAt) => {
      const started = Date.now();
      // The service's clock stands 5 s after the refund was made, in the repeated hour's second pass.
      server = await startStub((_request, res) => {
        res.sendDate = false;
        res.writeHead(200, {
          'content-type': 'application/json',
          date: new Date(serviceNow + (Date.now() - started)).toUTCString(),
        });
        const refund = { hash: 'rfd_lost', status: 'failed', created_at: createdAt };
        res.end(JSON.stringify({ status: 'success', message: 'ok', data: [refund] }));
      });
      const seller = new PartnerClient({
        baseUrl: server.baseUrl,
        clientToken: 'dst-token-1',
        logLevel: 'off',
        assumptions: { reconciliation: { timeZone } },
      }).forUser('dst-seller-1');
      const found = await seller.refunds.findCreatedSince('tx_dst', new Date(started));
      expect(found?.hash).toBe('rfd_lost');
    },
  );
});
