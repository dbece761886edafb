import * as z from 'zod/mini';
import { EXPORT_STATUS } from '../assumptions';
import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/options';
import { encodePathParam } from '../core/path';
import { checkParams } from '../core/validate';
import {
  type ExportStatementParams,
  ExportStatementParamsSchema,
  type StatementExport,
  StatementExportResponseSchema,
  StatementExportSchema,
  toBetweenDates,
} from '../schemas/statement';
import { APIResource } from './resource';

/** A requested export, and whether it was already running with the same parameters (HTTP 409). */
export type StatementExportRequestResult = StatementExport & {
  /** `true` when an export with the same parameters was already running: this is that export. */
  alreadyRunning: boolean;
};

// The 409 carries "the existing export data" (spec §4.4): read from the envelope's `data`, or bare.
const ExportAnswerSchema = z.union([StatementExportResponseSchema, StatementExportSchema]);

function unwrap(body: z.infer<typeof ExportAnswerSchema>): StatementExport {
  return (
    'data' in body && body.data && typeof body.data === 'object' ? body.data : body
  ) as StatementExport;
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
   *   `'DD/MM/YYYY,DD/MM/YYYY'` or `{ start, end }` with `Date`s or `'YYYY-MM-DD'` strings.
   * @throws {RequestValidationError} an unreadable date range, or an end before the start.
   * @example
   * ```ts
   * const exported = await client.statements.export({
   *   format: 'csv',
   *   filter: { betweenDates: { start: '2026-01-01', end: '2026-01-31' } },
   * });
   * const finished = await client.statements.waitForExport(exported);
   * ```
   */
  export(
    params: ExportStatementParams,
    options?: RequestOptions,
  ): APIPromise<StatementExportRequestResult> {
    return this._client
      .call(() => {
        const body = checkParams(ExportStatementParamsSchema, params, 'statements.export');
        const betweenDates = body.filter?.betweenDates;
        return {
          method: 'POST',
          path: '/financial/account-statement/export-report',
          json:
            betweenDates === undefined
              ? body
              : { ...body, filter: { ...body.filter, betweenDates: toBetweenDates(betweenDates) } },
          schema: ExportAnswerSchema,
          acceptStatus: [409],
          // A repeat of a running export answers 409 with it: harmless.
          replay: 'always',
        };
      }, options)
      ._map((body, response) => ({ ...unwrap(body), alreadyRunning: response.status === 409 }));
  }

  /**
   * Reads an export's state: `GET /financial/account-statement/export-report/{exportHash}` (the
   * spec names this lookup without its shape; see the assumptions table). `url` is set once finished.
   *
   * @example
   * ```ts
   * const current = await client.statements.retrieve('exp_123');
   * if (current.url) console.log('ready at', current.url);
   * ```
   */
  retrieve(exportHash: string, options?: RequestOptions): APIPromise<StatementExport> {
    return this._client
      .call(
        () => ({
          method: 'GET',
          path: EXPORT_STATUS.path(encodePathParam('exportHash', exportHash)),
          schema: ExportAnswerSchema,
          replay: 'always',
        }),
        options,
      )
      ._map(unwrap);
  }
}
