/**
 * One sender per transaction across a worker pool: a short Redis lease per transaction
 * (`<prefix>refund-lease:{<hash>}`) naming its owner, taken before a refund job reads or sends
 * anything, renewed while the request is in flight, and given back once its answer (or its
 * failure) is in. BullMQ's own job lock cannot do this: it is the lock that ran out when a second
 * worker took a stalled job over, while the first worker's request may still be on its way. A
 * second runner that finds the lease held waits for it to be given back, or to run out (its
 * holder died), and then reconciles before it sends.
 *
 * @module
 */

import { randomUUID } from 'node:crypto';
import { APIUserAbortError, PartnerError } from '../core/errors';
import { sleep } from '../core/time/sleep';
import {
  type Commands,
  connect,
  positiveMs,
  RELEASE_LEASE,
  type RedisClient,
  Script,
} from '../redis/client';

// Taken when free; otherwise the time the holder's lease has left.
const CLAIM = new Script(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return -1 end
return redis.call('PTTL', KEYS[1])
`);

// Renewed while ours. 0: it ran out and another runner holds it now.
const RENEW = new Script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`);

// Marks run ARGV[2] of job ARGV[1] put back unsent, when the first run or every one before was too.
const MARK_UNSENT = new Script(`
local run = tonumber(ARGV[2])
if run == 1 or redis.call('GET', KEYS[1]) == ARGV[1] .. ':' .. (run - 1) then
  redis.call('SET', KEYS[1], ARGV[1] .. ':' .. run, 'PX', ARGV[3])
end
return 0
`);

/** How long the mark of a job put back unsent lasts: a job waiting longer is reconciled. */
const UNSENT_MS = 24 * 3_600_000;

/**
 * How long the mark of a run that sent lasts: longer than BullMQ's attempts of a job usually
 * span, since a job failing after it runs out ends without saying its refund may have been made.
 */
const SENT_MS = 7 * 24 * 3_600_000;

/** A run of a job: BullMQ's id and enqueue time name the job (an id may be enqueued again). */
export interface JobRun {
  /** The job's id and enqueue time. */
  readonly job: string;
  /** Which of the job's runs this is (BullMQ's `attemptsStarted`). */
  readonly run: number;
}

/** The longest pause between two looks at a lease another runner holds. */
const LOOK_EVERY_MS = 250;

/** A lease held: what the refund runs under, and how it ends. @internal */
export interface HeldLease {
  /** Another runner held it first: what it sent must be reconciled before sending. */
  readonly waited: boolean;
  /** Gives it back (never throws: a lease not given back runs out on its own). */
  release(): Promise<void>;
}

/**
 * Thrown by a refund job whose transaction's lease another runner kept for longer than a lease's
 * time (still renewing it: its request is still in flight). BullMQ retries the job with its
 * back-off; the retry reconciles before it sends.
 *
 * @example
 * ```ts
 * worker.on('failed', (job, error) => {
 *   if (error.name === 'RefundLeaseBusyError') console.warn('refund still in flight elsewhere');
 * });
 * ```
 */
export class RefundLeaseBusyError extends PartnerError {}
// Its own brand (which also names it, as BullMQ shows it in the job's `failedReason`): without
// one, `instanceof RefundLeaseBusyError` would match every PartnerError.
Object.defineProperty(RefundLeaseBusyError, Symbol.for('partner-sdk.error.brand'), {
  value: 'partner-sdk.RefundLeaseBusyError',
});

/** The leases of one processor. @internal */
export class RefundLeases {
  readonly #commands: Commands;
  readonly #prefix: string;
  readonly #leaseMs: number;

  constructor(redis: RedisClient, leaseMs = 30_000) {
    const { commands, prefix } = connect(redis, {});
    this.#commands = commands;
    this.#prefix = prefix;
    this.#leaseMs = positiveMs('leaseMs', leaseMs);
  }

