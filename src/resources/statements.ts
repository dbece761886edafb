import { hashPathOf } from '../assumption-readers';
import { ExportFailedError, RequestValidationError } from '../core/errors';
import type { RequestOptions } from '../core/options';
import { type PollOptions, poll, withCallSignal } from '../core/poll';
import type { APIPromise } from '../core/transport/api-promise';
import { isAlreadyRunning, runningOnConflict } from '../core/transport/outcomes';
import { route, shownPathParam } from '../core/transport/path';
import { envelopedOrBare } from '../schemas/response-fields';
import {
  isReversedRange,
  type StatementExport,
  type StatementExportParams,
  StatementExportParamsSchema,
  StatementExportSchema,
  toBetweenDates,
} from '../schemas/statement';
import { APIResource } from './resource';

/** A requested export (spec §2.10), and whether it was already running with the same parameters (HTTP 409, spec §4.4). */
export interface StatementExportRequestResult extends StatementExport {
  /** `true` when an export with the same parameters was already running (HTTP 409): this is that export. */
  alreadyRunning: boolean;
}

// The 409 carries "the existing export data" (spec §4.4): read from the envelope's `data`, or bare.
const exportAnswerSchema = envelopedOrBare(StatementExportSchema);

/**
 * Whether a 409's body is the running export: the envelope's `data`, or a bare export (its
 * `hash`). Any other body (an error message) is the plain conflict it says.
 */
function carriesExport(body: unknown): boolean {
  return typeof body === 'object' && body !== null && ('data' in body || 'hash' in body);
}

/** Finished when `url` is set; a `failed` status (the client's assumption) throws {@link ExportFailedError}. */
function isFinished(current: StatementExport, failed: readonly string[]): boolean {
  if (current.url) return true;
  if (typeof current.status === 'string' && failed.includes(current.status)) {
    throw new ExportFailedError({ ...current });
  }
  return false;
}

const REVERSED_RANGE =
  'statements.export: filter.betweenDates ends before it starts; the spec reads it as (start, end) and does not say what the service does with the other order. Sent as given.';

const MIDNIGHT_UTC =
  "statements.export: filter.betweenDates has a Date at midnight UTC, as new Date('2025-02-01') makes (or new Date(2025, 1, 1) on a server in UTC); a Date names the day it falls on in São Paulo, here the day before, and that day is sent. To name a day itself, give it as 'YYYY-MM-DD'.";

/**
 * Whether an end of the range is a `Date` at midnight UTC: most often a day written as a `Date`,
 * which names the day before in São Paulo, the day the service reads.
 */
function hasMidnightUtc(range: unknown): boolean {
  if (typeof range !== 'object' || range === null) return false;
  return [Reflect.get(range, 'start'), Reflect.get(range, 'end')].some(
    (end) => end instanceof Date && end.getTime() % 86_400_000 === 0,
  );
}

/** A range that ends before it starts, or a day given as a Date at midnight UTC: allowed, but likely a mistake. */
function suspicions(params: StatementExportParams): string[] {
  const range = params.filter?.betweenDates;
  return [
    ...(isReversedRange(range) ? [REVERSED_RANGE] : []),
    ...(hasMidnightUtc(range) ? [MIDNIGHT_UTC] : []),
  ];
}

/** The checked parameters as the service reads them: `betweenDates` as its wire string. */
function toWire(params: StatementExportParams): unknown {
  const betweenDates = params.filter?.betweenDates;
  // A blank string (trimmed to '') is no filter to the service (read as null): sent as it is.
  if (!betweenDates) return params;
  return { ...params, filter: { ...params.filter, betweenDates: toBetweenDates(betweenDates) } };
}

