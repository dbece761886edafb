/**
 * The answers a webhook delivery can get, before they are written to a Fetch `Response` or a
 * Node.js response: what each status tells the sender, and which close the connection.
 *
 * @module
 */

/** An answer, before it is written to a Fetch `Response` or a Node.js response. */
export interface Outcome {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * 405 for any method but POST; `Allow` says which one is. Its body is never read, so the connection
 * closes: kept open, the server would read and discard whatever the sender keeps sending.
 */
export const METHOD_NOT_ALLOWED: Outcome = {
  status: 405,
  body: { error: 'method_not_allowed', message: 'webhook deliveries are POST requests' },
  headers: { allow: 'POST', connection: 'close' },
};
/** 400 for a body whose sender went away (or whose stream failed) before it ended. */
export const INCOMPLETE: Outcome = {
  status: 400,
  body: { error: 'incomplete_body' },
  headers: { connection: 'close' },
};
/** 408 for a body that did not arrive whole within the body time-out. */
export const TOO_SLOW_OUTCOME: Outcome = {
  status: 408,
  body: { error: 'body_timeout' },
  // The rest of the body is not read, so the connection cannot carry another request.
  headers: { connection: 'close' },
};
/** 503 for a body that would take the bodies being read at once past `maxBufferedBodyBytes`. */
export const BUSY: Outcome = {
  status: 503,
  body: { error: 'busy' },
  headers: { 'retry-after': '1', connection: 'close' },
};
export const UNAUTHORIZED: Outcome = { status: 401, body: { error: 'unauthorized' } };
/**
 * The line a delivery `verify` refused leaves in the log, at `warn` as a 400's: a secret the
 * platform holds wrong refuses every delivery, and its sender's retries show nowhere else.
 */
export const UNVERIFIED_LINE =
  'webhook delivery refused with 401: verify refused it (a secret or signature missing or not the expected one)';
/** 500 with nothing about the failure itself: the sender only needs to know it should retry. */
export const FAILED: Outcome = { status: 500, body: { error: 'internal_error' } };
export const RECEIVED: Outcome = { status: 200, body: { received: true } };
export const DUPLICATE: Outcome = { status: 200, body: { received: true, duplicate: true } };
/** How long a sender should wait before delivering again an event another receiver is handling. */
export const IN_PROGRESS_RETRY_AFTER_S = 5;
export const IN_PROGRESS: Outcome = {
  status: 503,
  body: { error: 'delivery_in_progress' },
  headers: { 'retry-after': String(IN_PROGRESS_RETRY_AFTER_S) },
};
