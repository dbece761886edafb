/**
 * The mock's in-memory state: everything the routes read and change, built fresh from the seed
 * fixtures for each `createMockPartnerApi` call (so tests never share state by accident).
 *
 * @module
 */

import { KitClock } from './clock';
import {
  anticipationHistory,
  CONFIRMABLE_ANTICIPATIONS,
  companyAnticipationHistory,
  companyFeeTierHistory,
  feeTierHistory,
  transactions,
} from './fixtures/financial';
import { catalogue, type SeedProduct } from './fixtures/products';
import { bankAccounts, companyUser, personUser } from './fixtures/users';
import type { createMockPartnerApi } from './mock-api';
import {
  type LatencyOptions,
  latencyOf,
  RateLimiter,
  type RateLimitOptions,
  rateLimitOf,
} from './pace';
import type { Route } from './router';
import { type KitShapes, kitShapes, type MockAssumedRules, type MockAssumptions } from './shapes';
import type {
  WireAnticipation,
  WireBankAccount,
  WireExport,
  WireFeeTierChange,
  WireRefund,
  WireUser,
} from './wire';

/** Options of {@link createMockPartnerApi}; every field has a default. */
export interface MockPartnerApiSeed {
  /** Base URL of the `.fetch` and msw faces. Default `https://partner-api.mock.test/api/v1`. */
  baseUrl?: string;
  /** Client id accepted by `POST /auth`. Default `cli_partner_test`. */
  clientId?: string;
  /** Client secret accepted by `POST /auth`. Default `sk_test_partner_secret`. */
  clientSecret?: string;
  /**
   * How many products the catalogue holds (at least the 4 featured ones): a whole number from 0 to
   * 100 000, twice what the list reaches (999 pages of 50). Default 120.
   */
  productCount?: number;
  /** Polls of a refund's status answered `requested` before it moves on (to `success` for one poll, then `completed`; or to `failed`): a whole number from 0. Default 1. */
  refundPolls?: number;
  /** Polls of an export answered `processing` before it finishes: a whole number from 0. Default 1. */
  exportPolls?: number;
  /** Producer codes with automatic PIX enabled from the start. Default none. */
  pixRecurringProducers?: string[];
  /**
   * A rate limit on every request under the API base, login included (a `throttle` in front of
   * the whole API counts every call): requests per second, or a token bucket's rate and burst.
   * Over it the mock answers 429 with `Retry-After`. Default none. Change it with
   * `mock.setRateLimit`.
   */
  rateLimit?: RateLimitOptions | number;
  /**
   * A delay before every answer (faults and 429s included): fixed milliseconds, or
   * `{ ms, jitterMs }` for a uniform extra of up to `jitterMs`. Default none. Change it with
   * `mock.setLatency`.
   */
  latencyMs?: LatencyOptions | number;
  /**
   * Routes to serve without the seller's bearer, for a service that turns out to be more open
   * than the kit assumes: `'METHOD /path'` as the spec writes it, e.g.
   * `'GET /users/fee-tiers/history'` or `'POST /financial/refund/{transaction_hash}'`. By default
   * only the login and the product catalogue (`GET /products`, `GET /products/{product_hash}`)
   * need no bearer (spec §4, §5.5). A public route called without a bearer acts for the person
   * seller. An unknown route is an error, so a typo never passes silently.
   */
  publicRoutes?: readonly string[];
  /**
   * How the kit answers where the spec shows no shape (the login, the status endpoints and their
   * statuses, the refund's time zone, the anticipation's field, how strings are read). Default:
   * the shapes the SDK assumes (`DEFAULT_ASSUMPTIONS`). Set it "the other way" to test a client's `assumptions` option.
   */
  assumptions?: MockAssumptions;
  /**
   * Rules the spec does not state, each an assumption the kit applies only when turned on
   * (birth before today, avatar an image, a bank-account update back to `pending`, the export
   * range in order). Default: all off.
   */
  assumedRules?: MockAssumedRules;
}

