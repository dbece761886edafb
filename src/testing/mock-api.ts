/**
 * `createMockPartnerApi`: the public face of the fake service, its handles to the seeded data and
 * the knobs tests turn (tokens, origin rule, automatic-PIX enablement, refund and export outcomes,
 * faults).
 *
 * @module
 */

import { DROP, dispatch } from './dispatch';
import { type DropNextOptions, type FailNextOptions, FaultQueue } from './faults';
import {
  CONFIRMABLE_ANTICIPATIONS,
  REFUNDABLE,
  WITH_ACTIVE_REFUND,
  WITH_PAST_REFUND,
} from './fixtures/financial';
import { setRawHandler } from './internal';
import { revokePixRecurring, type StoredOffer } from './routes/products';
import { planRefund } from './routes/refunds';
import { planExport } from './routes/statements';
import { listen, type MockServer } from './server';
import {
  createState,
  type MockPartnerApiSeed,
  type MockSeller,
  type RecordedRequest,
  randomId,
} from './state';

/** A seeded product and its first offer. */
export interface MockProductHandle {
  /** Product hash (spec §2.5). */
  hash: string;
  /** Code of its offer (spec §2.6). */
  offerCode: string;
  /** Code of the producer (seller) that owns it. */
  producerCode: string;
}

/** Credentials the mock accepts. */
export interface MockCredentials {
  /** Client id for `POST /auth`. */
  clientId: string;
  /** Client secret for `POST /auth`. */
  clientSecret: string;
  /** A client token issued up front (valid until `expireTokens()`). */
  clientToken: string;
}

/** An in-memory fake of the Partner Integration API. Create it with {@link createMockPartnerApi}. */
export interface MockPartnerApi {
  /** API base URL of the `.fetch` and msw faces (ends in `/api/v1`). */
  readonly baseUrl: string;
  /** The client credentials and a pre-issued client token. */
  readonly credentials: MockCredentials;
  /** The seeded sellers, usable as bearers: a person and a company. */
  readonly sellers: { readonly person: MockSeller; readonly company: MockSeller };
  /** Seeded transactions: fresh ones, one with an active (`requested`) refund, one refunded in the past. */
  readonly transactions: {
    readonly refundable: readonly string[];
    readonly withActiveRefund: string;
    readonly withPastRefund: string;
  };
  /** Seeded products with an offer each (all owned by the person seller), and every product hash in list order. */
  readonly products: {
    readonly course: MockProductHandle;
    readonly ebook: MockProductHandle;
    readonly physical: MockProductHandle;
    readonly recurring: MockProductHandle;
    readonly hashes: readonly string[];
  };
  /** Seeded bank-account hashes: a PIX receiver (person) and a bank receiver (company). */
  readonly bankAccounts: { readonly pix: string; readonly bank: string };
  /** Hashes of calculated anticipations awaiting confirmation. */
  readonly anticipations: { readonly confirmable: readonly string[] };
  /** Every request received, oldest first. */
  readonly requests: readonly RecordedRequest[];
  /** Counters over {@link MockPartnerApi.requests}: all requests, and `POST /auth` calls. */
  readonly stats: { readonly requests: number; readonly logins: number };

  /**
   * Answers a request like the service would, with no socket: a Fetch-standard function, bound,
   * taking `(input, init)` like `fetch`. A dropped connection rejects with
   * `TypeError('fetch failed')` whose `cause.code` is `ECONNRESET`.
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
   * Starts a real loopback HTTP server (127.0.0.1, free port) over this mock's state.
   *
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
  listen(): Promise<MockServer>;

  /**
   * Makes the next matching request(s) fail with `status` (after `delayMs`), with an optional
   * `Retry-After` and body. Without `status`, only delays.
   *
   * @example
   * ```ts
   * mock.failNext({ status: 503, times: 2, retryAfter: 1, path: '/products' });
   * mock.failNext({ delayMs: 2_000 }); // a slow answer, to test time-outs
   * ```
   */
  failNext(options: FailNextOptions): void;

