/**
 * The exit codes, and the errors of the command line that have one of their own.
 *
 * @module
 */

/** Exit codes scripts can test (documented in `docs/bulk-and-cli.md`). */
export const EXIT = {
  /** Everything done. */
  ok: 0,
  /** The call failed, or some items of a bulk job failed. */
  failed: 1,
  /** Bad arguments, input or configuration: nothing was sent. */
  usage: 2,
  /** The journal is in use by another run (one writer per journal): nothing was sent. */
  busy: 3,
  /** A bad line in input streamed from stdin: the items before it may have been sent. */
  streamedInput: 4,
  /**
   * `refunds request` refused a transaction already refunded (a `completed` refund, none active),
   * and nothing else failed: nothing was sent for it (`--again` refunds it once more).
   */
  alreadyRefunded: 5,
  /** Stopped by Ctrl-C (SIGINT), SIGTERM or SIGHUP; a journaled job resumes where it stopped. */
  interrupted: 130,
} as const;

/** A problem with the command line, its input or its configuration: exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * A bad line met while streaming stdin, after the job had started: exit code 4. Files are read
 * whole before anything is sent; stdin can be endless, so it is checked as it goes.
 */
export class StreamedInputError extends Error {
  override name = 'StreamedInputError';
}

/** A webhook receiver that `trigger` or `replay` could not reach, or that did not answer in time: exit code 1. */
export class ReceiverError extends Error {
  override name = 'ReceiverError';
}
