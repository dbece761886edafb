/**
 * Every zod schema of the SDK and the types inferred from them, one module per resource.
 *
 * @module
 */

export * from './anticipation';
export * from './bank-account';
export * from './fee-tier';
export * from './offer';
export * from './product';
export * from './refund';
export type { ReadableStreamLike, Uploadable } from './request-rules';
export { type Envelope, envelope, type OpenEnum, openEnum } from './response-fields';
export * from './statement';
export * from './user';
