/**
 * `partner-sdk/bulk`: bulk jobs that lose nothing (per-item outcomes, adaptive concurrency, a
 * journal to resume without duplicates) and the journal stores they record into.
 *
 * A separate entry point: its file journal needs `node:fs`, which the root entry (for every
 * runtime, edge included) must not load, and the root bundle stays within its size budget.
 *
 * @module partner-sdk/bulk
 */

export { AlreadyRefundedError } from './already-refunded';
export type { BulkClient } from './bulk-client';
export { FileJournal } from './file-journal';
export {
  type JournalHolder,
  JournalLockedError,
  JournalMismatchError,
  type JournalRecord,
  type JournalState,
  type JournalStore,
} from './journal';
export {
  type OfferUpdateItem,
  type RefundRequestItem,
  type RefundWaitItem,
  type RequestRefundsOptions,
  requestRefunds,
  updateOffers,
  waitForRefunds,
} from './operations';
export type { OfferUpdateOutcome, RefundOutcome, RefundWaitOutcome } from './outcomes';
export { InDoubtError, runBulk } from './run-bulk';
export type {
  BulkCounts,
  BulkDuplicate,
  BulkExisting,
  BulkFailed,
  BulkInterrupted,
  BulkItems,
  BulkJob,
  BulkJournal,
  BulkOperation,
  BulkOptions,
  BulkOutcome,
  BulkOutcomeBase,
  BulkProgress,
  BulkSkipped,
  BulkSucceeded,
  BulkSummary,
  BulkValid,
  WaitForRefundsOptions,
} from './types';
