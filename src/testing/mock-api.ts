/**
 * `createMockPartnerApi`: builds the state, the fault queue and the three faces, and wires the
 * knobs of {@link MockPartnerApi} (tokens, origin rule, automatic-PIX enablement, refund and export
 * outcomes, faults, the clock) to them.
 *
 * @module
 */

import { DROP, dispatch, type RequestSource } from './dispatch';
import { FaultQueue } from './faults';
import {
  CONFIRMABLE_ANTICIPATIONS,
  REFUNDABLE,
  WITH_ACTIVE_REFUND,
  WITH_PAST_REFUND,
} from './fixtures/financial';
import { setRawHandler } from './internal';
import type {
  MockCredentials,
  MockPartnerApi,
  MockProductHandle,
  MockSellers,
} from './mock-api-types';
import { latencyOf, RateLimiter, rateLimitOf } from './pace';
import { apiRoutes, publicRouteKeys } from './routes';
import { revokePixRecurring } from './routes/products';
import { planRefund } from './routes/refunds';
import { planExport } from './routes/statements';
import { addSeller, type MockSellerOptions } from './sellers';
import { listen } from './server';
import {
  countOf,
  createState,
  type MockPartnerApiSeed,
  type MockSeller,
  type MockState,
  randomId,
} from './state';

function fetchFailed(): TypeError {
  const cause = Object.assign(new Error('read ECONNRESET'), {
    code: 'ECONNRESET',
    errno: -104,
    syscall: 'read',
  });
  return new TypeError('fetch failed', { cause });
}

/**
 * The kit's credentials. The ready token is readable but not enumerable, so a client built with
 * `...mock.credentials` logs in at `POST /auth` as a partner's service does (a token store under
 * test is really exercised); a test that wants the ready token names it.
 */
function credentialsOf(state: MockState): MockCredentials {
  const credentials = { clientId: state.clientId, clientSecret: state.clientSecret };
  return Object.defineProperty(credentials, 'clientToken', {
    value: [...state.clientTokens][0]!,
    enumerable: false,
  }) as MockCredentials;
}

/**
 * The seeded sellers as a list that also names them; the names are not enumerable, so
 * `Object.values`, spreads and JSON see the two sellers once.
 */
function sellersOf(state: MockState): MockSellers {
  const [person, company] = state.sellers as [MockSeller, MockSeller];
  const sellers = [person, company];
  Object.defineProperty(sellers, 'person', { value: person, enumerable: false });
  Object.defineProperty(sellers, 'company', { value: company, enumerable: false });
  return Object.freeze(sellers) as unknown as MockSellers;
}

/** The seeded data a test names: sellers, transactions, products and their offers, accounts. */
function seededHandles(state: MockState) {
  const handleOf = (hash: string): MockProductHandle => {
    const p = state.products.find((x) => x.product.hash === hash)!;
    return { hash, offerCode: p.offers[0]!.offer.code, producerCode: p.producerCode };
  };
  const [course, ebook, physical, recurring] = state.products.map((p) => p.product.hash);
  return {
    credentials: credentialsOf(state),
    sellers: sellersOf(state),
    transactions: {
      refundable: REFUNDABLE,
      withActiveRefund: WITH_ACTIVE_REFUND,
      withPastRefund: WITH_PAST_REFUND,
    },
    products: {
      course: handleOf(course!),
      ebook: handleOf(ebook!),
      physical: handleOf(physical!),
      recurring: handleOf(recurring!),
      hashes: state.products.map((p) => p.product.hash),
    },
    bankAccounts: { pix: 'bnk_7Hq2Lx9P', bank: 'bnk_3Rt8Vw1K' },
    anticipations: { confirmable: CONFIRMABLE_ANTICIPATIONS.map((a) => a.hash) },
  };
}

/** The knobs that pace the mock or script its failures. */
function faultKnobs(state: MockState, faults: FaultQueue) {
  return {
    failNext: (options: Parameters<MockPartnerApi['failNext']>[0]) => faults.fail(options),
    dropNext: (options: Parameters<MockPartnerApi['dropNext']>[0] = {}) => faults.drop(options),
    clearFaults: () => faults.clear(),
    setRateLimit: (rateLimit: Parameters<MockPartnerApi['setRateLimit']>[0]) => {
      const limit = rateLimitOf(rateLimit);
      state.rateLimiter = limit ? new RateLimiter(limit) : undefined;
    },
    setLatency: (latencyMs: Parameters<MockPartnerApi['setLatency']>[0]) => {
      state.latency = latencyOf(latencyMs);
    },
    expireTokens: () => state.clientTokens.clear(),
    setOriginAllowed: (allowed: boolean) => {
      state.originAllowed = allowed;
    },
  };
}

