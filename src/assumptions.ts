/**
 * Every default the SDK assumes where the spec says "not shown" (DESIGN §6), in one place, so a
 * partner (or a later spec) can see and change each of them here. The README's "Assumptions" table
 * lists the same entries with the spec section each one fills.
 *
 * @module
 */

/** Spec §5.2: the login path is `/auth`; the shape of its request and response is not shown. */
export const LOGIN = {
  /** Path of the login endpoint, relative to `baseUrl`. */
  path: '/auth',
  /** Assumed request body: the identifier and secret under these names. */
  body: (clientId: string, clientSecret: string) => ({
    client_id: clientId,
    client_secret: clientSecret,
  }),
  /** Assumed response: the token at `client_token`, or under `data.client_token`. */
  readToken(body: unknown): string | undefined {
    if (!body || typeof body !== 'object') return undefined;
    const record = body as Record<string, unknown>;
    const data = record.data as Record<string, unknown> | undefined;
    const token = record.client_token ?? data?.client_token;
    return typeof token === 'string' && token !== '' ? token : undefined;
  },
} as const;

/**
 * Spec §5.6: the status of an origin rejection is not shown. A 403 is read as the registered-origin
 * rule (its error message says so); a 401 on the root client also hints at the seller token.
 */
export const ORIGIN_REJECTION_STATUSES = [401, 403] as const;