  /**
   * Takes `transactionHash`'s lease, waiting while another runner holds it (at most about one
   * lease's time: a holder still renewing after that is left alone, and the job is retried), or
   * until `signal` (BullMQ's, on a cancelled job) aborts.
   */
  async acquire(transactionHash: string, signal?: AbortSignal): Promise<HeldLease> {
    const key = `${this.#prefix}refund-lease:{${transactionHash}}`;
    const owner = randomUUID();
    const deadline = Date.now() + this.#leaseMs;
    let waited = false;
    for (;;) {
      const left = Number(await this.#commands.eval(CLAIM, [key], [owner, String(this.#leaseMs)]));
      if (left === -1) break;
      waited = true;
      if (Date.now() >= deadline) {
        throw new RefundLeaseBusyError(
          'Another worker is still sending a refund for this transaction; the job will be retried.',
        );
      }
      await sleep(Math.min(Math.max(left, 10), LOOK_EVERY_MS), signal).catch(() => {
        throw new APIUserAbortError(
          `Waiting for the refund lease of ${transactionHash} was aborted.`,
          {
            cause: signal?.reason,
          },
        );
      });
    }
    return { waited, release: this.#hold(key, owner) };
  }

  /**
   * Records that `at`, a run of a refund job, was put back before its request went out. Only when
   * it is the job's first run or the run before it was marked so too: the mark then says that no
   * run of the job sent anything, and never hides a run that did (a stalled one, a failed one).
   * Never throws: a mark not written costs the next run a reconciling read.
   */
  async markUnsent(transactionHash: string, at: JobRun): Promise<void> {
    const key = `${this.#prefix}refund-unsent:{${transactionHash}}`;
    const args = [at.job, String(at.run), String(UNSENT_MS)];
    await this.#commands.eval(MARK_UNSENT, [key], args).catch(() => {});
  }

  /** Whether every run of the job before `at` was put back before its request went out. */
  async unsentBefore(transactionHash: string, at: JobRun): Promise<boolean> {
    const key = `${this.#prefix}refund-unsent:{${transactionHash}}`;
    const mark = await this.#commands.send(['GET', key]).catch(() => undefined);
    return String(mark) === `${at.job}:${at.run - 1}`;
  }

  /**
   * Records, before its refund request goes out, that `at` sent it: a run whose worker then dies
   * tells BullMQ nothing, and this is how a later run of the job learns that the refund may have
   * been made. One write per run that sends; never throws (a mark not written is a warning lost,
   * not a refund made twice: a run after a dead one reconciles whatever the marks say).
   */
  async markSent(transactionHash: string, at: JobRun): Promise<void> {
    const key = `${this.#prefix}refund-sent:{${transactionHash}}`;
    const mark = `${at.job}:${at.run}`;
    await this.#commands.send(['SET', key, mark, 'PX', String(SENT_MS)]).catch(() => {});
  }

  /** Whether a run of the job before `at` marked its refund request sent. */
  async sentBefore(transactionHash: string, at: JobRun): Promise<boolean> {
    const key = `${this.#prefix}refund-sent:{${transactionHash}}`;
    const mark = String(await this.#commands.send(['GET', key]).catch(() => undefined));
    if (!mark.startsWith(`${at.job}:`)) return false;
    return Number(mark.slice(at.job.length + 1)) < at.run;
  }

  #hold(key: string, owner: string): () => Promise<void> {
    const args = [owner, String(this.#leaseMs)];
    const timer = setInterval(() => {
      this.#commands.eval(RENEW, [key], args).catch(() => {
        // Redis away: the lease runs out, and a second runner then reconciles before sending.
      });
    }, this.#leaseMs / 3);
    (timer as { unref?: () => void }).unref?.();
    return async () => {
      clearInterval(timer);
      await this.#commands.eval(RELEASE_LEASE, [key], [owner]).catch(() => {});
    };
  }
}
