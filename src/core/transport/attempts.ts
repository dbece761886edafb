/**
 * The attempt loop of one call: an attempt through ky (bounded up to the headers), its body read
 * within the rest of the attempt's time (`body.ts`), and, after a failure, the retry the replay
 * policy allows (`retry.ts`) after its wait, with a reconciliation first where a lost attempt may
 * have acted (`reconcile.ts`), and that reading once more after the last attempt.
 */

import type { KyInstance, Options as KyOptions } from 'ky';
import type { BoundPace } from '../pace/index';
import { MAX_RETRY_AFTER_MS, mayHaveActed, retryDelay, timeForWait } from '../retry/policy';
import { retryAfterOf } from '../retry/retry-after';
import type { Clock } from '../time/clock';
import type { WithResponse } from './api-promise';
import { BodyBroken, parseBody, parseWholeBody, readBody } from './body';
import type { ReadyCallSpec } from './call-spec';
import { ErrorStatus } from './error-status';
import { isRedirect } from './redirects';

/** What one call sends, and the bounds its attempts run within. */
export interface AttemptPlan {
  spec: ReadyCallSpec;
  /** The URL given to ky. */
  target: string;
  /** ky's options; each attempt sets its own time-outs on them. */
  request: KyOptions;
  /** Milliseconds one attempt may take, body included. */
  timeout: number;
  /** When the call must end, on the transport's clock. */
  deadline: number;
  maxRetries: number;
  maxResponseBytes: number;
  signal: AbortSignal | undefined;
}

/** What the loop tells and asks its caller along the way. */
export interface AttemptHooks {
  clock: Clock;
  /** As an attempt starts: what it returns hears how it ended (telemetry). */
  onAttempt?: (() => { end(status: number | undefined, error?: unknown): void }) | undefined;
  /** Before the wait of retry number `retry` (1 for the first) after `error`. */
  onRetry(error: unknown, retry: number, wait: number): void;
  /** After the wait, when the failed attempt may have acted: a result found ends the call. */
  reconcile?: ((error: unknown) => Promise<WithResponse<unknown> | undefined>) | undefined;
  /** The shared budget each attempt draws from, and hears of each 429 (the client's `pace`). */
  pace?: BoundPace | undefined;
}

/** How the loop ended: with an answer (its body parsed, unread when raw or a redirect), or a result found. */
export type AttemptOutcome =
  | { response: Response; body: unknown; found?: undefined }
  | { found: WithResponse<unknown> };

/** The call's time ran out while its pace held it back (mapped to `APIConnectionTimeoutError`). */
export class PaceTimeout extends Error {}

/**
 * Waits for the pace within what the call has left: a pause longer than that (a fleet's, after a
 * long `Retry-After`) ends the call when its `totalTimeout` does. A real timer, as for every bound
 * that ends a wait; Node's does not hold the process open (the pace's own wait does).
 */
async function paceWithin(pace: BoundPace, plan: AttemptPlan, clock: Clock): Promise<void> {
  const outOfTime = AbortSignal.timeout(Math.max(1, plan.deadline - clock.now()));
  const signal = plan.signal ? AbortSignal.any([plan.signal, outOfTime]) : outOfTime;
  try {
    await pace.acquire(signal);
  } catch (error) {
    if (plan.signal?.aborted || !outOfTime.aborted) throw error;
    throw new PaceTimeout('no request slot from the pace in time');
  }
}

/** What an attempt the caller aborted ends with for telemetry: the name fetch gives an abort. */
const CALLER_ABORT = { name: 'AbortError' };

/** Runs the attempts of `plan` until one answers, a failure may not be retried, or time runs out. */
export async function runAttempts(
  ky: KyInstance,
  plan: AttemptPlan,
  hooks: AttemptHooks,
): Promise<AttemptOutcome> {
  const { clock } = hooks;
  const { pace } = hooks;
  for (let retry = 0; ; ) {
    if (pace) await paceWithin(pace, plan, clock);
    const started = clock.now();
    const traced = hooks.onAttempt?.();
    // An attempt the caller's signal stopped before it started sent nothing.
    const abortedBefore = plan.signal?.aborted === true;
    try {
      const answer = await attempt(ky, plan, started, clock);
      traced?.end(answer.response.status);
      return answer;
    } catch (error) {
      // The caller's abort is named alike whatever reason they gave it: the reason's class is
      // theirs, and as `error.type` it would take as many values as callers have classes.
      traced?.end(undefined, plan.signal?.aborted ? CALLER_ABORT : error);
      if (pace) noteRefusal(pace, error);
      const now = clock.now();
      const left = timeForWait(error, plan.deadline - now, now - started);
      const wait =
        retry < plan.maxRetries ? retryDelay(error, plan.spec.replay, retry + 1, left) : undefined;
      if (abortedBefore) throw error;
      if (wait === undefined) return lastWord(error, plan, hooks);
      retry++;
      hooks.onRetry(error, retry, wait);
      await clock.sleep(wait, plan.signal).catch((abort) => abortedWait(abort, error, hooks));
      if (hooks.reconcile && mayHaveActed(error)) {
        const found = await hooks.reconcile(error);
        if (found) return { found };
      }
    }
  }
}

