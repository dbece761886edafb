/**
 * The telemetry rows counted in instructions by callgrind, as `instructions.ts` counts the calls:
 * `products.retrieve` answered from memory, each variant of `telemetry.ts` in a fresh process,
 * twice (the same warm-up, then no more calls or a long block of them), the difference over the
 * block being one call's steady-state cost. The timed telemetry rows swing by tenths from round to
 * round even on a quiet machine, wider than the margins they are judged by; a count does not.
 */

import type { Variant } from './telemetry';

const { countedRows, instructionsPerCall } = (await import(
  new URL('./instructions.ts', import.meta.url).href
)) as typeof import('./instructions');

const WARM_UP = 800;
const CALLS = 2_000;
const COUNTED: readonly Variant[] = ['none', 'noProvider', 'batched', 'floorBatched'];

export interface TelemetryInstructionRow {
  concurrency: number;
  /** Instructions per call, by variant. */
  perCall: Partial<Record<Variant, number>>;
}

export type TelemetryInstructionResult = { rows: TelemetryInstructionRow[] } | { skipped: string };

/** Instructions per call of each counted variant, at c = 1 and c = 32. */
export function benchTelemetryInstructions(quick: boolean): Promise<TelemetryInstructionResult> {
  return countedRows(quick, async () => {
    const rows: TelemetryInstructionRow[] = [];
    for (const concurrency of [1, 32]) {
      const perCall: TelemetryInstructionRow['perCall'] = {};
      for (const variant of COUNTED) {
        perCall[variant] = await instructionsPerCall(
          (calls) => [
            'retrieve',
            `telemetry:${variant}`,
            String(concurrency),
            String(WARM_UP),
            String(calls),
            'memory',
          ],
          CALLS,
        );
        process.stderr.write('.');
      }
      rows.push({ concurrency, perCall });
    }
    return rows;
  });
}

const fmt = (value: number) => value.toFixed(3);

/** The section of RESULTS.md. */
export function telemetryInstructionsReport(
  result: TelemetryInstructionResult,
  verdict: (ok: boolean) => string,
): string[] {
  const lines = [
    '## Telemetry in instructions',
    '',
    'The telemetry rows above counted by valgrind callgrind instead of timed, as the calls are in ' +
      '"Calls in instructions": `products.retrieve` (~1.5 KB) answered from memory (the network ' +
      "left out, so the count is the libraries' own work), instructions per call in steady state " +
      `(each variant in its own process, twice, after ${WARM_UP} warm-up calls: once with no more, ` +
      `once with ${CALLS.toLocaleString('en-US')}; the difference over those calls), the ` +
      'OpenTelemetry context manager registered in every variant. "none" is the client with ' +
      '`telemetry: false`; the floor is the untraced call wrapped by hand in the same two spans, ' +
      "context and two duration records on the batch processor, so partner-sdk's own share is the " +
      "recorded row minus the floor. Answered from memory, a call is only the libraries' work: the " +
      "OpenTelemetry SDK's fixed cost per call weighs more here than beside a real network's. " +
      'V8 counts single-threaded, as for the calls, so its collector and compiler add no spread ' +
      "of their own; the batch processor's export runs on a timer, at a point the machine's speed " +
      'decides. The no-provider row, which records nothing, shows how far a count still moves: read ' +
      "partner-sdk's share beside it.",
    '',
  ];
  if ('skipped' in result) return [...lines, `Not counted: ${result.skipped}.`, ''];
  lines.push(
    '| c | none, instructions/call | no provider ÷ none | provider (batch) ÷ none | floor (batch) ÷ none | ' +
      "partner-sdk's share (provider − floor) | no provider ≤ 1.02 × | provider ≤ 1.15 × |",
    '|---:|---:|---:|---:|---:|---:|---|---|',
  );
  for (const { concurrency, perCall } of result.rows) {
    const none = perCall.none!;
    const over = (variant: Variant) => perCall[variant]! / none;
    lines.push(
      `| ${concurrency} | ${Math.round(none).toLocaleString('en-US')} | ${fmt(over('noProvider'))} | ` +
        `${fmt(over('batched'))} | ${fmt(over('floorBatched'))} | ` +
        `${fmt(over('batched') - over('floorBatched'))} | ${verdict(over('noProvider') <= 1.02)} | ` +
        `${verdict(over('batched') <= 1.15)} |`,
    );
  }
  return [...lines, ''];
}
