/**
 * What the transport tells the logger about a call: each request and answer body (`debug`), the
 * status (or failure) and time that ended each call (`info`), each retry (`warn`), what the read
 * before a refund's replay found (`warn` when the lost attempt had acted), once each suspicion
 * about a call's parameters (`warn`). Which levels are written is read once, when the client is
 * built.
 */

import { requestLine } from '../errors';
import type { FetchLike, ResolvedOptions } from '../options';
import { retryReason } from '../retry/policy';
import type { ReadyCallSpec } from '../transport/call-spec';
import { type Target, withoutQuery } from '../transport/request';
import type { SdkLogger } from './logger';

/** The log lines of a client's calls. */
export class CallLog {
  readonly #logger: SdkLogger;
  readonly #debug: boolean;
  readonly #info: boolean;
  /** The suspicions already said (`warnOnce`). */
  readonly #warned: Set<string>;

  constructor(logger: SdkLogger) {
    this.#logger = logger;
    this.#debug = logger.enabled('debug');
    this.#info = logger.enabled('info');
    this.#warned = new Set();
  }

  /**
   * What the spec does not forbid but is likely a mistake, in a call's parameters: said once per
   * client (seller clients over it included), however many calls carry it.
   */
  warnOnce(message: string): void {
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    this.#logger.warn(message);
  }

  /** The call about to be sent: its query and body (a form by its field names). */
  request(spec: ReadyCallSpec, target: Target): void {
    if (!this.#debug) return;
    const form = spec.form ? [...spec.form.keys()] : undefined;
    const body = spec.json ?? form;
    // Only what the call carries: a line followed by `{ query: undefined, body: undefined }` reads
    // as though something were missing.
    const carried = {
      ...(spec.query !== undefined && { query: spec.query }),
      ...(body !== undefined && { body }),
    };
    const line = requestLine(target.identity);
    if (Object.keys(carried).length === 0) this.#logger.debug(line);
    else this.#logger.debug(line, carried);
  }

  /**
   * The answer that ended the call, and how long the call took; `undefined` for a result found by
   * reconciliation, which no answer of the call carried (the status was the read's).
   */
  answer(target: Target, status: number | undefined, tookMs: number): void {
    if (!this.#info) return;
    const outcome = status ?? 'answer lost, result found';
    this.#logger.info(`${requestLine(target.identity)} → ${outcome} (${tookMs} ms)`);
  }

  /**
   * What the read before a replay found of an attempt whose answer was lost: that it had acted
   * (`warn`: the call's result is what it did, and nothing is sent again) or that it had not.
   */
  reconciled(target: Target, acted: boolean): void {
    const what = `${requestLine(target.identity)}: its answer was lost`;
    if (acted) {
      this.#logger.warn(`${what}, but it had acted (found by reading the service): not sent again`);
    } else {
      this.#logger.info(`${what}, and it had not acted (found by reading the service)`);
    }
  }

  /**
   * The failure that ended the call, and how long the call took: its status, or the error's class
   * when no answer came. Returns the failure, for the caller to throw.
   */
  failed<E>(target: Target, failure: E, tookMs: number): E {
    if (!this.#info) return failure;
    const status = (failure as { status?: unknown }).status;
    const outcome = typeof status === 'number' ? status : (failure as Error).name;
    this.#logger.info(`${requestLine(target.identity)} → ${outcome} (${tookMs} ms)`);
    return failure;
  }

  /** The answer's parsed body. */
  body(target: Target, status: number, body: unknown): void {
    if (!this.#debug) return;
    this.#logger.debug(`← ${status} ${requestLine(target.identity)}`, { body });
  }

  /**
   * A retry about to wait `wait` ms after `error`, naming the call as the info line does: its path
   * under `baseUrl`, or a URL outside it without its query (which may hold a signature).
   */
  retry(target: Target, error: unknown, retry: number, wait: number): void {
    const what = requestLine(target.identity);
    const waiting = Math.round(wait);
    this.#logger.warn(
      `retrying ${what} after ${retryReason(error)} (retry ${retry}, waiting ${waiting} ms)`,
    );
  }

  /** A client token refused and renewed: the call is replayed once with the new one. */
  replay(target: Target): void {
    this.#logger.info(
      `client token refused; replaying ${requestLine(target.identity)} with a new one`,
    );
  }
}

/** The client's fetch; with debug logging on, one line per attempt (ky calls fetch once per attempt). */
export function loggedFetch(options: ResolvedOptions): FetchLike {
  const { logger, baseUrl } = options;
  const fetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  if (!logger.enabled('debug')) return fetch;
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    // A URL outside baseUrl (a pre-signed file) is shown without its query: its signature.
    const url = request.url.startsWith(`${baseUrl}/`) ? request.url : withoutQuery(request.url);
    logger.debug(`→ ${requestLine({ method: request.method, path: url })}`, {
      headers: request.headers,
    });
    return fetch(input, init);
  };
}
