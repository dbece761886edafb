/**
 * What the mock was seeded with, as a test reads it: the credentials, the sellers, and the hashes
 * of the seeded transactions, products, bank accounts and anticipations.
 *
 * @module
 */

import type { MockPartnerApi } from './mock-api-types';
import type { MockSeller } from './state';

/** A seeded product and its first offer. */
export interface MockProductHandle {
  /** Product hash (spec §2.5). */
  hash: string;
  /** Code of its offer (spec §2.6). */
  offerCode: string;
  /** Code of the producer (seller) that owns it. */
  producerCode: string;
}

/**
 * The seeded sellers, each with `code`, `type` and `publicToken`: a list (`[person, company]`, so
 * `map`, `find`, `for…of` and `[0]` work) that also names its two members.
 *
 * @example
 * ```ts
 * const seller = client.forUser(mock.sellers.company.publicToken);
 * const person = mock.sellers.find((s) => s.type === 'person')!;
 * ```
 */
export type MockSellers = readonly [person: MockSeller, company: MockSeller] & {
  /** A seller registered with a CPF (a person): the list's first. */
  readonly person: MockSeller;
  /** A seller registered with a CNPJ (a company): the list's second. */
  readonly company: MockSeller;
};

/** Credentials the mock accepts. */
export interface MockCredentials {
  /** Client id for `POST /auth`. */
  clientId: string;
  /** Client secret for `POST /auth`. */
  clientSecret: string;
  /**
   * A client token issued up front (valid until `expireTokens()`). Not enumerable: a spread
   * (`...mock.credentials`) leaves it out, so such a client logs in; name it to skip the login.
   */
  clientToken: string;
}

/**
 * The mock's seeded data: {@link MockPartnerApi} has all of it.
 *
 * @example
 * ```ts
 * const mock = createMockPartnerApi();
 * const seller = client.forUser(mock.sellers.person.publicToken);
 * await seller.refunds.request(mock.transactions.refundable[0]!);
 * ```
 */
export interface MockSeeded {
  /** The client credentials and a pre-issued client token. */
  readonly credentials: MockCredentials;
  /** The seeded sellers, usable as bearers: a person and a company (see {@link MockSellers}). */
  readonly sellers: MockSellers;
  /**
   * Seeded transactions: fresh ones, one with an active (`requested`) refund, one refunded in the
   * past. Each is the seller's whose refund call first names it (see `addTransaction`).
   */
  readonly transactions: {
    /** Paid transactions without any refund: a refund request on one is accepted (202). */
    readonly refundable: readonly string[];
    /** A transaction whose refund is `requested`: a new request answers 200 with that refund. */
    readonly withActiveRefund: string;
    /** A transaction refunded in full in the past (`completed`, not active). */
    readonly withPastRefund: string;
  };
  /**
   * Seeded products with an offer each (all owned by the person seller: only that seller may
   * update their offers), and every product hash in list order.
   */
  readonly products: {
    /** A course and its offer. */
    readonly course: MockProductHandle;
    /** An e-book and its (free) offer. */
    readonly ebook: MockProductHandle;
    /** A physical product (with freight) and its offer. */
    readonly physical: MockProductHandle;
    /** A product with a recurring (subscription) offer. */
    readonly recurring: MockProductHandle;
    /** Every product hash, in list order. */
    readonly hashes: readonly string[];
  };
  /** Seeded bank-account hashes: a PIX receiver (person) and a bank receiver (company). */
  readonly bankAccounts: {
    /** The person seller's account, a PIX receiver. */
    readonly pix: string;
    /** The company seller's account, a bank receiver. */
    readonly bank: string;
  };
  /** Hashes of calculated anticipations awaiting confirmation. */
  readonly anticipations: {
    /**
     * Calculated anticipations that `anticipations.confirm` accepts. Each is the seller's whose
     * confirmation first names it: another seller's confirmation of it answers 404.
     */
    readonly confirmable: readonly string[];
  };
}
