/**
 * The msw face in a partner's msw setup: the kit's handlers beside the partner's own for other
 * hosts, two kits on two hosts, and a request no handler names passing on to the network
 * (`onUnhandledFrame` of msw 3 told of it), so the kit answers its own host only.
 */
import { createServer } from 'node:http';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { mswHandlers } from 'partner-sdk/testing/msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../helpers/http-servers';

const mock = createMockPartnerApi();
const other = createMockPartnerApi({ baseUrl: 'https://other-kit.test/api/v1' });
const unhandled: string[] = [];
const server = setupServer(
  http.get('https://crm.partner.test/ping', () => HttpResponse.json({ pong: true })),
  ...mswHandlers(mock),
  ...mswHandlers(other),
  http.all('https://crm.partner.test/*', () => HttpResponse.json({ own: true })),
);
let real: RunningServer;

beforeAll(async () => {
  real = await listen(createServer((req, res) => res.end(JSON.stringify({ real: req.url }))));
  server.listen({
    onUnhandledFrame: ({ frame }) => {
      // An http frame's data carries its request; msw types every frame's data as unknown.
      const { request } = frame.data as { request?: Request };
      if (frame.protocol === 'http' && request) unhandled.push(request.url);
    },
  });
});
afterAll(async () => {
  server.close();
  await real.close();
});

describe("the kit's msw handlers beside a partner's", () => {
  // Each test counts the kits' requests from its own start: the suite may run them in any order.
  const kitRequests = () => [mock.stats.requests, other.stats.requests];

  it("leave other hosts to the partner's handlers and to the network", async () => {
    const before = kitRequests();
    const ping = await fetch('https://crm.partner.test/ping');
    expect(await ping.json()).toEqual({ pong: true });
    const own = await fetch('https://crm.partner.test/contacts');
    expect(await own.json()).toEqual({ own: true });
    const passed = await fetch(`${real.url}/hello`);
    expect(await passed.json()).toEqual({ real: '/hello' });
    expect(unhandled).toEqual([`${real.url}/hello`]);
    expect(kitRequests()).toEqual(before);
  });

  it('answer each kit on its own host, neither seeing the other', async () => {
    const [mockBefore, otherBefore] = kitRequests() as [number, number];
    for (const kit of [mock, other]) {
      const client = new PartnerClient({
        baseUrl: kit.baseUrl,
        ...kit.credentials,
        logLevel: 'off',
      });
      const seller = client.forUser(kit.sellers.person.publicToken);
      const result = await seller.refunds.request(kit.transactions.refundable[0]!);
      expect(result.kind).toBe('accepted');
    }
    expect(kitRequests()).toEqual([mockBefore + 2, otherBefore + 2]);
  });
});