/**
 * Refuses an outcome other than the two a script can give (`completed`, `failed`): a misspelt one
 * would become the status a poll shows, which no client takes for final.
 */
function checkOutcome(where: string, outcome: unknown): void {
  if (outcome === 'completed' || outcome === 'failed') return;
  throw new TypeError(`${where}: outcome must be 'completed' or 'failed', got ${String(outcome)}`);
}

/** The knobs that change the service's data: enablements, outcomes, offers, transactions, time. */
function dataKnobs(state: MockState) {
  return {
    enablePixRecurring: (producerCode: string) => {
      state.pixEnabled.add(producerCode);
    },
    revokePixRecurring: (producerCode: string) => revokePixRecurring(state, producerCode),
    refundOutcome: (
      hash: string,
      outcome: 'completed' | 'failed',
      options: { polls?: number } = {},
    ) => {
      checkOutcome('refundOutcome', outcome);
      planRefund(state, hash, outcome, options.polls);
    },
    exportOutcome: (
      hash: string,
      outcome: 'completed' | 'failed',
      options: { polls?: number } = {},
    ) => {
      checkOutcome('exportOutcome', outcome);
      planExport(state, hash, outcome, options.polls);
    },
    getOffer: (productHash: string, offerCode: string) => {
      const p = state.products.find((x) => x.product.hash === productHash);
      const o = p?.offers.find((x) => x.offer.code === offerCode);
      return o ? { ...o.offer, ...o.hidden } : undefined;
    },
    addTransaction: (amountCents = 9900, options: { seller?: string } = {}) => {
      const { seller } = options;
      if (seller !== undefined && !state.sellers.some((s) => s.code === seller)) {
        throw new RangeError(`addTransaction: no seller of the kit has the code ${seller}`);
      }
      const amount = countOf('addTransaction: amountCents', amountCents);
      const hash = randomId('trx', 8);
      state.transactions.set(hash, { hash, amount, records: [], seller });
      return hash;
    },
    addSeller: (options: MockSellerOptions) => addSeller(state, options),
    advanceClock: (ms: number) => state.clock.advance(ms),
    now: () => new Date(state.clock.now()),
  };
}

/**
 * Creates an in-memory fake of the whole documented Partner Integration API, seeded with
 * hand-written data (two sellers, 120 products, transactions, anticipations, fee tiers); more
 * sellers with `addSeller`.
 *
 * @throws RangeError for a seed number no kit can hold (`productCount`, `refundPolls` or
 *   `exportPolls` not a whole number in its range, a `rateLimit` not above zero, a negative
 *   `latencyMs`).
 * @throws TypeError for an `assumptions` switch the kit cannot follow or an unknown `publicRoutes`
 *   route.
 * @example
 * ```ts
 * import { createMockPartnerApi } from 'partner-sdk/testing';
 *
 * const mock = createMockPartnerApi();
 * const client = new PartnerClient({ baseUrl: mock.baseUrl, fetch: mock.fetch, ...mock.credentials });
 * ```
 */
export function createMockPartnerApi(seed: MockPartnerApiSeed = {}): MockPartnerApi {
  if (typeof seed !== 'object' || seed === null) {
    throw new TypeError('createMockPartnerApi: the seed must be an object.');
  }
  const state = createState(seed);
  state.routes = apiRoutes(state.shapes);
  state.publicRoutes = publicRouteKeys(seed.publicRoutes ?? [], state.routes);
  const faults = new FaultQueue();
  const handle = (request: Request, source: RequestSource) =>
    dispatch(state, faults, request, source);
  const mock: MockPartnerApi = {
    baseUrl: (seed.baseUrl ?? 'https://partner-api.mock.test/api/v1').replace(/\/+$/, ''),
    ...seededHandles(state),
    get requests() {
      return state.requests;
    },
    get stats() {
      const login = state.shapes.login.path;
      return {
        requests: state.requests.length,
        logins: state.requests.filter((r) => r.method === 'POST' && r.path === login).length,
        rateLimited: state.rateLimited,
      };
    },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      request.signal.throwIfAborted();
      const answer = await handle(request, { remoteAddress: '127.0.0.1' });
      if (answer === DROP) throw fetchFailed();
      return answer;
    },
    listen: (options) => listen(handle, options),
    ...faultKnobs(state, faults),
    ...dataKnobs(state),
    clearRequests: () => {
      state.requests.length = 0;
      state.rateLimited = 0;
    },
  };
  setRawHandler(mock, handle);
  return mock;
}
