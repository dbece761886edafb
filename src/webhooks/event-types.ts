/**
 * The webhook events as named types (spec §6, the bank account of §2.4): what a handler's `event`
 * is, field by field. The zod schemas in `schemas.ts` check deliveries against the same shapes (a
 * type test keeps the two equal). As everywhere in responses, a field is required only when the
 * event cannot be understood without it; unknown keys are kept; enums are open.
 *
 * @module
 */

import type { OpenEnum } from '../schemas/response-fields';

/** Where an event came from and which API call it tracks (`metadata` of the envelope, spec §6). */
export interface WebhookMetadata {
  /** Origin marker of the event. Spec §6. */
  origin?: string | null;
  /**
   * Tracking id of the API call behind the event. Not an event id: one call may emit several
   * events under it. Spec §6.
   */
  request_id?: string | null;
  /** Correlation id, when the service sets one (`null` otherwise). Spec §6. */
  correlation_id?: string | null;
  /** Keys the spec does not show are kept as sent. */
  [key: string]: unknown;
}

/** The envelope fields every event shares (spec §6), apart from `event` and `payload`. */
export interface WebhookEnvelopeFields {
  /** The client's configured webhook URL, the one this delivery was sent to. Spec §6. */
  endpoint?: string | null;
  /** Where the event came from and which API call it tracks. Spec §6. */
  metadata?: WebhookMetadata | null;
  /** When the event was created: ISO 8601 with microseconds and `Z`. Spec §6. */
  created_at?: string | null;
  /** When the event was last updated: ISO 8601 with microseconds and `Z`. Spec §6. */
  updated_at?: string | null;
  /** Keys the spec does not show are kept as sent. */
  [key: string]: unknown;
}

/** Any webhook event: the envelope (spec §6) with its payload untyped. */
export interface WebhookEnvelope extends WebhookEnvelopeFields {
  /** The event's name, e.g. `user_updated`. Spec §6. */
  event: string;
  /** The event's data; its shape depends on the event (not shown for most). Spec §6. */
  payload?: Record<string, unknown> | null;
}

/** The user who receives one share of a subscription's commission (spec §6.1). */
export interface SubscriptionCommissionUser {
  /** The user's code. Spec §6.1. */
  code?: string | null;
  /** The user's name. Spec §6.1. */
  name?: string | null;
  /** The user's e-mail. Spec §6.1. */
  email?: string | null;
  /** Keys the spec does not show are kept as sent. */
  [key: string]: unknown;
}

/** One line of a subscription's commission split (`commissions.items[]`, spec §6.1). */
export interface SubscriptionCommissionItem {
  /** Who receives this share: `producer` or `affiliate` (other values: not shown). Spec §6.1. */
  type?: OpenEnum<'producer' | 'affiliate'> | null;
  /** Amount of this share, in cents (integer). Spec §6.1. */
  amount?: number | null;
  /** The user who receives this share. Spec §6.1. */
  user?: SubscriptionCommissionUser | null;
  /** Keys the spec does not show are kept as sent. */
  [key: string]: unknown;
}

/** The subscriber of an ended subscription (spec §6.1). */
export interface SubscriptionBuyer {
  /** The buyer's name. Spec §6.1. */
  name?: string | null;
  /** The buyer's e-mail. Spec §6.1. */
  email?: string | null;
  /** Keys the spec does not show are kept as sent. */
  [key: string]: unknown;
}

/** A subscription's commission split: the transaction, the amount paid and each share (spec §6.1; which charge's: not shown). */
export interface SubscriptionCommissions {
  /** Hash of the transaction the split belongs to. Spec §6.1. */
  transaction_hash?: string | null;
  /** Amount paid, in cents (integer). Spec §6.1. */
  paid_amount?: number | null;
  /** One line per recipient. Spec §6.1. */
  items?: SubscriptionCommissionItem[] | null;
  /** Keys the spec does not show are kept as sent. */
  [key: string]: unknown;
}

