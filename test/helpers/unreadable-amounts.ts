/**
 * A fetch in front of the testing kit that answers as a service writing its `decimal` columns as
 * strings would (a Laravel `decimal:2` cast): every `amount` number of a JSON answer comes as reais
 * with two decimals (`5000` cents as `"50.00"`), where the spec gives a number. The service acts
 * exactly as the kit does; only its answers are ones the SDK cannot read.
 */

import { createMockPartnerApi } from 'partner-sdk/testing';
import { kitClients } from './kit-clients';

type Fetch = (request: Request) => Promise<Response>;

/** `value` with every `amount` number below it written as a decimal string. */
function stringAmounts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stringAmounts);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      key === 'amount' && typeof field === 'number'
        ? (field / 100).toFixed(2)
        : stringAmounts(field),
    ]),
  );
}

/**
 * `kitFetch` (the kit's `.fetch`) with its JSON answers' amounts written as strings. `afterActing`, when
 * given, runs once the service has answered a refund request and before the answer reaches the
 * SDK: there a test completes the refund, so that a blind repeat would make a second one (spec §3).
 */
export function amountsAsStrings(
  kitFetch: Fetch,
  afterActing?: (transactionHash: string) => Promise<void>,
): typeof globalThis.fetch {
  return async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const response = await kitFetch(request);
    const refunded = new URL(request.url).pathname.match(/\/financial\/refund\/([^/]+)$/);
    if (request.method === 'POST' && refunded && afterActing) await afterActing(refunded[1]!);
    const text = await response.text();
    let body: string = text;
    try {
      body = JSON.stringify(stringAmounts(JSON.parse(text)));
    } catch {}
    return new Response(body === '' ? null : body, {
      status: response.status,
      headers: response.headers,
    });
  };
}

/**
 * A kit with one transaction whose refund is already requested (active, completed within two
 * polls), and a seller client whose answers carry amounts as strings: its refund request's 200
 * naming that refund (active then) is unreadable, and the refund completes while that answer is on
 * its way, so that only a reconciliation keeps a repeat from making a second one. `honest` reads
 * the kit as it is.
 */
export async function activeRefundBehindStringAmounts() {
  const mock = createMockPartnerApi();
  const hash = mock.addTransaction(5000);
  mock.refundOutcome(hash, 'completed', { polls: 2 });
  const honest = kitClients(mock, { clientToken: mock.credentials.clientToken }).seller;
  await honest.refunds.request(hash);
  const complete = (transaction: string) =>
    honest.refunds.waitForCompletion(transaction, { interval: 1 }).then(() => {});
  const { seller } = kitClients(mock, {
    clientToken: mock.credentials.clientToken,
    fetch: amountsAsStrings(mock.fetch, complete),
  });
  return { mock, hash, seller, honest };
}
