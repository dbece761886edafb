/**
 * Stands in for `@opentelemetry/sdk-node` (not installed here: it brings exporters and gRPC) when
 * the tracing guide's snippets run. `start()` registers, as the real one does, a global tracer
 * provider and an async context manager: its spans go, in batches, to the `traceExporter` given
 * (the guide's OTLP one), else stay in memory instead of going to the OTLP endpoint the OTEL_*
 * variables name; a `metricReader` given reads a global meter provider.
 */

import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, type MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

/** The spans every started SDK given no exporter recorded. */
export const exporter = new InMemorySpanExporter();

/** What the guide gives the real `NodeSDK`. */
export interface NodeSDKConfiguration {
  traceExporter?: SpanExporter;
  metricReader?: MetricReader;
}

export class NodeSDK {
  readonly #tracers: BasicTracerProvider;
  readonly #meters: MeterProvider | undefined;

  constructor(configuration: NodeSDKConfiguration = {}) {
    const { traceExporter, metricReader } = configuration;
    // The real one batches what it sends to an exporter it is given, as here.
    const processor = traceExporter
      ? new BatchSpanProcessor(traceExporter)
      : new SimpleSpanProcessor(exporter);
    this.#tracers = new BasicTracerProvider({ spanProcessors: [processor] });
    this.#meters = metricReader && new MeterProvider({ readers: [metricReader] });
  }

  start(): void {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(this.#tracers);
    if (this.#meters) metrics.setGlobalMeterProvider(this.#meters);
  }

  async shutdown(): Promise<void> {
    await this.#tracers.shutdown();
    await this.#meters?.shutdown();
  }
}
