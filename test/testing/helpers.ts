import type { MockPartnerApi } from '../../src/testing';

/** Headers with the mock's pre-issued client token, plus `extra`. */
export function clientHeaders(mock: MockPartnerApi, extra: Record<string, string> = {}) {
  return { 'X-Api-Client-Token': mock.credentials.clientToken, ...extra };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read wire bodies loosely and assert on them.
type Loose = any;

/** Headers with the client token and the person seller's bearer, plus `extra`. */
export function sellerHeaders(mock: MockPartnerApi, extra: Record<string, string> = {}) {
  return clientHeaders(mock, {
    Authorization: `Bearer ${mock.sellers.person.publicToken}`,
    ...extra,
  });
}

/**
 * Calls the mock's fetch face with the client token, the person seller's bearer (seller-scoped
 * routes need it; pass `{ Authorization: '' }` to send none) and an optional JSON body.
 */
export async function call(
  mock: MockPartnerApi,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Loose }> {
  const all: Record<string, string> = sellerHeaders(
    mock,
    body === undefined ? headers : { 'content-type': 'application/json', ...headers },
  );
  if (all.Authorization === '') delete all.Authorization;
  const res = await mock.fetch(`${mock.baseUrl}${path}`, {
    method,
    headers: all,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
