/**
 * A job's hold on its journal: claimed before any item is read, so that a second writer on the
 * same journal is refused before it sends anything, and given back when the job ends. A store
 * without `claim` is not held; a dry run writes nothing and holds nothing.
 *
 * @module
 */

import type { BulkOptions } from './types';

/** Makes the job its journal's one writer: `undefined` when it may go on, else the refusal. */
export async function claimJournal(
  options: Pick<BulkOptions, 'journal' | 'dryRun'>,
): Promise<{ error: unknown } | undefined> {
  const journal = options.journal;
  if (!journal?.store.claim || options.dryRun) return undefined;
  try {
    await journal.store.claim(journal.job);
    return undefined;
  } catch (error) {
    return { error };
  }
}

/** Gives the journal back (never throws: a hold not given back runs out on its own). */
export async function releaseJournal(
  options: Pick<BulkOptions, 'journal' | 'dryRun'>,
): Promise<void> {
  const journal = options.journal;
  if (journal?.store.claim && !options.dryRun) {
    await journal.store.release?.(journal.job).catch(() => {});
  }
}
