/**
 * Failures after the calls themselves: a wait that saw no final status, an export that failed,
 * and a webhook delivery that is not a valid event.
 */

import {
  brand,
  describeIssues,
  describeStatus,
  PartnerError,
  type ValidationIssue,
} from './partner-error';

/**
 * A refund or export did not reach a final state within the poll `timeout`. `lastStatus` is the
 * last status seen (or `undefined` when no poll answered), `waitedMs` how long it waited.
 *
 * @example
 * ```ts
 * try {
 *   await seller.refunds.waitForCompletion('tx_1', { timeout: 60_000 });
 * } catch (err) {
 *   if (err instanceof PollTimeoutError) console.log('still', err.lastStatus, 'after', err.waitedMs);
 * }
 * ```
 */
export class PollTimeoutError extends PartnerError {
  /** The last status value the poll saw, if any. */
  readonly lastStatus: unknown;
  /** How long the wait lasted, in milliseconds. */
  readonly waitedMs: number;

  constructor(what: string, lastStatus: unknown, waitedMs: number) {
    super(
      `${what} did not finish within ${waitedMs} ms (last status: ${describeStatus(lastStatus)})`,
    );
    this.lastStatus = lastStatus;
    this.waitedMs = waitedMs;
  }
}
brand(PollTimeoutError, 'PollTimeoutError');

/** What {@link ExportFailedError} keeps of the export: its hash, status and any other field sent. */
export interface FailedExport {
  /** Export identifier. */
  readonly hash: string;
  /** The failure status the service reported (e.g. `failed`). */
  readonly status?: string | null | undefined;
  /** The download location; never set on a failed export. */
  readonly url?: string | null | undefined;
  readonly [field: string]: unknown;
}

/**
 * A statement export ended in a failure status (`failed` or `error` unless the client's
 * `assumptions.exportStatus.failed` says otherwise) while `statements.waitForExport` waited for it. `export` is the export as the
 * service last reported it.
 *
 * @example
 * ```ts
 * try {
 *   await seller.statements.waitForExport(exported);
 * } catch (err) {
 *   if (err instanceof ExportFailedError) console.log(err.export.hash, err.export.status);
 * }
 * ```
 */
export class ExportFailedError extends PartnerError {
  /** The failed export as last reported by the service. */
  readonly export: FailedExport;

  constructor(failed: FailedExport) {
    super(`statement export ${failed.hash} failed (status: ${describeStatus(failed.status)})`);
    this.export = failed;
  }
}
brand(ExportFailedError, 'ExportFailedError');

/**
 * A webhook delivery's body is not a valid event (not JSON, or not the documented envelope).
 *
 * @example
 * ```ts
 * try {
 *   parseWebhookEvent(rawBody);
 * } catch (err) {
 *   if (err instanceof WebhookPayloadError) console.log(err.issues);
 * }
 * ```
 */
export class WebhookPayloadError extends PartnerError {
  /** What did not match the envelope or the event's payload; empty when the body was not JSON. */
  readonly issues: ReadonlyArray<ValidationIssue>;

  constructor(message: string, issues: ReadonlyArray<ValidationIssue> = [], cause?: unknown) {
    super(
      issues.length > 0 ? `${message}: ${describeIssues(issues)}` : message,
      cause === undefined ? undefined : { cause },
    );
    this.issues = issues;
  }
}
brand(WebhookPayloadError, 'WebhookPayloadError');
