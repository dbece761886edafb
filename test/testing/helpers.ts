import type { MockPartnerApi } from '../../src/testing';

/** Headers with the mock's pre-issued client token, plus `extra`. */
export function clientHeaders(mock: MockPartnerApi, extra: Record<string, string> = {}) {
  return { 'X-Api-Client-Token': mock.credentials.clientToken, ...extra };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read wire bodies loosely and assert on them.
type Loose = any;

/** Calls the mock's fetch face with the client token and an optional JSON body. */
export async function call(
  mock: MockPartnerApi,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Loose }> {
  const res = await mock.fetch(`${mock.baseUrl}${path}`, {
    method,
    headers: clientHeaders(
      mock,
      body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
