/**
 * Every failure of a call, a wait or a webhook delivery is one of these classes (the other entry
 * points add theirs on the same base, `PartnerError`). `instanceof` works across the ESM and CJS
 * copies of the package (a partner's app can load both): each class carries a registered brand and
 * `Symbol.hasInstance` compares brands along the prototype chain instead of object identity.
 *
 * @module
 */
//
// The classes live by family: the base and its brand in `partner-error.ts`, the error statuses in
// `api-errors.ts`, every other failure of a call in `call-errors.ts`, the failed waits, exports and
// webhook deliveries in `wait-errors.ts`.

export * from './api-errors';
export * from './call-errors';
export {
  describeIssues,
  PartnerError,
  type RequestIdentity,
  requestLine,
  type ValidationIssue,
} from './partner-error';
export * from './wait-errors';
