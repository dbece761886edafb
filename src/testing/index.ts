/**
 * `partner-sdk/testing`: an offline fake of the Partner Integration API for tests, examples and
 * partners' own suites, plus webhook helpers. No msw here (see `partner-sdk/testing/msw`) and
 * no dependency on the SDK's client.
 *
 * @module partner-sdk/testing
 */

export type { DropNextOptions, FailNextOptions } from './faults';
export { createMockPartnerApi } from './mock-api';
export type {
  MockCredentials,
  MockPartnerApi,
  MockProductHandle,
  MockSeeded,
  MockSellers,
} from './mock-api-types';
export type { LatencyOptions, RateLimitOptions } from './pace';
export type { StoredOffer } from './routes/products';
export type { MockSellerOptions } from './sellers';
export type { MockListenOptions, MockServer } from './server';
export type { MockAssumedRules, MockAssumptions } from './shapes';
export type { MockPartnerApiSeed, MockSeller, RecordedRequest } from './state';
export {
  type BankAccountEventPayload,
  bankAccountDeletedEvent,
  bankAccountUpdatedEvent,
  deliver,
  type MockWebhookEvent,
  type SubscriptionEndedOverrides,
  type SubscriptionEndedPayload,
  subscriptionEndedEvent,
  type WebhookEnvelopeOverrides,
  webhookEvent,
} from './webhooks';
