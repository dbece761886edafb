import { inspect } from 'node:util';
import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';

// A partner's `console.log(client)`, an error reporter walking an object that holds a client, a
// request context serialised as JSON: none of them may print what the client calls with.

const mock = createMockPartnerApi();
const GATEWAY_KEY = 'gw-key-inspect-4417';
const BASIC = 'Basic cGFydG5lcjpodW50ZXIyLWluc3BlY3Q=';

function clients() {
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
    clientToken: mock.credentials.clientToken,
    logLevel: 'off',
    defaultHeaders: { Authorization: BASIC, 'X-Api-Key': GATEWAY_KEY },
  });
  return {
    client,
    faster: client.withOptions({ timeout: 5_000 }),
    seller: client.forUser(mock.sellers.person.publicToken),
  };
}

const SECRETS = [
  mock.credentials.clientSecret,
  mock.credentials.clientToken,
  mock.sellers.person.publicToken,
  BASIC,
  GATEWAY_KEY,
];

/** Every way a partner's code turns a client into text without asking for its credentials. */
function renderings(value: unknown): string[] {
  return [
    inspect(value),
    inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    inspect({ nested: { deeper: value } }, { depth: 10 }),
    JSON.stringify(value),
    JSON.stringify({ nested: value }),
  ];
}

describe('a client turned into text', () => {
  it('shows no credential in util.inspect or JSON.stringify, for a root, withOptions or seller client', () => {
    for (const [name, value] of Object.entries(clients())) {
      for (const text of renderings(value)) {
        for (const secret of SECRETS) {
          expect(text.includes(secret), `${name} shows ${secret}: ${text.slice(0, 200)}`).toBe(
            false,
          );
        }
      }
    }
  });

  it('still says which client it is: its class, base URL and client id', () => {
    const { client, seller } = clients();
    // Read on one line: util.inspect breaks a long one where the terminal would.
    const oneLine = (value: unknown) => inspect(value).replace(/\s+/g, ' ');
    expect(oneLine(client)).toBe(
      `PartnerClient { baseUrl: '${mock.baseUrl}', clientId: '${mock.credentials.clientId}' }`,
    );
    expect(oneLine(seller)).toMatch(/^SellerClient \{ baseUrl: '[^']+', clientId: '[^']+' \}$/);
    expect(JSON.parse(JSON.stringify(client))).toEqual({
      baseUrl: mock.baseUrl,
      clientId: mock.credentials.clientId,
    });
  });

  it('keeps working after being shown', async () => {
    const { seller } = clients();
    inspect(seller);
    JSON.stringify(seller);
    await expect(seller.products.list({ per_page: 1 })).resolves.toBeDefined();
  });
});