  /**
   * Drops the connection of the next matching request(s): the server face destroys the socket,
   * the fetch face rejects like `fetch` on a reset, the msw face answers a network error.
   *
   * @example
   * ```ts
   * mock.dropNext({ times: 1, path: '/financial/anticipation' });
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
   * endpoint answers `requested` for `polls` polls (default from the seed, 1), then `outcome`.
   *
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
   * (default from the seed, 1), then `completed` with a download `url`, or `failed`.
   *
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
   * Adds a paid transaction without refunds and returns its hash.
   *
   * @example
   * ```ts
   * const trx = mock.addTransaction(4990);
   * ```
   */
  addTransaction(amountCents?: number): string;

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

function fetchFailed(): TypeError {
  const cause = Object.assign(new Error('read ECONNRESET'), {
    code: 'ECONNRESET',
    errno: -104,
    syscall: 'read',
  });
  return new TypeError('fetch failed', { cause });
}

/**
 * Creates an in-memory fake of the whole documented Partner Integration API, seeded with
 * hand-written data (two sellers, 120 products, transactions, anticipations, fee tiers).
 *
 * @example
 * ```ts
 * import { createMockPartnerApi } from 'partner-sdk/testing';
 *
 * const mock = createMockPartnerApi();
 * const client = new PartnerClient({ baseUrl: mock.baseUrl, fetch: mock.fetch, ...mock.credentials });
 * ```
 */
export function createMockPartnerApi(seed: MockPartnerApiSeed = {}): MockPartnerApi {
  const state = createState(seed);
  const faults = new FaultQueue();
  const baseUrl = (seed.baseUrl ?? 'https://partner-api.mock.test/api/v1').replace(/\/+$/, '');
  const handle = (request: Request, source: { remoteAddress: string }) =>
    dispatch(state, faults, request, source);
  const handleOf = (hash: string): MockProductHandle => {
    const p = state.products.find((x) => x.product.hash === hash)!;
    return { hash, offerCode: p.offers[0]!.offer.code, producerCode: p.producerCode };
  };
  const [person, company] = state.sellers as [MockSeller, MockSeller];
  const [featuredCourse, featuredEbook, featuredPhysical, featuredRecurring] = state.products;

  const mock: MockPartnerApi = {
    baseUrl,
    credentials: {
      clientId: state.clientId,
      clientSecret: state.clientSecret,
      clientToken: [...state.clientTokens][0]!,
    },
    sellers: { person, company },
    transactions: {
      refundable: REFUNDABLE,
      withActiveRefund: WITH_ACTIVE_REFUND,
      withPastRefund: WITH_PAST_REFUND,
    },
    products: {
      course: handleOf(featuredCourse!.product.hash),
      ebook: handleOf(featuredEbook!.product.hash),
      physical: handleOf(featuredPhysical!.product.hash),
      recurring: handleOf(featuredRecurring!.product.hash),
      hashes: state.products.map((p) => p.product.hash),
    },
    bankAccounts: { pix: 'bnk_7Hq2Lx9P', bank: 'bnk_3Rt8Vw1K' },
    anticipations: { confirmable: CONFIRMABLE_ANTICIPATIONS.map((a) => a.hash) },
    get requests() {
      return state.requests;
    },
    get stats() {
      return {
        requests: state.requests.length,
        logins: state.requests.filter((r) => r.method === 'POST' && r.path === '/auth').length,
      };
    },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      request.signal.throwIfAborted();
      const answer = await handle(request, { remoteAddress: '127.0.0.1' });
      if (answer === DROP) throw fetchFailed();
      return answer;
    },
    listen: () => listen(handle),
    failNext: (options) => faults.fail(options),
    dropNext: (options = {}) => faults.drop(options),
    clearFaults: () => faults.clear(),
    expireTokens: () => state.clientTokens.clear(),
    setOriginAllowed: (allowed) => {
      state.originAllowed = allowed;
    },
    enablePixRecurring: (producerCode) => {
      state.pixEnabled.add(producerCode);
    },
    revokePixRecurring: (producerCode) => revokePixRecurring(state, producerCode),
    refundOutcome: (hash, outcome, options = {}) => planRefund(state, hash, outcome, options.polls),
    exportOutcome: (hash, outcome, options = {}) => planExport(state, hash, outcome, options.polls),
    getOffer: (productHash, offerCode) => {
      const p = state.products.find((x) => x.product.hash === productHash);
      const o = p?.offers.find((x) => x.offer.code === offerCode);
      return o ? { ...o.offer, ...o.hidden } : undefined;
    },
    addTransaction: (amountCents = 9900) => {
      const hash = randomId('trx', 8);
      state.transactions.set(hash, { hash, amount: amountCents, records: [] });
      return hash;
    },
    clearRequests: () => {
      state.requests.length = 0;
    },
  };
  setRawHandler(mock, handle);
  return mock;
}
