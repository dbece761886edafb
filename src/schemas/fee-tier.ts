/**
 * Fee-tier history: spec §2.12 (the record) and §4.11 (`GET /users/fee-tiers/history`).
 *
 * @module
 */

import * as z from 'zod/mini';
import { envelope, maybe, openEnum, STRING } from './response-fields';

/** A record of the fee-tier history (spec §2.12). No field is marked always present. */
export const FeeTierChangeSchema = z.looseObject({
  /** `create`, `update` or `delete`. */
  action: maybe(openEnum(['create', 'update', 'delete'])),
  /** Tier state before the change (cents and percentages); inner fields: not shown. */
  old: maybe(z.looseObject({})),
  /** Tier state after the change; inner fields: not shown. */
  new: maybe(z.looseObject({})),
  /** Portuguese text describing the change. */
  observation: maybe(STRING),
  /** The operator who made the change. */
  changed_by: maybe(
    z.looseObject({
      /** Operator name. */
      name: maybe(STRING),
      /** Operator e-mail. */
      email: maybe(STRING),
    }),
  ),
  /** Time of the change, ISO8601 with microseconds and `Z` (read it with `parseTimestamp`). */
  created_at: maybe(STRING),
});
/** A record of the fee-tier history (spec §2.12). */
export type FeeTierChange = z.infer<typeof FeeTierChangeSchema>;

/** Body of `GET /users/fee-tiers/history` (spec §4.11): `data` is the records, newest first. */
export const FeeTierHistoryResponseSchema = envelope(z.array(FeeTierChangeSchema));
/** Body of `GET /users/fee-tiers/history` (spec §4.11). */
export type FeeTierHistoryResponse = z.infer<typeof FeeTierHistoryResponseSchema>;