/** A seeded seller the mock accepts as a bearer (`Authorization: Bearer <publicToken>`). */
export interface MockSeller {
  /** The user's code (spec §2.1). */
  code: string;
  /** `person` or `company`. */
  type: 'person' | 'company';
  /** The user's public token, sent as the bearer. */
  publicToken: string;
}

/** One request as the mock received it. */
export interface RecordedRequest {
  /** HTTP method, upper case. */
  method: string;
  /** Path relative to the API base, e.g. `/auth` or `/products/prd_1` (no query). */
  path: string;
  /** The full URL as received. */
  url: string;
  /** Request headers, names in lower case. */
  headers: Record<string, string>;
  /** Parsed body: JSON value, multipart fields (files as `{ name, type, size }`), text, or undefined. */
  body: unknown;
}

/** How a refund or export ends, and after how many status polls. */
export interface Outcome<T extends string> {
  outcome: T;
  polls: number;
}

/** A stored refund with its scripted progress. */
export interface RefundRecord extends Outcome<'completed' | 'failed'> {
  refund: WireRefund;
  seen: number;
  /** Whether the refund has shown its second active step (`success`). */
  accepted?: boolean;
}

/** A stored export with its parameters and scripted progress. */
export interface ExportRecord extends Outcome<'completed' | 'failed'> {
  export: WireExport;
  /** Code of the seller that requested it: a running export blocks only that seller's repeat. */
  seller: string;
  format: string;
  betweenDates: string;
  seen: number;
  downloadToken: string;
}

/** Everything the mock knows. Internal: tests use the `MockPartnerApi` methods instead. */
export interface MockState {
  clientId: string;
  clientSecret: string;
  clientTokens: Set<string>;
  originAllowed: boolean;
  users: Map<string, { user: WireUser; companyPartnerDefined: boolean }>;
  sellers: MockSeller[];
  /** Bank accounts by code, each with the code of the seller it belongs to. */
  bankAccounts: Map<string, { account: WireBankAccount; seller: string }>;
  products: SeedProduct[];
  /**
   * Transactions by hash. One added with a seller is that seller's (another seller's refund calls
   * on it are not found); the seeded ones and those added without one become the seller's whose
   * refund call first names them.
   */
  transactions: Map<
    string,
    { hash: string; amount: number; records: RefundRecord[]; seller?: string }
  >;
  refundPlans: Map<string, Outcome<'completed' | 'failed'>>;
  defaultRefundPolls: number;
  exports: Map<string, ExportRecord>;
  defaultExportPolls: number;
  /** Each seller's anticipation history, by seller code, newest first. */
  anticipations: Map<string, WireAnticipation[]>;
  /** The anticipation list as last computed, by account and filter set (spec §4.8: 10 minutes). */
  anticipationCache: Map<string, { at: number; body: unknown }>;
  /**
   * Calculated anticipations by hash. A calculation is its account's: each becomes the seller's
   * whose confirmation first names it, and is not found by another seller.
   */
  confirmable: Map<string, { amount: number; confirmed: boolean; seller?: string }>;
  /** Each seller's fee-tier history, by seller code, newest first. */
  feeTiers: Map<string, WireFeeTierChange[]>;
  pixEnabled: Set<string>;
  requests: RecordedRequest[];
  rateLimiter: RateLimiter | undefined;
  latency: Required<LatencyOptions> | undefined;
  /** Requests answered 429 by the rate limit (not by `failNext`). */
  rateLimited: number;
  /** Keys (`routeKey`) of the seller-scoped routes declared public (filled by `createMockPartnerApi`). */
  publicRoutes: Set<string>;
  /** How the kit answers where the spec shows no shape, and the unstated rules it applies. */
  shapes: KitShapes;
  /** The routes under the API base, their paths as `shapes` says. */
  routes: Route[];
  /** The kit's time (`advanceClock` moves it). */
  clock: KitClock;
}

/** A random identifier with a prefix, e.g. `rfd_k3J9...`: `length` characters drawn from `alphabet`. */
export function randomId(
  prefix: string,
  length = 10,
  alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return `${prefix}_${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')}`;
}

