/**
 * Refunds: spec §2.9 (the refund), §4.2 (request), §4.3 (list) and the status endpoint that §4.2
 * names without showing its shape.
 *
 * @module
 */

import * as z from 'zod/mini';
import { flag, optional, paramsObject, text } from './request-rules';
import {
  type Envelope,
  envelope,
  maybe,
  NUMBER,
  type OpenEnum,
  openEnum,
  responseObject,
  STRING,
} from './response-fields';

// ---------------------------------------------------------------------------------------------
// Types: the documentation a partner reads (hover, reference). The schemas below are proven to
// infer exactly these types (test/types/schemas-match.test-d.ts).
// ---------------------------------------------------------------------------------------------

/**
 * Where a refund stands (spec §2.9, §3): `requested` and `success` count as active (a new request
 * for the transaction returns that refund instead of creating one); `completed` and `failed` are
 * final (`refunds.waitForCompletion` ends on them). Transitions and the full set: not shown, so any
 * other string passes.
 */
export type RefundState = OpenEnum<'requested' | 'success' | 'completed' | 'failed'>;

/** A refund (spec §2.9). `hash` is always there; every other field may be absent or `null`. */
export interface Refund {
  /** Refund hash: its identity. Always present. Spec §2.9. */
  hash: string;
  /** Hash of the refunded transaction. Absent or `null` when not sent. Spec §2.9. */
  transaction_hash?: string | null;
  /**
   * `requested` or `success` (active), `completed` or `failed` (final); others pass (see
   * {@link RefundState}). Absent or `null` when not sent. Spec §2.9, §3.
   */
  status?: RefundState | null;
  /** Refunded amount (a number; the spec does not state its unit). Absent or `null` when not sent. Spec §2.9. */
  amount?: number | null;
  /** Note stored with the refund (the request's `observation`). Absent or `null` when empty. Spec §2.9. */
  observation?: string | null;
  /**
   * Creation time, `DD/MM/YYYY HH:mm:ss` without an offset (read it with `parseTimestamp`, in
   * `America/Sao_Paulo` by default). Absent or `null` when not sent. Spec §2.9.
   */
  created_at?: string | null;
  /** Last update time, `DD/MM/YYYY HH:mm:ss` (read it with `parseTimestamp`). Absent or `null` when not sent. Spec §2.9. */
  updated_at?: string | null;
}

/**
 * A refund's state as `refunds.retrieveStatus` and `refunds.waitForCompletion` report it: the
 * `data` of `GET /financial/refund/{hash}/status`. The spec names that endpoint without its shape:
 * assumed to be refund-like, with `status` always there (polling reads it) and every other field
 * absent or `null` at will (the `refundStatus` assumption).
 */
export interface RefundStatus {
  /** `requested` or `success` (active), `completed` or `failed` (final); others pass. Always present (assumed). Spec §3, §4.2. */
  status: RefundState;
  /** Refund hash. Absent or `null` when not sent. Spec §2.9. */
  hash?: string | null;
  /** Hash of the refunded transaction. Absent or `null` when not sent. Spec §2.9. */
  transaction_hash?: string | null;
  /** Refunded amount (a number; unit not stated). Absent or `null` when not sent. Spec §2.9. */
  amount?: number | null;
  /** Note stored with the refund. Absent or `null` when empty. Spec §2.9. */
  observation?: string | null;
  /** Creation time, `DD/MM/YYYY HH:mm:ss` (read it with `parseTimestamp`). Absent or `null` when not sent. Spec §2.9. */
  created_at?: string | null;
  /** Last update time, `DD/MM/YYYY HH:mm:ss` (read it with `parseTimestamp`). Absent or `null` when not sent. Spec §2.9. */
  updated_at?: string | null;
}

/** `data` of a refund request's HTTP 202 (spec §4.2). */
export interface RefundAcceptedData {
  /** Hash of the transaction whose refund was accepted. Absent or `null` when not sent. Spec §4.2. */
  transaction_hash?: string | null;
}

