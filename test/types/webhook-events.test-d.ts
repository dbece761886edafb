/**
 * The webhook events' named interfaces (what a handler's `event` is) and the zod schemas that
 * check deliveries must be the same type, so neither can drift from the other; and the handler's
 * `event` parameter is the named interface of its event.
 */

import {
  type BankAccountDeletedEvent,
  type BankAccountEventPayload,
  type BankAccountUpdatedEvent,
  type bankAccountDeletedEventSchema,
  type bankAccountEventPayloadSchema,
  type bankAccountUpdatedEventSchema,
  createWebhookHandler,
  type SubscriptionCommissionItem,
  type SubscriptionEndedEvent,
  type SubscriptionEndedPayload,
  type subscriptionCommissionItemSchema,
  type subscriptionEndedEventSchema,
  type subscriptionEndedPayloadSchema,
  type WebhookEnvelope,
  type WebhookMetadata,
  type webhookEnvelopeSchema,
  type webhookMetadataSchema,
} from 'partner-sdk/webhooks';
import { describe, expectTypeOf, test } from 'vitest';
import type * as z from 'zod/mini';

describe('each webhook schema infers its named interface', () => {
  test('the envelope and its metadata (spec §6)', () => {
    expectTypeOf<z.output<typeof webhookMetadataSchema>>().toEqualTypeOf<WebhookMetadata>();
    expectTypeOf<z.output<typeof webhookEnvelopeSchema>>().toEqualTypeOf<WebhookEnvelope>();
  });

  test('subscription_ended (spec §6.1)', () => {
    expectTypeOf<
      z.output<typeof subscriptionCommissionItemSchema>
    >().toEqualTypeOf<SubscriptionCommissionItem>();
    expectTypeOf<
      z.output<typeof subscriptionEndedPayloadSchema>
    >().toEqualTypeOf<SubscriptionEndedPayload>();
    expectTypeOf<
      z.output<typeof subscriptionEndedEventSchema>
    >().toEqualTypeOf<SubscriptionEndedEvent>();
  });

  test('bank_account_updated and bank_account_deleted (spec §6.2, §2.4)', () => {
    expectTypeOf<
      z.output<typeof bankAccountEventPayloadSchema>
    >().toEqualTypeOf<BankAccountEventPayload>();
    expectTypeOf<
      z.output<typeof bankAccountUpdatedEventSchema>
    >().toEqualTypeOf<BankAccountUpdatedEvent>();
    expectTypeOf<
      z.output<typeof bankAccountDeletedEventSchema>
    >().toEqualTypeOf<BankAccountDeletedEvent>();
  });

  test("a handler's event is the named interface of its event", () => {
    createWebhookHandler({
      on: {
        subscription_ended: async (event) => {
          expectTypeOf(event).toEqualTypeOf<SubscriptionEndedEvent>();
        },
        bank_account_updated: async (event) => {
          expectTypeOf(event).toEqualTypeOf<BankAccountUpdatedEvent>();
        },
        bank_account_deleted: async (event) => {
          expectTypeOf(event).toEqualTypeOf<BankAccountDeletedEvent>();
        },
      },
    });
  });
});
