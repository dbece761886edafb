/**
 * Balance anticipations: spec §2.11 (the anticipation), §2.13 (list pagination), §4.7 (confirm)
 * and §4.8 (list).
 *
 * @module
 */

import * as z from 'zod/mini';
import { withKeywords } from './json-keywords';
import { integer, oneOf, optional, paramsObject } from './request-rules';
import {
  type Envelope,
  envelope,
  INTEGER,
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

/** Where an anticipation stands (spec §2.11, §3): `approved` is the value seen; others pass. */
export type AnticipationStatus = OpenEnum<'approved'>;

/**
 * Which calculated scenario of an anticipation to confirm (spec §4.7): `above` or `below`. The
 * spec gives these values without saying what each means beyond the calculation's own terms.
 */
export type AnticipationScenario = 'above' | 'below';

/** An anticipation in the history (spec §2.11). `hash` is always sent, possibly `null`. */
export interface Anticipation {
  /** Anticipation hash; `null` for anticipations created outside the API. Always sent. Spec §2.11. */
  hash: string | null;
  /** `approved` seen; the allowed values are not shown (see {@link AnticipationStatus}). Absent or `null` when not sent. Spec §2.11. */
  status?: AnticipationStatus | null;
  /** Amount anticipated (integer; unit not stated, cents like the other financial amounts). Absent or `null` when not sent. Spec §2.11. */
  amount?: number | null;
  /** Fee charged for the anticipation (integer, same unit as `amount`). Absent or `null` when not sent. Spec §2.11. */
  fee?: number | null;
  /** Net value (integer; presumably what the seller receives, `amount` less `fee`: the spec does not say). Absent or `null` when not sent. Spec §2.11. */
  net_value?: number | null;
  /** Creation time, ISO8601 with a UTC offset (read it with `parseTimestamp`). Absent or `null` when not sent. Spec §2.11. */
  created_at?: string | null;
}

/** What `anticipations.confirm` returns (spec §4.7): only `amount`, `status` and `created_at`. */
export interface AnticipationConfirmation {
  /** Amount anticipated (integer). Absent or `null` when not sent. Spec §4.7. */
  amount?: number | null;
  /** Status of the confirmed anticipation; its values are not shown. Absent or `null` when not sent. Spec §4.7. */
  status?: AnticipationStatus | null;
  /** Creation time, ISO8601 (read it with `parseTimestamp`). Absent or `null` when not sent. Spec §4.7. */
  created_at?: string | null;
}

/** Pagination of the anticipation list (`data.pagination`, spec §2.13): integers, each may be absent or `null`. */
export interface AnticipationPagination {
  /** Number of this page, from 1. Absent or `null` when not sent. Spec §2.13. */
  current_page?: number | null;
  /** Position (from 1) of this page's first anticipation in the whole list. Absent or `null` when not sent. Spec §2.13. */
  from?: number | null;
  /** Anticipations per page. Absent or `null` when not sent. Spec §2.13. */
  per_page?: number | null;
  /** Position of this page's last anticipation in the whole list. Absent or `null` when not sent. Spec §2.13. */
  to?: number | null;
  /** Anticipations in the whole list. Absent or `null` when not sent. Spec §2.13. */
  total?: number | null;
  /** Number of the last page. Absent or `null` when not sent (the walk then stops here). Spec §2.13. */
  last_page?: number | null;
}

/** `data` of `GET /financial/anticipation` (spec §4.8). */
export interface AnticipationListData {
  /** The anticipations of this page, newest first. Always present. Spec §4.8. */
  anticipations: Anticipation[];
  /** Pagination. Absent or `null` when the service sends none. Spec §2.13. */
  pagination?: AnticipationPagination | null;
}

/** Body of `GET /financial/anticipation` (spec §4.8). `anticipations.list` turns it into a `Page`. */
export type AnticipationListResponse = Envelope<AnticipationListData>;

/** The body of `anticipations.confirm` (spec §4.7). */
export interface AnticipationConfirmParams {
  /**
   * The calculated scenario to confirm: `above` or `below`. Required. The spec gives the values but
   * not the field's name: sent as `scenario` unless the client's `assumptions.anticipationConfirmation.field` names another. Spec §4.7.
   */
  scenario: AnticipationScenario;
}

/**
 * The body of `anticipations.confirm`.
 *
 * @deprecated Renamed {@link AnticipationConfirmParams}.
 */
export type ConfirmAnticipationParams = AnticipationConfirmParams;

/**
 * Query of `anticipations.list` (`GET /financial/anticipation`, spec §4.8). The service caches the
 * result for 10 minutes per account and filter set.
 */
export interface AnticipationListParams {
  /** Page to start from: an integer ≥ 1; the service's default is 1. Spec §4.8. */
  page?: number;
  /** Anticipations per page: an integer from 1 to 100; the service's default is 25. Spec §4.8, §8. */
  per_page?: number;
}

/**
 * Query of `anticipations.list`.
 *
 * @deprecated Renamed {@link AnticipationListParams}.
 */
export type ListAnticipationsParams = AnticipationListParams;

// ---------------------------------------------------------------------------------------------
// Schemas: the run-time truth (field notes: see the types above)
// ---------------------------------------------------------------------------------------------

/** Schema of {@link Anticipation}: `hash` is required (it may be `null`). */
export const AnticipationSchema = responseObject({
  hash: z.nullable(STRING),
  status: maybe(openEnum(['approved'])),
  amount: maybe(INTEGER),
  fee: maybe(INTEGER),
  net_value: maybe(INTEGER),
  created_at: maybe(ISO_TIMESTAMP),
});

/** Schema of {@link AnticipationConfirmation}. */
export const AnticipationConfirmationSchema = responseObject({
  amount: maybe(INTEGER),
  status: maybe(openEnum(['approved'])),
  created_at: maybe(ISO_TIMESTAMP),
});

/** Schema of {@link AnticipationPagination}. */
export const AnticipationPaginationSchema = responseObject({
  current_page: maybe(INTEGER),
  from: maybe(INTEGER),
  per_page: maybe(INTEGER),
  to: maybe(INTEGER),
  total: maybe(INTEGER),
  last_page: maybe(INTEGER),
});

/** Schema of {@link AnticipationListData}. */
export const AnticipationListDataSchema = responseObject({
  anticipations: z.array(AnticipationSchema),
  pagination: maybe(AnticipationPaginationSchema),
});

/** Schema of {@link AnticipationListResponse}. */
export const AnticipationListResponseSchema = envelope(AnticipationListDataSchema);

/** Schema of {@link AnticipationConfirmParams}. */
export const AnticipationConfirmParamsSchema = paramsObject({
  scenario: oneOf(['above', 'below']),
});

/** Schema of {@link AnticipationListParams}: `page` ≥ 1, `per_page` 1 to 100. */
export const AnticipationListParamsSchema = paramsObject({
  // The defaults are the service's, for the document (spec §4.8): the SDK sends none of its own.
  page: optional(withKeywords(integer({ min: 1 }), { default: 1 })),
  per_page: optional(withKeywords(integer({ min: 1, max: 100 }), { default: 25 })),
});
