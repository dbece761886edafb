/**
 * Stands in for `@opentelemetry/exporter-metrics-otlp-http` (not installed here) when the tracing
 * guide's `otel.mjs` runs: an exporter that takes each batch of metrics and keeps nothing, so that
 * the guide's metric reader runs as written while the test reads the spans the real trace exporter
 * sends.
 */

import { AggregationTemporality, type PushMetricExporter } from '@opentelemetry/sdk-metrics';

export class OTLPMetricExporter implements PushMetricExporter {
  export(_metrics: unknown, done: (result: { code: number }) => void): void {
    done({ code: 0 });
  }

  selectAggregationTemporality(): AggregationTemporality {
    return AggregationTemporality.CUMULATIVE;
  }

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {}
}
