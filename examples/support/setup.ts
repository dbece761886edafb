/**
 * What every example shares: where it runs, and how it prints.
 *
 * By default an example starts the embedded mock API (`partner-sdk/testing`) on a loopback port
 * and uses the credentials and seeded data it names, so it needs no account and no network. With
 * `PARTNER_API_BASE_URL` set it runs against that service instead, configured the way a partner's
 * app is, from the environment:
 *
 * | variable | used for |
 * |---|---|
 * | `PARTNER_API_BASE_URL` | the service, e.g. `https://partner.example.com/api/v1` |
 * | `PARTNER_API_CLIENT_ID`, `PARTNER_API_CLIENT_SECRET` (or `PARTNER_API_CLIENT_TOKEN`) | the client's login |
 * | `PARTNER_API_PUBLIC_TOKEN` | a seller's public token, for the calls made for a seller |
 * | `EXAMPLE_*` (named by each example) | the objects an example works on: a transaction to refund, an offer to change… |
 *
 * Against a real service the examples change real data (they refund, update offers and profiles):
 * point them at a sandbox.
 *
 * @module
 */

import { type FetchLike, PartnerClient, type SellerClient } from 'partner-sdk';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';

/** A connected example: its clients, the mock when there is one, and how to end. */
export interface Example {
  /** The client, with the client token only. */
  client: PartnerClient;
  /** A client acting for one seller (the mock's person seller, or `PARTNER_API_PUBLIC_TOKEN`). */
  readonly seller: SellerClient;
  /** The embedded mock, or `undefined` against a real service. */
  mock: MockPartnerApi | undefined;
  /**
   * An input of the example: from the mock's seeded data, or from the environment variable `name`
   * against a real service (where a missing one is an error that says what to set).
   */
  input(name: string, fromMock: (mock: MockPartnerApi) => string): string;
  /** Like `input`, but `undefined` against a real service without the variable (the step is skipped). */
  optionalInput(name: string, fromMock: (mock: MockPartnerApi) => string): string | undefined;
  /** Stops the mock's server, so the process can exit. */
  close(): Promise<void>;
}

/**
 * Connects an example and prints its title and target. `trace: true` prints every HTTP call the
 * SDK makes (method, path, status), through the client's `fetch` option.
 */
export async function connect(title: string, options: { trace?: boolean } = {}): Promise<Example> {
  const real = process.env.PARTNER_API_BASE_URL;
  const mock = real ? undefined : createMockPartnerApi();
  const server = await mock?.listen();
  const baseUrl = server?.url ?? (real as string);
  console.log(`${title}\nagainst ${mock ? 'the embedded mock API at ' : ''}${baseUrl}`);

  const fetch = options.trace ? tracing(baseUrl) : undefined;
  // Against a real service, baseUrl and credentials come from the environment (PARTNER_API_*).
  const client = mock
    ? new PartnerClient({
        baseUrl,
        clientId: mock.credentials.clientId,
        clientSecret: mock.credentials.clientSecret,
        fetch,
      })
    : new PartnerClient({ fetch });
  const publicToken = mock ? mock.sellers.person.publicToken : process.env.PARTNER_API_PUBLIC_TOKEN;
  let seller: SellerClient | undefined;

  const optionalInput = (name: string, fromMock: (mock: MockPartnerApi) => string) =>
    mock ? fromMock(mock) : process.env[name] || undefined;
  return {
    client,
    get seller() {
      if (!publicToken) missing('PARTNER_API_PUBLIC_TOKEN', "a seller's public token");
      seller ??= client.forUser(publicToken);
      return seller;
    },
    mock,
    optionalInput,
    input(name, fromMock) {
      const value = optionalInput(name, fromMock);
      return value ?? missing(name, 'named at the top of the example');
    },
    close: async () => server?.close(),
  };
}

/** Stops an example that lacks a setting to run against a real service, saying which. */
function missing(name: string, what: string): never {
  console.error(`Set ${name} (${what}) to run this example against a real service.`);
  process.exit(2);
}

let steps = 0;

/** Prints the title of the next numbered step. */
export function step(title: string): void {
  steps += 1;
  console.log(`\n${steps}. ${title}`);
}

/** Prints one line of a step's result. */
export function say(line: string): void {
  console.log(`   ${line}`);
}

/** A price in cents, as the platform shows it (it sells in BRL). */
export function brl(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '(none)';
  return (cents / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });
}

/** `fetch` that prints each call: path relative to the API (query kept), or only the path elsewhere (pre-signed URLs). */
function tracing(baseUrl: string): FetchLike {
  const api = new URL(baseUrl);
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const onApi = url.origin === api.origin && url.pathname.startsWith(api.pathname);
    const shown = onApi ? url.pathname.slice(api.pathname.length) + url.search : url.pathname;
    const response = await globalThis.fetch(input, init);
    say(`  http ${method.toUpperCase()} ${shown} → ${response.status}`);
    return response;
  };
}