/** Exports of the financial account statement (spec §4.4). */
export class Statements extends APIResource {
  /**
   * Requests an asynchronous export of the account statement:
   * `POST /financial/account-statement/export-report`. The export starts `processing` with `url`
   * null. When one with the same parameters is already running the service answers 409: that is
   * no error here, the running export comes back with `alreadyRunning: true`.
   *
   * @param params `format` (e.g. `'csv'`, `'pdf'`) and `filter.betweenDates`, either the wire string
   *   `'DD/MM/YYYY,DD/MM/YYYY'` or `{ start, end }` with `Date`s or `'YYYY-MM-DD'` strings. A
   *   `Date` names the day it falls on in São Paulo, whatever the machine's zone (a `Date` at
   *   midnight UTC names the day before, with a warning); a `'YYYY-MM-DD'` string, that day.
   * @throws {RequestValidationError} an unreadable date range, or a day that does not exist (an end
   *   before the start is no error: the spec does not forbid it, so it is sent, with a warning).
   * @throws {ConflictError} a 409 whose body carries no export (an error message): its body kept.
   * @example
   * ```ts
   * const seller = client.forUser(publicToken);
   * const exported = await seller.statements.export({
   *   format: 'csv',
   *   filter: { betweenDates: { start: '2026-01-01', end: '2026-01-31' } },
   * });
   * const finished = await seller.statements.waitForExport(exported);
   * ```
   */
  export(
    params: StatementExportParams,
    options?: RequestOptions,
  ): APIPromise<StatementExportRequestResult> {
    return this._client
      .post(
        route`/financial/account-statement/export-report`,
        {
          operation: 'statements.export',
          params: {
            value: params,
            schema: StatementExportParamsSchema,
            sendAs: 'json',
            encode: toWire,
            suspicions,
          },
          schema: exportAnswerSchema,
          ...runningOnConflict(carriesExport),
          // A repeat of a running export answers 409 with it: harmless.
          replay: 'always',
        },
        options,
      )
      ._map((data, response) => ({ ...data, alreadyRunning: isAlreadyRunning(response) }));
  }

  /**
   * Reads an export's state: `GET /financial/account-statement/export-report/{exportHash}` (the
   * spec names this lookup without its shape; see the assumptions table). `url` is set once finished.
   *
   * @throws {NotFoundError} the seller has no export with that hash.
   * @example
   * ```ts
   * const current = await seller.statements.retrieve('exp_123');
   * if (current.url) console.log('ready at', current.url);
   * ```
   */
  retrieve(exportHash: string, options?: RequestOptions): APIPromise<StatementExport> {
    const path = hashPathOf(this._client.assumptions.exportStatus.path, '{exportHash}');
    return this._client.get(
      { path, pathParams: { exportHash } },
      { operation: 'statements.retrieve', schema: exportAnswerSchema, uncached: true },
      options,
    );
  }

  /**
   * Waits until an export is finished (its `url` is set) and resolves with it, polling
   * `statements.retrieve`. An export that already has its `url` resolves at once, with no request.
   * Pass the result of `statements.export` (also when it was `alreadyRunning`) or an export hash.
   *
   * @param exported An export hash, or an export (its `hash` is polled).
   * @param pollOptions `interval`, `maxInterval`, `timeout`, `signal`, `onStatus` (see {@link PollOptions}).
   * @param options Per-call options for each status request (`headers`, `timeout`, `maxRetries`…);
   *   their `signal` also ends the wait.
   * @throws {RequestValidationError} a poll option out of range (nothing sent).
   * @throws {ExportFailedError} the export reported a failure status (`failed` or `error`); carries the export.
   * @throws {PollTimeoutError} not finished within `timeout` (default 10 minutes).
   * @throws {APIUserAbortError} `signal` aborted.
   * @throws {NotFoundError} a poll found no export with that hash: a poll's error other than a
   *   transient one (retried as any read) ends the wait.
   * @example
   * ```ts
   * const exported = await seller.statements.export({
   *   format: 'csv',
   *   filter: { betweenDates: { start: '2026-01-01', end: '2026-01-31' } },
   * });
   * const finished = await seller.statements.waitForExport(exported, { timeout: 5 * 60_000 });
   * console.log('ready at', finished.url);
   * ```
   */
  async waitForExport(
    exported: string | StatementExport,
    pollOptions?: PollOptions<StatementExport>,
    options?: RequestOptions,
  ): Promise<StatementExport> {
    // Anything but an export goes on as given, to be refused by name as the path parameter.
    const exportHash =
      typeof exported === 'object' && exported !== null ? exported.hash : (exported as string);
    const { failed } = this._client.assumptions.exportStatus;
    const isDone = (current: StatementExport) => isFinished(current, failed);
    if (typeof exported === 'object' && exported !== null && isDone(exported)) return exported;
    return poll(
      {
        what: `statement export ${shownPathParam(exportHash)}`,
        fetch: (loop) => this.retrieve(exportHash, { ...options, ...loop }).withResponse(),
        status: (current) => current.status ?? undefined,
        isDone,
        trace: { operation: 'statements.waitForExport', telemetry: this._client.telemetry() },
      },
      withCallSignal(pollOptions, options),
    );
  }

