/**
 * The kit on loopback for the queue tests, stricter than the service about repeats: a refund
 * request is answered 150 ms after the kit acted (a worker killed meanwhile loses the answer),
 * chosen transactions lose their first answer outright (the connection is cut after the kit
 * acted), and a refund request for a transaction this server already saw refunded first ends that
 * refund (status polled to `completed`), so that a blind repeat makes a second refund instead of
 * being answered "already active".
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockPartnerApi } from 'partner-sdk/testing';
import { kitRequest, writeAnswer } from '../helpers/kit-bridge';
import { sleep } from '../helpers/waits';

const ANSWER_DELAY_MS = 150;

/** Polls a refund's status until it ended (through the kit's rate limit, bounded). */
export async function completeRefund(
  mock: MockPartnerApi,
  hash: string,
  headers: Headers,
): Promise<void> {
  const url = `${mock.baseUrl}/financial/refund/${hash}/status`;
  for (let tries = 0; tries < 200; tries++) {
    const answer = await mock.fetch(new Request(url, { headers }));
    const body = (await answer.json().catch(() => ({}))) as { data?: { status?: string } };
    if (answer.status === 200 && ['completed', 'failed'].includes(body.data?.status ?? '')) return;
    await sleep(answer.status === 429 ? 20 : 0);
  }
}

export function serveKit(
  mock: MockPartnerApi,
  lose: ReadonlySet<string> = new Set(),
): Promise<{ url: string; server: Server; held: () => number }> {
  let held = 0;
  const refunded = new Set<string>();
  const lost = new Set<string>();
  const server = createServer(async (req, res) => {
    const request = await kitRequest(mock, req);
    const refund =
      req.method === 'POST' ? /\/financial\/refund\/([^/?]+)$/.exec(req.url ?? '') : null;
    const hash = refund?.[1];
    if (hash && refunded.has(hash)) await completeRefund(mock, hash, request.headers);
    const answer = await mock.fetch(request);
    const body = Buffer.from(await answer.arrayBuffer());
    if (hash && answer.status < 300) {
      refunded.add(hash);
      if (lose.has(hash) && !lost.has(hash)) {
        lost.add(hash);
        res.destroy();
        return;
      }
      held++;
      await sleep(ANSWER_DELAY_MS);
      held--;
    }
    writeAnswer(res, answer, body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/api/v1`, server, held: () => held });
    });
  });
}
