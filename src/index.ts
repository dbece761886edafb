/**
 * partner-sdk: the typed client for the Partner Integration API.
 *
 * @module partner-sdk
 */

export {
  type Assumptions,
  DEFAULT_ASSUMPTIONS,
  type ResolvedAssumptions,
} from './assumptions';
export { PartnerClient, type RawRequest, SellerClient } from './client';
export type { APIPromise, WithResponse } from './core/api-promise';
export type { HttpMethod, Schema } from './core/call-spec';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ExportFailedError,
  type FailedExport,
  InternalServerError,
  NotFoundError,
  OutcomeUnknownError,
  PartnerError,
  PermissionDeniedError,
  PollTimeoutError,
  RateLimitError,
  type RequestIdentity,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
  type ValidationIssue,
  WebhookPayloadError,
} from './core/errors';
export type { Logger, LogLevel } from './core/logger';
export { toFile } from './core/multipart';
export type {
  ClientOptions,
  FetchLike,
  RequestOptions,
  TokenSource,
  ValidateResponses,
} from './core/options';
export {
  Page,
  type PageContent,
  type PagePromise,
  type Pagination,
  type ToArrayOptions,
} from './core/pagination';
export type { PollOptions, StatusOf } from './core/poll';
export type { ReplayPolicy } from './core/retry';
export type { ClientTokenRequest, ClientTokenStore } from './core/token-store';
export { Anticipations } from './resources/anticipations';
export { BankAccounts } from './resources/bank-accounts';
export { FeeTiers } from './resources/fee-tiers';
export { Offers } from './resources/offers';
export { Products } from './resources/products';
export {
  type RefundAccepted,
  type RefundExisting,
  type RefundRequestResult,
  Refunds,
  type RefundToAwait,
} from './resources/refunds';
export { APIResource } from './resources/resource';
export { type StatementExportRequestResult, Statements } from './resources/statements';
export { Users } from './resources/users';
export * from './schemas/index';
export { parseTimestamp } from './shared/timestamp';
export type {
  MeterProviderLike,
  TelemetryOptions,
  TracerProviderLike,
} from './telemetry/types';
export { API_VERSION, VERSION } from './version';
