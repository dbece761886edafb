/**
 * Refunds: spec §2.9 (the refund), §4.2 (request), §4.3 (list) and the status endpoint that §4.2
 * names without showing its shape.
 *
 * @module
 */

import * as z from 'zod/mini';
import { flag, optional, paramsObject, text } from './request-rules';
import { envelope, maybe, NUMBER, openEnum, STRING } from './response-fields';

/** Refund states named by the spec: `requested` and `success` are active, `completed` and `failed` final. */
const REFUND_STATES = ['requested', 'success', 'completed', 'failed'] as const;

/** A refund (spec §2.9). Only `hash` is required. */
export const RefundSchema = z.looseObject({
  /** Refund hash. */
  hash: STRING,
  /** Hash of the refunded transaction. */
  transaction_hash: maybe(STRING),
  /** `requested` and `success` count as active refunds; `completed` and `failed` end the wait. Full set: not shown. */
  status: maybe(openEnum(REFUND_STATES)),
  /** Refunded amount. */
  amount: maybe(NUMBER),
  /** Note stored with the refund. */
  observation: maybe(STRING),
  /** Creation time, `DD/MM/YYYY HH:mm:ss` (read it with `parseTimestamp`). */
  created_at: maybe(STRING),
  /** Last update time, `DD/MM/YYYY HH:mm:ss` (read it with `parseTimestamp`). */
  updated_at: maybe(STRING),
});
/** A refund (spec §2.9). */
export type Refund = z.infer<typeof RefundSchema>;

/**
 * What the refund status endpoint (`GET /financial/refund/{hash}/status`) returns in `data`. Its
 * shape is not shown by the spec: assumed to be a refund-like object whose `status` is always there
 * (polling reads it) and every other field optional (DESIGN §6).
 */
export const RefundStatusSchema = z.looseObject({
  /** `requested`, `success` (active), `completed` or `failed` (final). Full set: not shown. */
  status: openEnum(REFUND_STATES),
  /** Refund hash. */
  hash: maybe(STRING),
  /** Hash of the refunded transaction. */
  transaction_hash: maybe(STRING),
  /** Refunded amount. */
  amount: maybe(NUMBER),
  /** Note stored with the refund. */
  observation: maybe(STRING),
  /** Creation time, `DD/MM/YYYY HH:mm:ss` (read it with `parseTimestamp`). */
  created_at: maybe(STRING),
  /** Last update time, `DD/MM/YYYY HH:mm:ss` (read it with `parseTimestamp`). */
  updated_at: maybe(STRING),
});
/** The state of a refund as the status endpoint reports it (shape assumed, see the schema). */
export type RefundStatus = z.infer<typeof RefundStatusSchema>;

/** The status endpoint's body: the envelope with {@link RefundStatusSchema} as `data` (assumed). */
export const RefundStatusResponseSchema = envelope(RefundStatusSchema);
/** The status endpoint's body (assumed). */
export type RefundStatusResponse = z.infer<typeof RefundStatusResponseSchema>;

/** HTTP 202 body of a refund request (spec §4.2): `status` `processing`, `data.transaction_hash`. */
export const RefundAcceptedResponseSchema = envelope(
  z.looseObject({
    /** Hash of the transaction whose refund was accepted. */
    transaction_hash: maybe(STRING),
  }),
);
/** HTTP 202 body of a refund request (spec §4.2). */
export type RefundAcceptedResponse = z.infer<typeof RefundAcceptedResponseSchema>;

/** HTTP 200 body of a refund request when an active refund exists (spec §4.2): `data` is that refund. */
export const RefundExistingResponseSchema = envelope(RefundSchema);
/** HTTP 200 body of a refund request when an active refund exists (spec §4.2). */
export type RefundExistingResponse = z.infer<typeof RefundExistingResponseSchema>;

/** Body of `GET /financial/refund/{transaction_hash}` (spec §4.3): `data` is the list of refunds. */
export const RefundListResponseSchema = envelope(z.array(RefundSchema));
/** Body of `GET /financial/refund/{transaction_hash}` (spec §4.3). */
export type RefundListResponse = z.infer<typeof RefundListResponseSchema>;

/** The body of `refunds.request` (spec §4.2). Every field is optional. */
export const RequestRefundParamsSchema = paramsObject({
  /** Note stored with the refund. */
  observation: optional(text()),
  /** Reason, max 1000 characters; when omitted the service applies its default reason. */
  reason: optional(text({ max: 1000 })),
  /** The refund is motivated by confirmed fraud. */
  fraud_confirmed: optional(flag()),
  /** Refund type when applicable; allowed values: not shown. */
  refund_type: optional(text()),
  /** Cancel the subscription linked to the transaction; the service defaults to true when the transaction has one. */
  cancel_subscription: optional(flag()),
  /** Code of an existing, non-deleted user to link to the refund. */
  user_id: optional(text()),
});
/** The body of `refunds.request` (spec §4.2). */
export type RequestRefundParams = z.input<typeof RequestRefundParamsSchema>;
