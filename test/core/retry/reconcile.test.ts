/**
 * A refund request whose answer is lost is reconciled before any replay, whatever the service's
 * clock. Here the service's clock runs five minutes behind this machine's: with a `Date` header
 * the SDK reads the difference; without one the service's clock is unknown, and the window reaches
 * back the documented skew bound, so the lost refund is found and never made twice.
 */

import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../../src/index';
import { type StubServer, stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();
let server: StubServer | undefined;

const BEHIND_MS = 5 * 60_000;

/** `DD/MM/YYYY HH:mm:ss` in São Paulo time, as the service writes `created_at`. */
function saoPauloWallClock(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/Sao_Paulo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * A service whose clock is `BEHIND_MS` behind: the first refund request creates a refund that is
 * at once `completed` (no longer active) and its answer is lost (the socket is destroyed).
 */
async function serviceBehind(sendDate: boolean) {
  const refunds: object[] = [];
  let posts = 0;
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.sendDate = false;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (sendDate) headers.date = new Date(Date.now() - BEHIND_MS).toUTCString();
    res.writeHead(status, headers);
    res.end(JSON.stringify(body));
  };
  server = await stub((request, res) => {
    if (request.method === 'POST') {
      posts += 1;
      refunds.push({
        hash: `rfd_${posts}`,
        transaction_hash: 'tx_clock',
        status: 'completed',
        created_at: saoPauloWallClock(new Date(Date.now() - BEHIND_MS)),
      });
      if (posts === 1) {
        res.socket?.destroy();
        return;
      }
      answer(res, 202, {
        status: 'success',
        message: 'ok',
        data: { transaction_hash: 'tx_clock' },
      });
      return;
    }
    answer(res, 200, { status: 'success', message: 'ok', data: refunds });
  });
  const client = new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'clock-token-1',
    logLevel: 'off',
  });
  return { seller: client.forUser('clock-seller-1'), posts: () => posts };
}

describe('a lost refund answer, the service clock five minutes behind', () => {
  for (const sendDate of [true, false]) {
    it(`is found, not sent again, ${sendDate ? 'with' : 'without'} a Date header`, async () => {
      const { seller, posts } = await serviceBehind(sendDate);
      const result = await seller.refunds.request('tx_clock');
      expect(posts()).toBe(1);
      expect(result).toMatchObject({
        kind: 'existing',
        recovered: true,
        refund: { hash: 'rfd_1' },
      });
    });
  }

  it('without a Date header, a refund older than the skew bound is not taken as the call’s', async () => {
    const { seller } = await serviceBehind(false);
    const justNow = new Date();
    const narrow = new PartnerClient({
      baseUrl: server!.baseUrl,
      clientToken: 'clock-token-1',
      logLevel: 'off',
      assumptions: { reconciliation: { maxClockSkewMs: 60_000 } },
    }).forUser('clock-seller-1');
    await seller.refunds.request('tx_clock');
    expect(await narrow.refunds.findCreatedSince('tx_clock', justNow)).toBeUndefined();
    expect((await seller.refunds.findCreatedSince('tx_clock', justNow))?.hash).toBe('rfd_1');
  });
});
