/**
 * Statement exports: `POST /financial/account-statement/export-report` (§4.4; 409 with the running
 * export for the same parameters), the status lookup `GET …/export-report/{hash}` (assumed by
 * the SDK; the spec names it but shows no shape) and the download of a finished file, served by
 * the mock itself at `/downloads/exports/{hash}.{format}?signature=…` on the same host, outside
 * the API base and without credentials, like a pre-signed URL. A running export blocks a repeat
 * with the same parameters by the same seller only; the lookup's path and the failed status's
 * name follow the seed's `assumptions.exportStatus`.
 *
 * @module
 */

import { processingExport } from '../fixtures/financial';
import { envelope, errorMessage, unprocessable } from '../respond';
import type { Route } from '../router';
import { type KitShapes, patternOf } from '../shapes';
import { countOf, type ExportRecord, type MockState, randomId } from '../state';
import { laravelInput, validate } from '../validation/laravel';
import { exportRules } from '../validation/rules';

/** Scripts how an export ends and after how many status polls. */
export function planExport(
  state: MockState,
  exportHash: string,
  outcome: 'completed' | 'failed',
  polls = state.defaultExportPolls,
): void {
  countOf('exportOutcome: polls', polls);
  const record = state.exports.get(exportHash);
  if (!record) throw new Error(`No export ${exportHash} in the mock`);
  Object.assign(record, { outcome, polls });
}

function advance(state: MockState, record: ExportRecord, apiBase: string): void {
  if (record.export.status !== 'processing') return;
  record.seen += 1;
  if (record.seen <= record.polls) return;
  record.export.status =
    record.outcome === 'failed' ? state.shapes.exportStatus.failed : record.outcome;
  if (record.outcome === 'completed') {
    const origin = new URL(apiBase).origin;
    // The format is the caller's text (the spec lists no formats): encoded, it stays one segment.
    const file = encodeURIComponent(`${record.export.hash}.${record.format}`);
    record.export.url = `${origin}/downloads/exports/${file}?signature=${record.downloadToken}`;
  }
}

function csv(record: ExportRecord): string {
  const [start = '', end = ''] = record.betweenDates.split(',');
  return [
    'data;descricao;tipo;valor;saldo',
    `${start} 08:15:22;Venda prd_Xk29aLq0 - Matemática Financeira do Zero;credito;297,00;297,00`,
    `${start} 14:02:10;Taxa da plataforma;debito;-20,25;276,75`,
    `${end} 09:40:55;Antecipação ant_H000x9;credito;1.455,05;1.731,80`,
    '',
  ].join('\r\n');
}

/** Export routes (API base), the status lookup at the path `exportStatus` names. */
export function statementRoutes({ exportStatus }: KitShapes): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/financial/account-statement/export-report',
      auth: 'user',
      async handle({ body, state, accountCode }) {
        const input = laravelInput(body ?? {}, state.shapes.strings) as {
          format?: unknown;
          filter?: { betweenDates?: unknown };
        };
        const errors = await validate(input, exportRules(state.shapes.rules.exportRangeInOrder));
        if (errors) return unprocessable(errors);
        const format = String(input.format ?? 'csv');
        const betweenDates = String(input.filter?.betweenDates ?? '');
        const running = [...state.exports.values()].find(
          (e) =>
            e.seller === accountCode &&
            e.export.status === 'processing' &&
            e.format === format &&
            e.betweenDates === betweenDates,
        );
        if (running) {
          return envelope(
            running.export,
            'An export with the same parameters is already being processed.',
            409,
            {},
            'error',
          );
        }
        const record: ExportRecord = {
          export: processingExport(randomId('exp', 16)),
          seller: accountCode,
          format,
          betweenDates,
          outcome: 'completed',
          polls: state.defaultExportPolls,
          seen: 0,
          downloadToken: randomId('sig', 24),
        };
        state.exports.set(record.export.hash, record);
        return envelope(record.export, 'The export is being processed.');
      },
    },
    {
      method: 'GET',
      pattern: patternOf(exportStatus.path),
      auth: 'user',
      handle({ params, state, apiBase, accountCode }) {
        const record = state.exports.get(params.hash!);
        // Another seller's export is not found, as the service keeps each account's apart.
        if (!record || record.seller !== accountCode) return errorMessage(404, 'Export not found.');
        advance(state, record, apiBase);
        return envelope({ ...record.export }, 'Export status retrieved successfully.');
      },
    },
  ];
}

/** Content types of the formats the spec names (§4.4: "for example csv or pdf"). */
const FILE_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
};

/** The download of finished export files (site root, no credentials, signature in the query). */
export const downloadRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/downloads/exports/:file',
    auth: 'none',
    handle({ params, url, state }) {
      const file = params.file!;
      const dot = file.indexOf('.');
      const [hash, format] = dot < 0 ? [file, ''] : [file.slice(0, dot), file.slice(dot + 1)];
      const record = state.exports.get(hash);
      const finished = record?.export.status === 'completed' && record.format === format;
      if (!record || !finished) return errorMessage(404, 'File not found.');
      if (url.searchParams.get('signature') !== record.downloadToken)
        return errorMessage(403, 'Invalid signature.');
      const isCsv = format === 'csv';
      const body = isCsv ? csv(record) : '%PDF-1.4\n% mock statement\n%%EOF\n';
      const type = FILE_TYPES[format] ?? 'application/octet-stream';
      // Only safe characters in a header: the format is whatever text the caller sent.
      const name = `extrato-${hash}.${format.replace(/[^\w.-]/g, '_')}`;
      return new Response(body, {
        headers: { 'content-type': type, 'content-disposition': `attachment; filename="${name}"` },
      });
    },
  },
];
