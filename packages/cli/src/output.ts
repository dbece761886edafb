/**
 * Errors, bulk outcomes and bulk summaries, for people and as JSON.
 *
 * @module
 */

import {
  APIError,
  InternalServerError,
  PartnerError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  UnprocessableEntityError,
} from 'partner-sdk';
import {
  AlreadyRefundedError,
  type BulkOutcome,
  type BulkSummary,
  type JournalRecord,
} from 'partner-sdk/bulk';

/** An error as a JSON-friendly object (never a secret: SDK messages are redacted). */
export function errorJson(error: unknown): Record<string, unknown> {
  if (error instanceof RequestValidationError) {
    return { name: error.name, message: error.message, issues: error.issues };
  }
  if (error instanceof RateLimitError || error instanceof InternalServerError) {
    const { name, status, retryAfterMs } = error;
    return { name, message: errorText(error), status, retryAfterMs };
  }
  if (error instanceof UnprocessableEntityError) {
    const { name, status, fieldErrors } = error;
    return { name, message: errorText(error), status, fieldErrors };
  }
  if (error instanceof APIError) {
    return { name: error.name, message: errorText(error), status: error.status };
  }
  if (error instanceof AlreadyRefundedError) {
    return { name: error.name, message: errorText(error), refund: error.refund.hash };
  }
  // An answer that came but was not in shape, or broke off: its status says the service acted.
  const { status } = error as { status?: unknown };
  if (error instanceof PartnerError && typeof status === 'number') {
    return { name: error.name, message: error.message, status };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** What a failure whose request may have reached the service says beside its error. */
const IN_DOUBT_NOTE = ' (may have reached the service)';

/**
 * The note a failure in doubt ends with: none where the SDK's message already says more, for a
 * 2xx answer to a call that acts, read in a shape the SDK could not read ("the call took effect").
 */
export function inDoubtNote(error: unknown): string {
  return error instanceof ResponseValidationError && error.tookEffect ? '' : IN_DOUBT_NOTE;
}

/** Failures of a single item whose request may have reached the service (see {@link markInDoubt}). */
const inDoubtErrors = new WeakSet<object>();

/**
 * Marks `error`, a bulk job of one's failure in doubt thrown as the command's own, so that its
 * report says so as the job's line would.
 */
export function markInDoubt<E>(error: E): E {
  if (typeof error === 'object' && error !== null) inDoubtErrors.add(error);
  return error;
}

/** Whether `error` was marked with {@link markInDoubt}. */
export function isInDoubt(error: unknown): boolean {
  return typeof error === 'object' && error !== null && inDoubtErrors.has(error);
}

/**
 * The SDK's hints on a refused token or login name its own API (`forUser`, `clientId`, its
 * `login` assumption); a CLI user needs the CLI's variables and flags instead.
 */
const AUTH_HINTS: [string, string][] = [
  [
    "a seller's endpoint needs client.forUser(publicToken)",
    "a seller's call needs a seller token: set PARTNER_API_SELLER_TOKEN, or pass --seller-token-file FILE or --seller-token TOKEN",
  ],
  [
    "check the token given to forUser, or a bulk item's sellerToken",
    "check the seller token given (PARTNER_API_SELLER_TOKEN, --seller-token-file or --seller-token, or the profile's), or a --file line's sellerToken",
  ],
  // The CLI has no way to change the login's fields: what the spec leaves open is enough to say.
  [
    "(the spec does not show the login's fields: the `login` assumption)",
    "(the spec does not show the login's fields)",
  ],
];

/** The credentials every command but `login` reads. */
const RUN_CREDENTIALS =
  "PARTNER_API_CLIENT_ID and PARTNER_API_CLIENT_SECRET (or the profile's: partner-sdk login)";

/**
 * The error's message for people; `credentials` names where a login's credentials came from when
 * not from the variables (`partner-sdk login`'s flags, prompts and stdin).
 */
export function errorText(error: unknown, credentials = RUN_CREDENTIALS): string {
  // A refused login is a 400 or 422 as well as a 401.
  if (error instanceof APIError) {
    const hints: [string, string][] = [
      ...AUTH_HINTS,
      ['check clientId and clientSecret', `check ${credentials}`],
    ];
    const text = hints.reduce((text, [sdk, cli]) => text.replace(sdk, cli), error.message);
    if (text !== error.message) return text;
  }
  // A wait the client would not make for you (past its 60 s) is the operator's to make: say it.
  const waitAsked = error instanceof RateLimitError || error instanceof InternalServerError;
  if (waitAsked && error.retryAfterMs !== undefined) {
    return `${error.message} (retry after ${Math.ceil(error.retryAfterMs / 1000)} s)`;
  }
  if (error instanceof AlreadyRefundedError) {
    return `${error.message}; to refund it once more, run again with --again`;
  }
  if (error instanceof PartnerError || error instanceof Error) return error.message;
  return String(error);
}

/** A bulk outcome as one JSON line's object. */
export function outcomeJson(
  outcome: BulkOutcome<unknown, unknown>,
  result: (value: unknown) => unknown = (value) => value,
): Record<string, unknown> {
  const { status, key } = outcome;
  switch (outcome.status) {
    case 'succeeded':
      return { key, status, reconciled: outcome.reconciled, result: result(outcome.result) };
    case 'existing':
      return { key, status, result: result(outcome.result) };
    case 'failed':
      return { key, status, inDoubt: outcome.inDoubt, error: errorJson(outcome.error) };
    case 'skipped':
      return {
        key,
        status,
        previous: outcome.previous.state,
        ...failedEarlierJson(outcome.previous),
      };
    default:
      return { key, status };
  }
}

const MARKS: Record<string, string> = {
  succeeded: 'ok',
  existing: 'ok',
  valid: 'ok',
  skipped: '--',
  duplicate: '--',
  failed: 'FAIL',
  interrupted: '..',
};

/** What became of one bulk item, for people. */
export function outcomeDetail(
  outcome: BulkOutcome<unknown, unknown>,
  describe: (value: unknown) => string,
  journaled = true,
): string {
  switch (outcome.status) {
    case 'succeeded':
      return `${describe(outcome.result)}${outcome.reconciled ? ' (found made by an earlier run)' : ''}`;
    case 'existing':
      return `already there: ${describe(outcome.result)}`;
    case 'failed':
      return `${errorText(outcome.error)}${outcome.inDoubt ? inDoubtNote(outcome.error) : ''}`;
    case 'skipped':
      return outcome.previous.state === 'failed'
        ? failedEarlier(outcome.previous)
        : `done by an earlier run (${outcome.previous.state})`;
    case 'interrupted':
      return journaled
        ? 'interrupted: resume with the same --journal'
        : 'interrupted: run it again (with --journal FILE, a run resumes it by itself)';
    case 'valid':
      return 'valid (dry run: nothing sent)';
    case 'duplicate':
      return 'duplicate of an earlier item of this job: not sent';
    default:
      return (outcome as { status: string }).status;
  }
}

/**
 * An item an earlier run of the job failed, which a resume skips: said as a failure still there,
 * never as done, and in doubt when its request may have reached the service, since the resume
 * leaves it as it was unless told to try it again.
 */
function failedEarlier(previous: JournalRecord): string {
  const detail = previous.detail ?? {};
  const name = typeof detail.error === 'string' ? detail.error : 'an error';
  const status = typeof detail.status === 'number' ? ` ${detail.status}` : '';
  const doubt = detail.inDoubt === true ? '; its request may have reached the service' : '';
  return `failed in an earlier run (${name}${status}${doubt}): not tried again without --retry-failed`;
}

/**
 * What a script reads of an item an earlier run failed, as of a failure of this run: whether it
 * was in doubt, and its error as the journal kept it (name, message, status).
 */
function failedEarlierJson(previous: JournalRecord): Record<string, unknown> {
  if (previous.state !== 'failed') return {};
  const { inDoubt, error, message, status } = previous.detail ?? {};
  const name = typeof error === 'string' ? error : 'Error';
  const shown = { name, message, ...(typeof status === 'number' ? { status } : {}) };
  return { inDoubt: inDoubt === true, error: shown };
}

/** A bulk outcome as one human line. */
export function outcomeText(
  outcome: BulkOutcome<unknown, unknown>,
  describe: (value: unknown) => string,
  journaled = true,
): string {
  const mark = (MARKS[outcome.status] ?? '').padEnd(4);
  return `${mark} ${outcome.key}  ${outcomeDetail(outcome, describe, journaled)}`;
}

/** `1 item`, `2 items`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** The summary of a bulk job for people. */
export function summaryText(summary: BulkSummary, notStarted?: number): string {
  const statuses = [
    'succeeded',
    'existing',
    'skipped',
    'duplicate',
    'failed',
    'interrupted',
    'valid',
  ] as const;
  const parts = statuses.filter((k) => summary[k] > 0).map((k) => `${summary[k]} ${k}`);
  if (notStarted) parts.push(`${notStarted} never started`);
  const seconds = (summary.elapsedMs / 1000).toFixed(1);
  const throttled = summary.throttled ? `, ${summary.throttled} throttled (429/503)` : '';
  const stopped = summary.aborted ? ' (stopped before the end)' : '';
  return `${plural(summary.total + (notStarted ?? 0), 'item')}: ${parts.join(', ') || 'nothing to do'} in ${seconds} s${throttled}${stopped}`;
}
