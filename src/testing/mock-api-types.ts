/**
 * The public shape of the mock: {@link MockPartnerApi}, its faces and the knobs a test turns; what
 * it was seeded with is `mock-api-seeded.ts`.
 *
 * @module
 */

import type { DropNextOptions, FailNextOptions } from './faults';
import type { createMockPartnerApi } from './mock-api';
import type { MockSeeded } from './mock-api-seeded';
import type { LatencyOptions, RateLimitOptions } from './pace';
import type { StoredOffer } from './routes/products';
import type { MockSellerOptions } from './sellers';
import type { MockListenOptions, MockServer } from './server';
import type { MockSeller, RecordedRequest } from './state';

export type {
  MockCredentials,
  MockProductHandle,
  MockSeeded,
  MockSellers,
} from './mock-api-seeded';

/** An in-memory fake of the Partner Integration API. Create it with {@link createMockPartnerApi}. */
export interface MockPartnerApi extends MockSeeded {
  /** API base URL of the `.fetch` and msw faces (ends in `/api/v1`). */
  readonly baseUrl: string;
  /** Every request received, oldest first. */
  readonly requests: readonly RecordedRequest[];
  /** Counters over {@link MockPartnerApi.requests}: all requests, and `POST /auth` calls. */
  readonly stats: {
    /** Requests received. */
    readonly requests: number;
    /** `POST /auth` calls received. */
    readonly logins: number;
    /** Requests answered 429 by the rate limit (`failNext` 429s not included). */
    readonly rateLimited: number;
  };

  /**
   * Answers a request like the service would, with no socket: a Fetch-standard function, bound,
   * taking `(input, init)` like `fetch`. A drop rejects: `TypeError('fetch failed')`, cause `ECONNRESET`.
   *
   * @example
   * ```ts
   * const mock = createMockPartnerApi();
   * const res = await mock.fetch(`${mock.baseUrl}/products`, {
   *   headers: { 'X-Api-Client-Token': mock.credentials.clientToken },
   * });
   * ```
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;

  /**
   * Starts a real loopback HTTP server (127.0.0.1, a free port or `options.port`) over this mock's state.
   * @throws RangeError for a port not a whole number from 0 to 65535; a taken one rejects `EADDRINUSE`.
   * @example
   * ```ts
   * const server = await mock.listen();
   * try {
   *   await fetch(`${server.url}/products`, { headers: { 'X-Api-Client-Token': mock.credentials.clientToken } });
   * } finally {
   *   await server.close();
   * }
   * ```
   */
  listen(options?: MockListenOptions): Promise<MockServer>;

  /**
   * Makes the next matching request(s) fail with `status` (after `delayMs`), with an optional
   * `Retry-After` and body. Without `status`, only delays.
   *
   * @example
   * ```ts
   * mock.failNext({ status: 503, times: 2, retryAfter: 1, path: '/products' });
   * mock.failNext({ delayMs: 2_000 }); // a slow answer, to test time-outs
   * ```
   * @throws RangeError or TypeError for a fault no answer could carry or no request could match
   * (a status outside 200 to 599, a fractional `retryAfter`, a URL as `path`), when queued.
   */
  failNext(options: FailNextOptions): void;

  /**
   * Drops the connection of the next matching request(s), on arrival or (`afterHandling`) once
   * the service acted: the server face destroys the socket, the fetch face rejects like `fetch`
   * on a reset, the msw face answers a network error.
   *
   * @example
   * ```ts
   * mock.dropNext({ times: 1, path: '/financial/anticipation', afterHandling: true });
   * ```
   */
  dropNext(options?: DropNextOptions): void;

  /**
   * Forgets every pending `failNext` and `dropNext`.
   *
   * @example
   * ```ts
   * mock.clearFaults();
   * ```
   */
  clearFaults(): void;

  /**
   * Sets, changes or (with `undefined`) removes the rate limit: requests per second, or
   * `{ requestsPerSecond, burst }` for a token bucket. Every request under the API base counts,
   * the login included; over the limit the mock answers 429 `{"message":"Too Many Attempts."}`
   * with `Retry-After` (whole seconds until a request would be admitted, at least 1) and
   * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`, as a Laravel `throttle`
   * does. A new limit starts with a full bucket.
   *
   * @example
   * ```ts
   * mock.setRateLimit({ requestsPerSecond: 50, burst: 10 });
   * mock.setRateLimit(undefined); // no limit
   * ```
   */
  setRateLimit(rateLimit: RateLimitOptions | number | undefined): void;

  /**
   * Sets, changes or (with `undefined` or 0) removes the delay before every answer: fixed
   * milliseconds, or `{ ms, jitterMs }` for a uniform extra of up to `jitterMs` per request. The
   * delay ends early when the request is aborted.
   *
   * @example
   * ```ts
   * mock.setLatency({ ms: 5, jitterMs: 3 });
   * mock.setLatency(undefined); // answer at once
   * ```
   */
  setLatency(latencyMs: LatencyOptions | number | undefined): void;

  /**
   * Makes every client token issued so far (including `credentials.clientToken`) be refused with
   * 401, so a client's re-login can be tested. New logins still work.
   *
   * @example
   * ```ts
   * mock.expireTokens();
   * ```
   */
  expireTokens(): void;

  /**
   * Switches the origin rule (spec §5.6): when not allowed, every call is refused with 403 and a
   * message naming the caller's unregistered address.
   *
   * @example
   * ```ts
   * mock.setOriginAllowed(false);
   * ```
   */
  setOriginAllowed(allowed: boolean): void;

