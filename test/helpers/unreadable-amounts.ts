/**
 * A fetch in front of the testing kit that answers as a service writing its `decimal` columns as
 * strings would (a Laravel `decimal:2` cast): every `amount` number of a JSON answer comes as reais
 * with two decimals (`5000` cents as `"50.00"`), where the spec gives a number. The service acts
 * exactly as the kit does; only its answers are ones the SDK cannot read.
 */

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
