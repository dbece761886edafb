/**
 * Request validation with the SDK's own request schemas (issue 6: the mock refuses what the
 * SDK's client-side validation refuses), answered as Laravel-style 422 errors. This is the only
 * place of the kit that imports `src/schemas`.
 *
 * @module
 */

import { type core, safeParseAsync } from 'zod/mini';
import {
  ConfirmAnticipationParamsSchema,
  ExportStatementParamsSchema,
  ListAnticipationsParamsSchema,
  ListProductsParamsSchema,
  RequestRefundParamsSchema,
  UpdateBankAccountParamsSchema,
  UpdateOfferParamsSchema,
  UpdateUserParamsSchema,
} from '../schemas';
import { laravelErrors } from './laravel-errors';

/** The request bodies and queries the mock validates, by endpoint. */
export type RequestKind =
  | 'updateUser'
  | 'updateBankAccount'
  | 'updateOffer'
  | 'requestRefund'
  | 'exportStatement'
  | 'confirmAnticipation'
  | 'listProducts'
  | 'listAnticipations';

const SCHEMAS: Record<RequestKind, core.$ZodType> = {
  updateUser: UpdateUserParamsSchema,
  updateBankAccount: UpdateBankAccountParamsSchema,
  updateOffer: UpdateOfferParamsSchema,
  requestRefund: RequestRefundParamsSchema,
  exportStatement: ExportStatementParamsSchema,
  confirmAnticipation: ConfirmAnticipationParamsSchema,
  listProducts: ListProductsParamsSchema,
  listAnticipations: ListAnticipationsParamsSchema,
};

/**
 * Checks `value` against the SDK's request schema for `kind`; returns Laravel `errors` keyed in
 * dot form, or `undefined` when valid.
 */
export async function validateRequest(
  kind: RequestKind,
  value: unknown,
): Promise<Record<string, string[]> | undefined> {
  const result = await safeParseAsync(SCHEMAS[kind], value);
  return result.success ? undefined : laravelErrors(result.error.issues, value);
}