  /**
   * Downloads a finished export: `GET` its `url`. Resolves with the `Response` as soon as the headers
   * arrive, its body unread, so it can be streamed to disk. SDK credentials are sent only when the
   * `url` is on `baseUrl`'s origin (export files are typically pre-signed URLs elsewhere); a
   * relative `url` is read against `baseUrl`, the service's own (`/storage/x.csv` on its origin,
   * `files/x.csv` under `baseUrl`'s path). Cancel
   * `response.body`, or abort the `signal` given in `options`, to stop a download midway: an abort
   * fails the body's stream with the signal's reason.
   *
   * @param finished An export whose `url` is set (from `statements.waitForExport`).
   * @param options `timeout` and retries apply until the headers arrive; `signal` until the body ends;
   *   `maxResponseBytes`, given here, bounds the file (the client's does not): past it the body fails
   *   with `ResponseTooLargeError` and the rest is not read, for a file read into memory.
   * @throws {RequestValidationError} the export has no `url` yet, or one that is not http(s)
   *   (nothing sent).
   * @throws {APIError} the file server answered an error status (e.g. `NotFoundError`, `PermissionDeniedError`).
   * @example
   * ```ts
   * import { createWriteStream } from 'node:fs';
   * import { Readable } from 'node:stream';
   * import { pipeline } from 'node:stream/promises';
   * import type { ReadableStream } from 'node:stream/web';
   *
   * const finished = await seller.statements.waitForExport(exported);
   * const response = await seller.statements.download(finished);
   * // Node's name for the body: with the DOM lib, `Response` is the DOM's, which fromWeb refuses.
   * await pipeline(Readable.fromWeb(response.body as ReadableStream), createWriteStream('statement.csv'));
   * ```
   */
  download(finished: Pick<StatementExport, 'url'>, options?: RequestOptions): APIPromise<Response> {
    return this._client
      .call(
        () => ({
          operation: 'statements.download',
          method: 'GET',
          path: downloadUrl(finished, this._client.baseUrl),
          raw: true,
        }),
        options,
      )
      ._map((_body, response) => response);
  }
}

/**
 * The export's `url`, checked before anything is sent: the file to download. An absolute URL is
 * taken as given (a pre-signed one must stay byte for byte); a relative one (`/storage/…`, as a
 * Laravel service gives a public file without its own host configured) is read against `baseUrl`,
 * as it would be against the status answer that carried it.
 */
function downloadUrl(finished: Pick<StatementExport, 'url'>, baseUrl: string): string {
  const url = finished?.url;
  if (typeof url === 'string' && /^https?:\/\//i.test(url)) return url;
  const relative = typeof url === 'string' && url !== '' && !/^[a-z][a-z\d+.-]*:/i.test(url);
  if (relative && URL.canParse(url, `${baseUrl}/`)) return new URL(url, `${baseUrl}/`).href;
  throw new RequestValidationError('statements.download', [
    {
      path: ['url'],
      message: !url
        ? 'the export has no url yet: wait for it with statements.waitForExport'
        : 'must be an http(s) URL, absolute or relative to baseUrl',
      code: 'invalid_url',
    },
  ]);
}
