/**
 * Every zod schema of the SDK and the types inferred from them, one module per resource.
 *
 * @module
 */

export * from './anticipation';
export * from './bank-account';
export {
  envelope,
  type OpenEnum,
  openEnum,
  type Uploadable,
} from './common';
export * from './fee-tier';
export * from './offer';
export * from './product';
export * from './refund';
export * from './statement';
export * from './user';
