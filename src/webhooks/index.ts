/**
 * `partner-sdk/webhooks`: typed webhook events (spec §6) and a receiver that acknowledges a
 * delivery only once it was handled.
 *
 * @example
 * ```ts
 * import { createWebhookHandler, secretVerifier } from 'partner-sdk/webhooks';
 *
 * const handler = createWebhookHandler({
 *   on: { subscription_ended: async (event) => endSubscription(event.payload.subscription_code) },
 *   dedupe: true,
 *   verify: secretVerifier({ secret: process.env.WEBHOOK_TOKEN, query: 'token' }),
 * });
 * http.createServer(handler.node).listen(3000);
 * ```
 *
 * @module partner-sdk/webhooks
 */

export { type ValidationIssue, WebhookPayloadError } from '../core/errors';
export type { Logger, LogLevel } from '../core/logging/logger';
export {
  type DedupeClaimOptions,
  type DedupeClaimResult,
  type DedupeCompleteOptions,
  type DedupeReleaseOptions,
  defaultDedupeKey,
  type WebhookDedupeStore,
} from './dedupe';
export {
  type BankAccountDeletedEvent,
  type BankAccountEventPayload,
  type BankAccountUpdatedEvent,
  type GenericWebhookEvent,
  isKnownWebhookEvent,
  KNOWN_WEBHOOK_EVENTS,
  type KnownWebhookEvent,
  type KnownWebhookEventName,
  parseWebhookEvent,
  type SubscriptionBuyer,
  type SubscriptionCommissionItem,
  type SubscriptionCommissions,
  type SubscriptionCommissionUser,
  type SubscriptionEndedEvent,
  type SubscriptionEndedPayload,
  type WebhookEnvelope,
  type WebhookEnvelopeFields,
  type WebhookEvent,
  type WebhookMetadata,
} from './events';
export {
  createWebhookHandler,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  type WebhookHandler,
  type WebhookHandlerContext,
  type WebhookHandlerOptions,
  type WebhookHandlers,
  type WebhookVerifyInput,
} from './handler';
export { MemoryDedupeStore, type MemoryDedupeStoreOptions } from './memory-dedupe-store';
export {
  bankAccountDeletedEventSchema,
  bankAccountEventPayloadSchema,
  bankAccountUpdatedEventSchema,
  subscriptionCommissionItemSchema,
  subscriptionEndedEventSchema,
  subscriptionEndedPayloadSchema,
  webhookEnvelopeSchema,
  webhookMetadataSchema,
} from './schemas';
export { type SecretVerifierOptions, secretVerifier } from './secret';
export type { SimpleDedupeStore } from './simple-dedupe-store';
export { WebhookTimeoutError } from './time-limit';
