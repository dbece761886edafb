/**
 * A refund request whose answer was lost, as an operator reads it in the log: the check the SDK
 * makes before a replay, what it found, and how the call ended. A line saying a request went out
 * again, or that the service answered it, when neither happened would send the operator looking
 * for a second refund.
 */

import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { refundPostsTo } from '../../helpers/kit-clients';
import { type SpoiltRefunds, startSpoiltRefunds } from '../../helpers/spoilt-refunds';

let service: SpoiltRefunds | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A client at `info` on `baseUrl`, its lines in `lines` as `level message`. */
function loggingClient(baseUrl: string, clientToken: string, lines: string[]) {
  const at = (level: string) => (message: string) => lines.push(`${level} ${message}`);
  return new PartnerClient({
    baseUrl,
    clientToken,
    logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') },
    logLevel: 'info',
  });
}

describe('a lost refund answer in the log', () => {
  it('says the lost attempt had acted and was not sent again, and ends without a status it never got', async () => {
    service = await startSpoiltRefunds('reset-after');
    const hash = service.transactions[0]!;
    const lines: string[] = [];
    const client = loggingClient(
      service.proxy.baseUrl,
      service.mock.credentials.clientToken,
      lines,
    );
    const result = await client.forUser(service.sellerToken).refunds.request(hash);
    expect(result).toMatchObject({ kind: 'existing', recovered: true });
    expect(service.posts()).toBe(1);
    const post = `POST /financial/refund/${hash}`;
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^warn .*retrying ${post} after a connection failure`)),
      expect.stringMatching(new RegExp(`^info .*GET /financial/refund/${hash} → 200`)),
      `warn [partner-sdk] ${post}: its answer was lost, but it had acted (found by reading the service): not sent again`,
      expect.stringMatching(
        new RegExp(`^info .*${post} → answer lost, result found \\(\\d+ ms\\)$`),
      ),
    ]);
  });

  it('says the lost attempt had not acted before it is sent again', async () => {
    const mock = createMockPartnerApi();
    const server = await mock.listen();
    try {
      const hash = mock.transactions.refundable[0]!;
      // The kit drops the connection before it acts on the request.
      mock.dropNext({ path: `/financial/refund/${hash}`, method: 'POST' });
      const lines: string[] = [];
      const client = loggingClient(server.url, mock.credentials.clientToken, lines);
      const result = await client.forUser(mock.sellers.person.publicToken).refunds.request(hash);
      expect(result).toMatchObject({ kind: 'accepted' });
      expect(refundPostsTo(mock, hash)).toBe(2);
      const post = `POST /financial/refund/${hash}`;
      expect(lines).toEqual([
        expect.stringMatching(new RegExp(`^warn .*retrying ${post} after a connection failure`)),
        expect.stringMatching(new RegExp(`^info .*GET /financial/refund/${hash} → 200`)),
        `info [partner-sdk] ${post}: its answer was lost, and it had not acted (found by reading the service)`,
        expect.stringMatching(new RegExp(`^info .*${post} → 202 \\(\\d+ ms\\)$`)),
      ]);
    } finally {
      await server.close();
    }
  });
});
