/**
 * Fee-tier history: spec §2.12 (the record) and §4.11 (`GET /users/fee-tiers/history`).
 *
 * @module
 */

import * as z from 'zod/mini';
import {
  type Envelope,
  envelope,
  ISO_TIMESTAMP,
  maybe,
  type OpenEnum,
  openEnum,
  responseObject,
  STRING,
} from './response-fields';

// ---------------------------------------------------------------------------------------------
// Types: the documentation a partner reads (hover, reference). The schemas below are proven to
// infer exactly these types (test/types/schemas-match.test-d.ts).
// ---------------------------------------------------------------------------------------------

/** What happened to a fee tier (spec §2.12): `create`, `update` or `delete`. Others pass. */
export type FeeTierAction = OpenEnum<'create' | 'update' | 'delete'>;

/** The platform operator who changed a fee tier (`changed_by`, spec §2.12). */
export interface FeeTierOperator {
  /** The operator's name. Absent or `null` when not sent. Spec §2.12. */
  name?: string | null;
  /** The operator's e-mail address. Absent or `null` when not sent. Spec §2.12. */
  email?: string | null;
}

/** A record of the fee-tier history (spec §2.12). No field is marked always present: each may be absent or `null`. */
export interface FeeTierChange {
  /** `create`, `update` or `delete` (see {@link FeeTierAction}). Absent or `null` when not sent. Spec §2.12. */
  action?: FeeTierAction | null;
  /**
   * The tier before the change (amounts in cents and percentages); its inner fields are not shown,
   * so it is typed as a plain record. Absent or `null` when not sent (e.g. on `create`). Spec §2.12.
   */
  old?: Record<string, unknown> | null;
  /** The tier after the change (inner fields not shown). Absent or `null` when not sent (e.g. on `delete`). Spec §2.12. */
  new?: Record<string, unknown> | null;
  /** Portuguese text describing the change. Absent or `null` when empty. Spec §2.12. */
  observation?: string | null;
  /** The operator who made the change. Absent or `null` when not sent. Spec §2.12. */
  changed_by?: FeeTierOperator | null;
  /** Time of the change, ISO8601 with microseconds and `Z` (read it with `parseTimestamp`). Absent or `null` when not sent. Spec §2.12. */
  created_at?: string | null;
}

/** Body of `GET /users/fee-tiers/history` (spec §4.11): `data` is the records, newest first. */
export type FeeTierHistoryResponse = Envelope<FeeTierChange[]>;

// ---------------------------------------------------------------------------------------------
// Schemas: the run-time truth (field notes: see the types above)
// ---------------------------------------------------------------------------------------------

/** Schema of {@link FeeTierOperator}. */
export const FeeTierOperatorSchema = responseObject({
  name: maybe(STRING),
  email: maybe(STRING),
});

/** Schema of {@link FeeTierChange}. */
export const FeeTierChangeSchema = responseObject({
  action: maybe(openEnum(['create', 'update', 'delete'])),
  // Inner fields not shown: any object, its keys kept.
  old: maybe(z.looseObject({})),
  new: maybe(z.looseObject({})),
  observation: maybe(STRING),
  changed_by: maybe(FeeTierOperatorSchema),
  created_at: maybe(ISO_TIMESTAMP),
});

/** Schema of {@link FeeTierHistoryResponse}. */
export const FeeTierHistoryResponseSchema = envelope(z.array(FeeTierChangeSchema));
