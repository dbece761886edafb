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
export type { ClientTokenRequest, ClientTokenStore } from './core/auth/token-store';
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
export type { Logger, LogLevel } from './core/logging/logger';
export type {
  ClientOptions,
  FetchLike,
  RequestOptions,
  TokenSource,
  ValidateResponses,
} from './core/options';
export type { ClientSummary } from './core/options/shown';
export type { BoundPace, PaceClient, RequestPace } from './core/pace/index';
export {
  Page,
  type PageContent,
  type PagePromise,
  type Pagination,
  type ToArrayOptions,
} from './core/pagination';
export type { PollOptions, StatusOf } from './core/poll';
export type { ReplayPolicy } from './core/retry/policy';
export type { APIPromise, WithResponse } from './core/transport/api-promise';
export type { HttpMethod, Schema } from './core/transport/call-spec';
export { toFile } from './core/transport/multipart';
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