/** The seeded bank accounts: the PIX receiver is the person seller's, the bank one the company's. */
function accountsOf(person: string, company: string): MockState['bankAccounts'] {
  const [pix, bank] = bankAccounts() as [WireBankAccount, WireBankAccount];
  return new Map([
    [pix.code, { account: pix, seller: person }],
    [bank.code, { account: bank, seller: company }],
  ]);
}

/** More products than this are refused: twice what the list reaches (999 pages of 50). */
const MAX_PRODUCTS = 100_000;

/**
 * `value` when it is a whole number from 0 to `max` (a count of products or of polls), else a
 * `RangeError` naming it as `where` says: `Infinity` products would build a catalogue for ever.
 */
export function countOf(where: string, value: number, max = Number.MAX_SAFE_INTEGER): number {
  if (Number.isSafeInteger(value) && value >= 0 && value <= max) return value;
  const range = max === Number.MAX_SAFE_INTEGER ? 'from 0' : `from 0 to ${max}`;
  throw new RangeError(`${where} must be a whole number ${range}, got ${String(value)}`);
}

/** The seed's counts, each checked, with their defaults. */
function seedCounts(seed: MockPartnerApiSeed) {
  const count = (
    name: 'productCount' | 'refundPolls' | 'exportPolls',
    fallback: number,
    max?: number,
  ) => countOf(`createMockPartnerApi: ${name}`, seed[name] ?? fallback, max);
  return {
    productCount: count('productCount', 120, MAX_PRODUCTS),
    refundPolls: count('refundPolls', 1),
    exportPolls: count('exportPolls', 1),
  };
}

/** Builds a fresh state from the seed. */
export function createState(seed: MockPartnerApiSeed = {}): MockState {
  const users = [personUser(), companyUser()];
  const [person, company] = users.map((u) => u.code) as [string, string];
  const { productCount, refundPolls: defaultRefundPolls, exportPolls } = seedCounts(seed);
  const rateLimit = rateLimitOf(seed.rateLimit);
  return {
    clientId: seed.clientId ?? 'cli_partner_test',
    clientSecret: seed.clientSecret ?? 'sk_test_partner_secret',
    clientTokens: new Set([randomId('ct', 40)]),
    originAllowed: true,
    users: new Map(
      users.map((user) => [user.code, { user, companyPartnerDefined: user.type === 'person' }]),
    ),
    sellers: users.map((u) => ({ code: u.code, type: u.type, publicToken: u.public_token! })),
    bankAccounts: accountsOf(person, company),
    products: catalogue(Math.max(4, productCount)),
    transactions: new Map(
      transactions().map((t) => [
        t.hash,
        {
          hash: t.hash,
          amount: t.amount,
          records: t.refunds.map((refund) => ({
            refund,
            outcome: 'completed' as const,
            polls: defaultRefundPolls,
            seen: 0,
          })),
        },
      ]),
    ),
    refundPlans: new Map(),
    defaultRefundPolls,
    exports: new Map(),
    defaultExportPolls: exportPolls,
    anticipations: new Map([
      [person, anticipationHistory()],
      [company, companyAnticipationHistory()],
    ]),
    anticipationCache: new Map(),
    confirmable: new Map(
      CONFIRMABLE_ANTICIPATIONS.map((a) => [a.hash, { amount: a.amount, confirmed: false }]),
    ),
    feeTiers: new Map([
      [person, feeTierHistory()],
      [company, companyFeeTierHistory()],
    ]),
    pixEnabled: new Set(seed.pixRecurringProducers ?? []),
    requests: [],
    rateLimiter: rateLimit ? new RateLimiter(rateLimit) : undefined,
    latency: latencyOf(seed.latencyMs),
    rateLimited: 0,
    publicRoutes: new Set(),
    shapes: kitShapes(seed.assumptions, seed.assumedRules),
    routes: [],
    clock: new KitClock(),
  };
}
