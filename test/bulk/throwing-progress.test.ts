/**
 * An `onProgress` that throws is the partner's error, and it ends the job the way a failing
 * journal does: no item is started after it, the job rejects with it and a reader of the outcomes
 * ends with it. It never escapes as an uncaught exception from the progress timer (which would
 * bring a partner's process down), and never leaves a reader waiting.
 */

import { runBulk } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { sleep, withTimeout } from '../helpers/waits';

const keys = Array.from({ length: 8 }, (_, index) => `item-${index}`);

/** A job over `keys`, one item at a time, each taking `itemMs`; records which items started. */
function slowJob(itemMs: number, onProgress: () => void) {
  const started: string[] = [];
  const job = runBulk(
    keys,
    {
      key: (key) => key,
      run: async (key) => {
        started.push(key);
        await sleep(itemMs);
        return key;
      },
    },
    { concurrency: 1, maxConcurrency: 1, onProgress },
  );
  return { job, started };
}

describe('an onProgress that throws', () => {
  it('while the job runs ends the job with its error, starting no item after it', async () => {
    const fault = new Error('progress display failed');
    const { job, started } = slowJob(200, () => {
      throw fault;
    });
    await expect(withTimeout(Promise.resolve(job), 10_000, 'the job to end')).rejects.toBe(fault);
    // The first report comes about half a second in: the job stopped there, not after every item.
    expect(started.length).toBeGreaterThan(0);
    expect(started.length).toBeLessThan(keys.length);
  });

  it('at the final report ends a reader of the outcomes with its error', async () => {
    const fault = new Error('progress display failed');
    const { job } = slowJob(0, () => {
      throw fault;
    });
    const seen: string[] = [];
    const read = async () => {
      for await (const outcome of job) seen.push(outcome.key);
    };
    await expect(withTimeout(read(), 10_000, 'the reader to end')).rejects.toBe(fault);
    expect(seen).toEqual(keys);
  });
});
