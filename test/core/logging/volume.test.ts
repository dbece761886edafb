/**
 * How much the client writes at `debug`, as an operator's disk sees it: a bounded number of lines
 * per call however many calls run, and a download's bytes never logged, whatever its size or
 * however many chunks it comes in.
 */

import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

/** A logger counting lines per level and keeping the longest line's length. */
function countingLogger() {
  const counts = { error: 0, warn: 0, info: 0, debug: 0 };
  let longest = 0;
  const at =
    (level: keyof typeof counts) =>
    (message: string, ...details: unknown[]) => {
      counts[level]++;
      longest = Math.max(longest, message.length + JSON.stringify(details).length);
    };
  const logger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
  return { counts, logger, longest: () => longest };
}

describe('the debug log of many calls', () => {
  it('writes four lines a call over 10,000 calls, none longer than the answer it shows', async () => {
    const mock = createMockPartnerApi();
    const { counts, logger, longest } = countingLogger();
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientToken: mock.credentials.clientToken,
      logger,
      logLevel: 'debug',
    });
    const seller = client.forUser(mock.sellers.person.publicToken);
    const calls = 10_000;
    let answerBytes = 0;
    for (let call = 0; call < calls; call++) {
      const product = await seller.products.retrieve(mock.products.course.hash);
      answerBytes = JSON.stringify(product).length;
    }
    // The request's query and body, the attempt's headers, the answer's body, the call's line.
    expect(counts).toEqual({ error: 0, warn: 0, info: calls, debug: 3 * calls });
    expect(longest()).toBeLessThan(answerBytes + 1_000);
  }, 60_000);

  it("logs a download's request and answer, never its bytes, for a file in a thousand chunks", async () => {
    const chunk = 'a'.repeat(4_096);
    const server = await stub(async (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      for (let sent = 0; sent < 1_000; sent++) {
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    });
    const { counts, logger, longest } = countingLogger();
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'volume-client-token',
      logger,
      logLevel: 'debug',
    });
    const response = await client
      .forUser('volume-seller-token')
      .statements.download({ url: '/files/statement.csv' });
    let received = 0;
    for await (const piece of response.body!) received += piece.length;
    expect(received).toBe(4_096_000);
    expect(counts.debug + counts.info).toBeLessThanOrEqual(3);
    expect(longest()).toBeLessThan(2_000);
  });
});
