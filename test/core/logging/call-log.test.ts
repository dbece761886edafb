/**
 * The client's debug line for a request, as a partner reads it at `logLevel: 'debug'`: the query
 * and body a call carries, and nothing after the line for a call with neither.
 */

import { type Logger, PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';

const mock = createMockPartnerApi();

/** A kit client at `debug`, and every debug line with what followed it. */
function debugClient() {
  const lines: unknown[][] = [];
  const quiet = () => {};
  const logger: Logger = {
    error: quiet,
    warn: quiet,
    info: quiet,
    debug: (...args: unknown[]) => lines.push(args),
  };
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    clientToken: mock.credentials.clientToken,
    logger,
    logLevel: 'debug',
  });
  const requestLine = (start: string) => lines.find((line) => String(line[0]).includes(start));
  return { client, requestLine, lines };
}

describe("the client's debug line for a request", () => {
  it('prints nothing after the line for a call with neither query nor body', async () => {
    const { client, requestLine } = debugClient();
    const seller = client.forUser(mock.sellers.person.publicToken);
    await seller.products.retrieve('prd_1').catch(() => undefined);
    expect(requestLine('] GET /products/')).toEqual(['[partner-sdk] GET /products/prd_1']);
  });

  it('prints the body a call carries, and no query it does not', async () => {
    const { client, requestLine } = debugClient();
    const seller = client.forUser(mock.sellers.person.publicToken);
    await seller.refunds.request(mock.addTransaction(), { reason: 'Pedido do cliente' });
    expect(requestLine('] POST /financial/refund/')?.slice(1)).toStrictEqual([
      { body: { reason: 'Pedido do cliente' } },
    ]);
  });

  it('cuts a path of thousands of characters on every debug line', async () => {
    const { client, lines } = debugClient();
    const seller = client.forUser(mock.sellers.person.publicToken);
    const id = `prd_${'x'.repeat(5_000)}`;
    await seller.products.retrieve(id).catch(() => undefined);
    const written = lines.map((line) => String(line[0]));
    expect(written.some((line) => line.includes('GET /products/prd_xxx'))).toBe(true);
    expect(written.some((line) => line.includes('(a path of'))).toBe(true);
    for (const line of written) expect(line.length).toBeLessThan(1_000);
  });
});