/** Body of the refund status endpoint: the envelope around {@link RefundStatus} (assumed: the `refundStatus` assumption). */
export type RefundStatusResponse = Envelope<RefundStatus>;
/** Body of a refund request's HTTP 202 (spec §4.2): `status` `processing`, `data.transaction_hash`. */
export type RefundAcceptedResponse = Envelope<RefundAcceptedData>;
/** Body of a refund request's HTTP 200 when an active refund exists (spec §4.2): `data` is that refund. */
export type RefundExistingResponse = Envelope<Refund>;
/** Body of `GET /financial/refund/{transaction_hash}` (spec §4.3): `data` is the list of refunds. */
export type RefundListResponse = Envelope<Refund[]>;

/** The body of `refunds.request` (`POST /financial/refund/{transaction_hash}`, spec §4.2). Every field is optional. */
export interface RefundRequestParams {
  /** Note stored with the refund (free text). Spec §4.2. */
  observation?: string;
  /** Why the refund is asked, at most 1000 characters; when omitted the service applies its default reason. Spec §4.2, §8. */
  reason?: string;
  /** `true` when the refund is motivated by confirmed fraud. Spec §4.2. */
  fraud_confirmed?: boolean;
  /** Refund type, when applicable; its allowed values: not shown. Spec §4.2. */
  refund_type?: string;
  /**
   * Cancel the subscription linked to the transaction. When omitted and the transaction has a
   * subscription, the service defaults to `true`. Spec §4.2.
   */
  cancel_subscription?: boolean;
  /** Code (`User.code`) of an existing, non-deleted user to link to the refund. Spec §4.2. */
  user_id?: string;
}

/**
 * The body of `refunds.request`.
 *
 * @deprecated Renamed {@link RefundRequestParams}.
 */
export type RequestRefundParams = RefundRequestParams;

// ---------------------------------------------------------------------------------------------
// Schemas: the run-time truth (field notes: see the types above)
// ---------------------------------------------------------------------------------------------

/** Refund states named by the spec: `requested` and `success` are active, `completed` and `failed` final. */
const REFUND_STATES = ['requested', 'success', 'completed', 'failed'] as const;

/** Schema of {@link Refund}: only `hash` is required. */
export const RefundSchema = responseObject({
  hash: STRING,
  transaction_hash: maybe(STRING),
  status: maybe(openEnum(REFUND_STATES)),
  amount: maybe(NUMBER),
  observation: maybe(STRING),
  created_at: maybe(STRING),
  updated_at: maybe(STRING),
});

/** Schema of {@link RefundStatus}: only `status` is required (shape assumed: the `refundStatus` assumption). */
export const RefundStatusSchema = responseObject({
  status: openEnum(REFUND_STATES),
  hash: maybe(STRING),
  transaction_hash: maybe(STRING),
  amount: maybe(NUMBER),
  observation: maybe(STRING),
  created_at: maybe(STRING),
  updated_at: maybe(STRING),
});

/** Schema of {@link RefundStatusResponse}. */
export const RefundStatusResponseSchema = envelope(RefundStatusSchema);

/** Schema of {@link RefundAcceptedData}. */
export const RefundAcceptedDataSchema = responseObject({ transaction_hash: maybe(STRING) });

/** Schema of {@link RefundAcceptedResponse}. */
export const RefundAcceptedResponseSchema = envelope(RefundAcceptedDataSchema);

/** Schema of {@link RefundExistingResponse}. */
export const RefundExistingResponseSchema = envelope(RefundSchema);

/** Schema of {@link RefundListResponse}. */
export const RefundListResponseSchema = envelope(z.array(RefundSchema));

/** Schema of {@link RefundRequestParams}: `reason` at most 1000 characters. */
export const RefundRequestParamsSchema = paramsObject({
  observation: optional(text()),
  reason: optional(text({ max: 1000 })),
  fraud_confirmed: optional(flag()),
  refund_type: optional(text()),
  cancel_subscription: optional(flag()),
  user_id: optional(text()),
});