/**
 * How a call ends after its last attempt failed: with that failure, unless the attempt may have
 * acted and the call retried for its caller (`maxRetries` above 0). Then, as before any replay, it
 * first reads whether the attempt acted: a refund made by an attempt whose answer was lost is the
 * call's result, not an error a caller would answer by requesting it again. With `maxRetries: 0`
 * the caller handles failures itself (bulk jobs and BullMQ processors reconcile on their own).
 * After the caller's abort (of that attempt, too, whatever `maxRetries`) the reconciliation sends
 * nothing and says the outcome is unknown: an abort must not read as "nothing happened" when a
 * refund may exist.
 */
async function lastWord(
  error: unknown,
  plan: AttemptPlan,
  hooks: AttemptHooks,
): Promise<AttemptOutcome> {
  const reconcile = (plan.maxRetries > 0 || plan.signal?.aborted) && hooks.reconcile;
  if (!reconcile || !mayHaveActed(error)) throw error;
  const found = await reconcile(error);
  if (found) return { found };
  throw error;
}

/**
 * The caller's abort during the wait after `lost`, an attempt that may have acted: the
 * reconciliation, sending nothing once the call is aborted, ends the call as outcome unknown.
 */
async function abortedWait(abort: unknown, lost: unknown, hooks: AttemptHooks): Promise<never> {
  if (hooks.reconcile && mayHaveActed(lost)) await hooks.reconcile(lost);
  throw abort;
}

/** Tells the shared pace of a 429 among an attempt's failures; others are not its business. */
function noteRefusal(pace: BoundPace, error: unknown): void {
  if (!(error instanceof ErrorStatus) || error.response.status !== 429) return;
  const retryAfterMs = retryAfterOf(error.response.headers);
  // One answer (broken or hostile) asking for a year must not hold every process sharing the pace
  // longer than any call waits: the call itself fails at once past this bound.
  pace.refused(retryAfterMs === undefined ? undefined : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/**
 * One attempt: ky bounds it up to the response headers and aborts on the caller's signal (which
 * {@link heeding} also watches, for a `fetch` that does not);
 * `readBody` bounds the rest of the attempt's time. No controller of our own: tying one to ky's
 * would cost every call more than the SDK's other work together. An error status (one the call
 * does not accept) fails the attempt with {@link ErrorStatus}, its body read as any other.
 */
async function attempt(
  ky: KyInstance,
  plan: AttemptPlan,
  started: number,
  clock: Clock,
): Promise<{ response: Response; body: unknown }> {
  const left = Math.max(1, plan.deadline - started);
  const budget = Math.min(plan.timeout, left);
  plan.request.timeout = budget;
  plan.request.totalTimeout = left;
  // Not handed to fetch at all once aborted: a fetch that does not heed the signal would send it.
  plan.signal?.throwIfAborted();
  const sending = ky(plan.target, plan.request);
  const response = await (plan.signal ? heeding(sending, plan.signal) : sending);
  const { status, ok } = response;
  // A redirect's body is never read.
  if (isRedirect(status)) return { response, body: undefined };
  const failed = !ok && !plan.spec.acceptStatus?.includes(status);
  // A raw response's body is the caller's to stream.
  if (plan.spec.raw && !failed) return { response, body: undefined };
  const bodyTime = Math.max(1, started + budget - clock.now());
  if (failed) throw await errorStatus(response, bodyTime, plan);
  const text = await readBody(response, bodyTime, plan.maxResponseBytes, plan.signal);
  const body = parseWholeBody(response, text);
  if (!ok) refuseUnlessResult(response, body, plan.spec);
  return { response, body };
}

/**
 * `sending`, or the caller's abort as soon as it comes. ky hands the signal to `fetch` and bounds
 * the time-outs by timers of its own, so a custom `fetch` that does not heed the signal (a wrapper
 * that rebuilds the request without it) would hold an aborted call until the attempt's time-out.
 * An answer that arrives after the abort is let go, its body cancelled.
 */
function heeding(sending: Promise<Response>, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      sending.then(
        (late) => late.body?.cancel().catch(() => {}),
        () => {},
      );
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    // Let go of the signal as the attempt settles, before an abort could come in between.
    const settled = () => signal.removeEventListener('abort', onAbort);
    sending.then(
      (response) => {
        settled();
        resolve(response);
      },
      (error: unknown) => {
        settled();
        reject(error);
      },
    );
  });
}

/**
 * An accepted error status is a result only when its body is one (the 409 that carries the
 * running export): any other body under that status is the error the status names.
 */
function refuseUnlessResult(response: Response, body: unknown, spec: ReadyCallSpec): void {
  if (!spec.acceptBody) return;
  if (!spec.acceptBody(body)) throw new ErrorStatus(response, body);
}

/**
 * The failure of an attempt answered with an error status, its body kept as far as it could be
 * read: the status decides what happens next, so a body that stalls, breaks off or does not decode
 * leaves the error with what arrived (nothing, for a stall) rather than turning it into another
 * failure. Only the caller's abort ends it otherwise.
 */
async function errorStatus(
  response: Response,
  timeMs: number,
  plan: AttemptPlan,
): Promise<ErrorStatus> {
  let text = '';
  try {
    text = await readBody(response, timeMs, plan.maxResponseBytes, plan.signal, 'truncate');
  } catch (error) {
    if (plan.signal?.aborted) throw error;
    // A body broken off or spoilt part way keeps the start that did arrive and decode.
    if (error instanceof BodyBroken) text = error.text;
  }
  return new ErrorStatus(response, parseBody(text));
}