/** Payload of `subscription_ended` (spec §6.1): the subscription that ended, why, and its split. */
export interface SubscriptionEndedPayload {
  /** Code of the subscription that ended: the payload's identity. Always present. Spec §6.1. */
  subscription_code: string;
  /** Status of the subscription: `ended` is the only value shown. Spec §6.1. */
  status?: OpenEnum<'ended'> | null;
  /** When it ended, ISO 8601. Spec §6.1. */
  ended_at?: string | null;
  /**
   * Why it ended: `completed` (the maximum number of charges was reached) or `delinquency` (ended
   * for prolonged delinquency). Spec §6.1.
   */
  end_reason?: OpenEnum<'completed' | 'delinquency'> | null;
  /** Number of charges the subscription made (integer). Spec §6.1. */
  total_charges?: number | null;
  /** Hash of the subscribed product. Spec §6.1. */
  product_hash?: string | null;
  /** Code of the subscribed offer. Spec §6.1. */
  offer_code?: string | null;
  /** The subscriber. Spec §6.1. */
  buyer?: SubscriptionBuyer | null;
  /** The commission split (which charge's: not shown). Spec §6.1. */
  commissions?: SubscriptionCommissions | null;
  /** When the subscription was created, `YYYY-MM-DD HH:mm:ss`. Spec §6.1. */
  created_at?: string | null;
  /** When the subscription was last updated, `YYYY-MM-DD HH:mm:ss`. Spec §6.1. */
  updated_at?: string | null;
  /** Keys the spec does not show are kept as sent. */
  [key: string]: unknown;
}

/**
 * Payload of `bank_account_updated` and `bank_account_deleted` (spec §6.2): the bank account of
 * spec §2.4, plus `reason` and `bank_document`.
 */
export interface BankAccountEventPayload {
  /** Unique account code (up to 191 characters): the payload's identity. Always present. Spec §2.4. */
  code: string;
  /** Bank code. Spec §2.4. */
  bank_code?: string | null;
  /** Account holder's name (up to 191 characters). Spec §2.4. */
  holder_name?: string | null;
  /** PIX key (up to 191 characters), or `null`. Spec §2.4. */
  pix_key?: string | null;
  /** `pix` or `bank`; other values occur, such as an account type (the full set: not shown). Spec §2.4, §6.2. */
  receiver_type?: OpenEnum<'pix' | 'bank'> | null;
  /** Branch number (up to 20 characters). Spec §2.4. */
  branch_number?: string | null;
  /** Branch check digit (up to 3 characters). Spec §2.4. */
  branch_check_digit?: string | null;
  /** Account number (up to 20 characters). Spec §2.4. */
  account_number?: string | null;
  /** Account check digit (up to 3 characters). Spec §2.4. */
  account_check_digit?: string | null;
  /** Approval status of the account: `approved`, `pending` or `reproved`. Spec §2.4. */
  status?: OpenEnum<'approved' | 'pending' | 'reproved'> | null;
  /** Why the status changed, or `null`. Spec §6.2. */
  reason?: string | null;
  /** Reference to the bank document, or `null` (its shape: not shown). Spec §6.2. */
  bank_document?: unknown;
  /** Keys the spec does not show are kept as sent. */
  [key: string]: unknown;
}

/**
 * `subscription_ended` (spec §6.1): a subscription reached its maximum number of charges
 * (`end_reason` `completed`) or was ended for prolonged delinquency (`delinquency`).
 */
export interface SubscriptionEndedEvent extends WebhookEnvelopeFields {
  /** Always `subscription_ended`. Spec §6.1. */
  event: 'subscription_ended';
  /** The subscription that ended, why, and its commission split. Spec §6.1. */
  payload: SubscriptionEndedPayload;
}

/**
 * `bank_account_updated` (spec §6.2): bank data (branch, account, PIX key) or the approval status
 * of a bank account changed.
 */
export interface BankAccountUpdatedEvent extends WebhookEnvelopeFields {
  /** Always `bank_account_updated`. Spec §6.2. */
  event: 'bank_account_updated';
  /** The bank account as it is now, with `reason` and `bank_document`. Spec §6.2. */
  payload: BankAccountEventPayload;
}

/** `bank_account_deleted` (spec §6.2): a bank account was removed. */
export interface BankAccountDeletedEvent extends WebhookEnvelopeFields {
  /** Always `bank_account_deleted`. Spec §6.2. */
  event: 'bank_account_deleted';
  /** The bank account that was removed, with `reason` and `bank_document`. Spec §6.2. */
  payload: BankAccountEventPayload;
}
