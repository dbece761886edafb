/**
 * Balance anticipations: spec §2.11 (the anticipation), §2.13 (list pagination), §4.7 (confirm)
 * and §4.8 (list).
 *
 * @module
 */

import * as z from 'zod/mini';
import { integer, oneOf, optional, paramsObject } from './request-rules';
import { envelope, maybe, NUMBER, openEnum, STRING } from './response-fields';

/** An anticipation in the history (spec §2.11). */
export const AnticipationSchema = z.looseObject({
  /** Anticipation hash; `null` for anticipations created outside the API. Always sent (identity). */
  hash: z.nullable(STRING),
  /** `approved` seen; allowed values: not shown. */
  status: maybe(openEnum(['approved'])),
  /** Amount anticipated (integer). */
  amount: maybe(NUMBER),
  /** Fee charged (integer). */
  fee: maybe(NUMBER),
  /** Net value (integer). */
  net_value: maybe(NUMBER),
  /** Creation time, ISO8601 with a UTC offset (read it with `parseTimestamp`). */
  created_at: maybe(STRING),
});
/** An anticipation in the history (spec §2.11). */
export type Anticipation = z.infer<typeof AnticipationSchema>;

/** The answer of `anticipations.confirm` (spec §4.7): only `amount`, `status` and `created_at`. */
export const AnticipationConfirmationSchema = z.looseObject({
  /** Amount anticipated (integer). */
  amount: maybe(NUMBER),
  /** Status of the anticipation; allowed values: not shown. */
  status: maybe(openEnum(['approved'])),
  /** Creation time, ISO8601 (read it with `parseTimestamp`). */
  created_at: maybe(STRING),
});
/** The answer of `anticipations.confirm` (spec §4.7). */
export type AnticipationConfirmation = z.infer<typeof AnticipationConfirmationSchema>;

/** Pagination of the anticipation list (`data.pagination`, spec §2.13). */
export const AnticipationPaginationSchema = z.looseObject({
  /** Page number of this page. */
  current_page: maybe(NUMBER),
  /** Position of the first item of this page. */
  from: maybe(NUMBER),
  /** Page size. */
  per_page: maybe(NUMBER),
  /** Position of the last item of this page. */
  to: maybe(NUMBER),
  /** Total number of anticipations. */
  total: maybe(NUMBER),
  /** Number of the last page. */
  last_page: maybe(NUMBER),
});
/** Pagination of the anticipation list (spec §2.13). */
export type AnticipationPagination = z.infer<typeof AnticipationPaginationSchema>;

/** Body of `GET /financial/anticipation` (spec §4.8): envelope with `data.anticipations` and `data.pagination`. */
export const AnticipationListResponseSchema = envelope(
  z.looseObject({
    /** Anticipations of this page, newest first. */
    anticipations: z.array(AnticipationSchema),
    /** Pagination (spec §2.13). */
    pagination: maybe(AnticipationPaginationSchema),
  }),
);
/** Body of `GET /financial/anticipation` (spec §4.8). */
export type AnticipationListResponse = z.infer<typeof AnticipationListResponseSchema>;

/**
 * The body of `anticipations.confirm` (spec §4.7). The spec gives the values `above` and `below`
 * but not the field's name: `scenario` is assumed (DESIGN §6).
 */
export const ConfirmAnticipationParamsSchema = paramsObject({
  /** The calculated scenario to confirm: `above` or `below`. Field name assumed (not shown by the spec). */
  scenario: oneOf(['above', 'below']),
});
/** The body of `anticipations.confirm` (spec §4.7). */
export type ConfirmAnticipationParams = z.input<typeof ConfirmAnticipationParamsSchema>;

/** Query of `anticipations.list` (spec §4.8): `page` ≥ 1, `per_page` 1 to 100 (service default 25). */
export const ListAnticipationsParamsSchema = paramsObject({
  /** Page number, integer ≥ 1; the service defaults to 1. */
  page: optional(integer({ min: 1 })),
  /** Page size, integer 1 to 100; the service defaults to 25. */
  per_page: optional(integer({ min: 1, max: 100 })),
});
/** Query of `anticipations.list` (spec §4.8). */
export type ListAnticipationsParams = z.input<typeof ListAnticipationsParamsSchema>;