  /**
   * Enables automatic PIX for a producer (the operator's step of spec §4.6 rule 2).
   *
   * @example
   * ```ts
   * mock.enablePixRecurring(mock.products.recurring.producerCode);
   * ```
   */
  enablePixRecurring(producerCode: string): void;

  /**
   * Revokes automatic PIX for a producer, turning it off on all their offers (spec §4.6 rule 4).
   *
   * @example
   * ```ts
   * mock.revokePixRecurring(mock.products.recurring.producerCode);
   * ```
   */
  revokePixRecurring(producerCode: string): void;

  /**
   * Scripts how the refunds of a transaction end (the active one and later ones): the status
   * endpoint answers `requested` for `polls` polls (a whole number from 0; default from the seed,
   * 1), then, for `completed`, `success` for one poll (still active) and `completed`; for
   * `failed`, `failed`.
   *
   * @throws RangeError for `polls` not a whole number from 0, or a transaction the kit lacks.
   * @throws TypeError for an outcome other than `completed` and `failed`.
   * @example
   * ```ts
   * mock.refundOutcome(mock.transactions.refundable[0]!, 'failed', { polls: 3 });
   * ```
   */
  refundOutcome(
    transactionHash: string,
    outcome: 'completed' | 'failed',
    options?: { polls?: number },
  ): void;

  /**
   * Scripts how an export ends: its status lookup answers `processing` for `polls` polls
   * (a whole number from 0; default from the seed, 1), then `completed` with a download `url`, or
   * `failed`.
   *
   * @throws RangeError for `polls` not a whole number from 0.
   * @throws Error for a hash the kit holds no export under.
   * @throws TypeError for an outcome other than `completed` and `failed`.
   * @example
   * ```ts
   * mock.exportOutcome(exportHash, 'failed', { polls: 0 });
   * ```
   */
  exportOutcome(
    exportHash: string,
    outcome: 'completed' | 'failed',
    options?: { polls?: number },
  ): void;

  /**
   * The stored offer, including the settings the offer response leaves out
   * (`allow_pix_recurring` and friends), or `undefined`.
   *
   * @example
   * ```ts
   * const { hash, offerCode } = mock.products.recurring;
   * mock.getOffer(hash, offerCode)?.allow_pix_recurring; // false until enabled
   * ```
   */
  getOffer(productHash: string, offerCode: string): StoredOffer | undefined;

  /**
   * Adds a seller beyond the two seeded ones and returns it (`code`, `type`, `publicToken`), as a
   * platform with many sellers has: its token is accepted as a bearer from then on, and it owns
   * nothing (no transaction, bank account, product, anticipation or fee tier) until data is added
   * for it (`addTransaction(…, { seller: added.code })`). Every rule that keeps the seeded sellers
   * apart holds for it, and a profile update follows its type's rules (a company's first one must
   * name `company_partner`). `mock.sellers` stays the seeded two.
   *
   * @throws TypeError for a `type` other than `person` or `company`, or a `name` or `email` that
   *   is not a non-empty string.
   *
   * @example
   * ```ts
   * const added = mock.addSeller({ type: 'company', name: 'Loja Cinco Ltda' });
   * const seller = client.forUser(added.publicToken);
   * const trx = mock.addTransaction(4990, { seller: added.code });
   * ```
   */
  addSeller(options: MockSellerOptions): MockSeller;

  /**
   * Adds a paid transaction without refunds and returns its hash.
   *
   * With `seller` (a seller's `code`, seeded or added), the transaction is that seller's, as the
   * service keeps each seller's transactions apart: another seller's refund request, refund list or
   * status on it is answered 404 (`Transaction not found.`). Without it, as for the seeded transactions,
   * it becomes the seller's whose refund call (request, list or status) first names it, and is
   * not found by any other seller from then on.
   *
   * @throws RangeError for an `amountCents` that is not a whole number from 0, or a `seller` that
   *   is not the code of one of the kit's sellers.
   *
   * @example
   * ```ts
   * const trx = mock.addTransaction(4990);
   * const companyTrx = mock.addTransaction(4990, { seller: mock.sellers.company.code });
   * ```
   */
  addTransaction(amountCents?: number, options?: { seller?: string }): string;

  /**
   * Moves the kit's clock forward by `ms` milliseconds: the anticipation list's 10-minute cache
   * (spec §4.8) and every timestamp the kit's API writes from then on follow it (the `Date`
   * header, a refund's, an offer's, an anticipation's). The event factories (`webhookEvent`…)
   * belong to no kit and date an event on this machine's clock: give them `created_at`.
   *
   * @throws RangeError for `ms` that is not a whole number from 0 (the clock only moves on), or
   *   that would take the clock past the year 9999 (the spec's timestamps have four-digit years).
   * @example
   * ```ts
   * mock.advanceClock(10 * 60_000); // the cached anticipation list is computed afresh
   * ```
   */
  advanceClock(ms: number): void;

  /**
   * The kit's current time (the machine's, moved by {@link MockPartnerApi.advanceClock}).
   *
   * @example
   * ```ts
   * const at = mock.now();
   * ```
   */
  now(): Date;

  /**
   * Empties the request log (and so the counters of `stats`).
   *
   * @example
   * ```ts
   * mock.clearRequests();
   * ```
   */
  clearRequests(): void;
}
