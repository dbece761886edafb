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
  type GenericWebhookEvent,
  isKnownWebhookEvent,
  parseWebhookEvent,
  type SubscriptionCommissionItem,
  type SubscriptionEndedEvent,
  type SubscriptionEndedPayload,
  type subscriptionCommissionItemSchema,
  type subscriptionEndedEventSchema,
  type subscriptionEndedPayloadSchema,
  type WebhookEnvelope,
  type WebhookEvent,
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

describe('narrowing a parsed event, as the webhooks guide shows', () => {
  test('isKnownWebhookEvent, then switch (event.event) types each payload; the rest is generic', () => {
    const event = parseWebhookEvent('{}');
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    if (isKnownWebhookEvent(event)) {
      switch (event.event) {
        case 'subscription_ended':
          expectTypeOf(event.payload).toEqualTypeOf<SubscriptionEndedPayload>();
          expectTypeOf(event.payload.subscription_code).toEqualTypeOf<string>();
          break;
        case 'bank_account_updated':
        case 'bank_account_deleted':
          expectTypeOf(event.payload).toEqualTypeOf<BankAccountEventPayload>();
          expectTypeOf(event.payload.code).toEqualTypeOf<string>();
          break;
        default:
          // Every typed event has its case: nothing is left.
          expectTypeOf(event).toBeNever();
      }
    } else {
      expectTypeOf(event).toEqualTypeOf<GenericWebhookEvent>();
      expectTypeOf(event.payload).toEqualTypeOf<Record<string, unknown> | null | undefined>();
    }
  });

  test('a handler for an event the spec names without a payload gets the generic event', () => {
    createWebhookHandler({
      on: {
        user_updated: (event) => {
          expectTypeOf(event).toEqualTypeOf<GenericWebhookEvent>();
        },
      },
      onUnknown: (event) => {
        expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
      },
    });
  });
});
