/**
 * A producer's queue that keeps what it is given instead of writing to Redis: what the enqueue
 * helpers of `partner-sdk/bullmq` add, job by job, for tests of the producer alone.
 */

import type { BulkJobSpec } from 'partner-sdk/bullmq';

/** A queue named `refunds` whose `addBulk` keeps every job in `added`. */
export function capturingQueue() {
  const added: BulkJobSpec<unknown>[] = [];
  const queue = {
    name: 'refunds',
    addBulk: async (jobs: BulkJobSpec<unknown>[]) => {
      added.push(...jobs);
      return jobs;
    },
  };
  return { queue, added };
}
