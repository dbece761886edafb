/**
 * The telemetry rows (issue 25): the same call with no telemetry (`telemetry: false`), with
 * `@opentelemetry/api` loaded and a context manager registered but no provider (what a partner
 * without tracing pays), and with a tracer and meter provider over an in-memory exporter (what
 * recording costs). Ratios to no telemetry, round by round in one process. Targets: no provider
 * ≤ 1.02 ×, with a provider ≤ 1.15 ×.
 */

import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { PartnerClient } from 'partner-sdk';

type Call = () => PromiseLike<unknown>;
type Variant = 'none' | 'noProvider' | 'provider';

/** What the telemetry rows borrow from `run.ts`: its alternation of variants in rounds. */
export interface TelemetryBench {
  base: string;
  token: string;
  quick: boolean;
  alternate(
    variants: Record<Variant, Call>,
    n: number,
    concurrency: number,
    rounds: number,
  ): Promise<Record<Variant, { wall: number[]; cpu: number[] }>>;
}

export interface TelemetryRow {
  concurrency: number;
  noneUs: number;
  /** No provider over no telemetry, per round (wall, CPU). */
  noProvider: number[][];
  /** A provider and an in-memory exporter over no telemetry, per round (wall, CPU). */
  provider: number[][];
}

class Reader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** Times `products.retrieve` (~1.5 KB) in the three variants at c = 1 and c = 32. */
export async function benchTelemetry(bench: TelemetryBench): Promise<TelemetryRow[]> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const meterProvider = new MeterProvider({ readers: [new Reader()] });
  const options = { baseUrl: bench.base, clientToken: bench.token };
  const none = new PartnerClient({ ...options, telemetry: false });
  const noProvider = new PartnerClient(options);
  const provider = new PartnerClient({ ...options, telemetry: { tracerProvider, meterProvider } });
  const retrieve = (client: PartnerClient) => () => client.products.retrieve('prd_0000000x');
  const recorded = retrieve(provider);
  const variants: Record<Variant, Call> = {
    none: retrieve(none),
    noProvider: retrieve(noProvider),
    // The exporter keeps every span: emptied as it goes, as a real exporter sends them away.
    provider: async () => {
      const result = await recorded();
      if (exporter.getFinishedSpans().length >= 2_000) exporter.reset();
      return result;
    },
  };
  const rows: TelemetryRow[] = [];
  const rounds = bench.quick ? 3 : 31;
  for (const concurrency of [1, 32]) {
    const n = Math.round((bench.quick ? 150 : 1_000) * (concurrency > 1 ? 2 : 1));
    const t = await bench.alternate(variants, n, concurrency, rounds);
    const over = (variant: Variant) =>
      t.none.wall.map((base, round) => [
        t[variant].wall[round]! / base,
        t[variant].cpu[round]! / t.none.cpu[round]!,
      ]);
    rows.push({
      concurrency,
      noneUs: median(t.none.wall) * 1000,
      noProvider: over('noProvider'),
      provider: over('provider'),
    });
    process.stderr.write('.');
  }
  context.disable();
  return rows;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (value: number) => value.toFixed(3);

function cell(ratios: number[][], index: 0 | 1): string {
  const values = ratios.map((pair) => pair[index]!);
  return `${fmt(median(values))} (${fmt(Math.min(...values))}–${fmt(Math.max(...values))})`;
}

/** The section of RESULTS.md for these rows. */
export function telemetryReport(
  rows: TelemetryRow[],
  timingVerdict: (ok: boolean) => string,
): string[] {
  const lines = [
    '## Telemetry: per-call cost of OpenTelemetry',
    '',
    '`products.retrieve` (~1.5 KB) from the same loopback server: "none" is the client with ' +
      '`telemetry: false`; "no provider" has `@opentelemetry/api` loaded with a context manager ' +
      'registered but no tracer or meter provider (the default for a partner without tracing); ' +
      '"provider" records to a `BasicTracerProvider` with a `SimpleSpanProcessor` over an ' +
      '`InMemorySpanExporter` and a `MeterProvider` (a span per call and per attempt, the metrics). ' +
      'Ratios to "none", round by round in one process: median (min–max), wall-clock and CPU. ' +
      'Targets: no provider ≤ 1.02 ×, provider ≤ 1.15 ×.',
    '',
    '| c | none µs/call | no provider ÷ none | no provider, CPU | provider ÷ none | provider, CPU | ≤ 1.02 × / ≤ 1.15 × (wall) |',
    '|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const noProvider = median(row.noProvider.map((pair) => pair[0]!));
    const provider = median(row.provider.map((pair) => pair[0]!));
    lines.push(
      `| ${row.concurrency} | ${row.noneUs.toFixed(0)} | ${cell(row.noProvider, 0)} | ` +
        `${cell(row.noProvider, 1)} | ${cell(row.provider, 0)} | ${cell(row.provider, 1)} | ` +
        `${timingVerdict(noProvider <= 1.02)} / ${timingVerdict(provider <= 1.15)} |`,
    );
  }
  lines.push('');
  return lines;
}
