/**
 * `partner-sdk/bulk`: bulk jobs that lose nothing (per-item outcomes, adaptive concurrency, a
 * journal to resume without duplicates) and the journal stores they record into.
 *
 * A separate entry point: its file journal needs `node:fs`, which the root entry (for every
 * runtime, edge included) must not load, and the root bundle stays within its size budget.
 *
 * @module partner-sdk/bulk
 */

export { FileJournal } from './file-journal';
export {
  JournalMismatchError,
  type JournalRecord,
  type JournalState,
  type JournalStore,
} from './journal';
