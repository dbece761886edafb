/**
 * An item's admission to its job, before any request: its key, validated, set aside when it
 * repeats, a dry run's verdict, and the journal's word on it (finished by an earlier run, or
 * perhaps sent by one: then reconciled before it is sent again). `item-run.ts` runs what is
 * admitted.
 *
 * @module
 */

import type { ItemJob } from './item-run';
import { keyOf, type Work } from './work';

/** Validates an item, sets duplicates aside and reads its journal record; false when it needs no request. */
export async function admitItem<I, R>(job: ItemJob<I, R>, work: Work<I>): Promise<boolean> {
  const base = () => ({ key: work.key, item: work.item, attempts: work.attempts });
  try {
    work.key = keyOf(job.operation.key, work.item);
  } catch (error) {
    job.emit({ status: 'failed', ...base(), error, inDoubt: false });
    return false;
  }
  // Validated before its key is looked up: a bad item is reported failed even where its key
  // repeats an earlier one (a dry run checks every item), and a bad first occurrence never
  // makes a later good one a duplicate.
  try {
    job.operation.validate?.(work.item);
  } catch (error) {
    job.emit({ status: 'failed', ...base(), error, inDoubt: false });
    return false;
  }
  if (job.seen.has(work.key)) {
    job.emit({ status: 'duplicate', key: work.key, item: work.item });
    return false;
  }
  job.seen.start(work.key);
  if (job.options.dryRun) {
    job.emit({ status: 'valid', key: work.key, item: work.item });
    return false;
  }
  return recall(job, work);
}

/** Reads the item's journal record: skipped when an earlier run finished it, in doubt when it may have sent it. */
async function recall<I, R>(job: ItemJob<I, R>, work: Work<I>): Promise<boolean> {
  const journal = job.options.journal;
  const previous = journal ? await journal.store.get(journal.job, work.key) : undefined;
  if (previous?.run === job.runId) {
    // This run recorded the key already: the input repeats it further back than the window.
    job.seen.finish(work.key);
    job.emit({ status: 'duplicate', key: work.key, item: work.item });
    return false;
  }
  if (previous) {
    const finished = previous.state !== 'intent';
    const retry = previous.state === 'failed' && job.options.retryFailed;
    if (finished && !retry) {
      job.emit({ status: 'skipped', key: work.key, item: work.item, previous });
      return false;
    }
    if (previous.state === 'intent' || previous.detail?.inDoubt === true) {
      work.inDoubt = true;
      work.since = previous.since ?? previous.at;
      work.sinceElsewhere = true;
    }
  }
  work.admitted = true;
  return true;
}
