/**
 * Stands in for `@opentelemetry/sdk-node` (not installed here: it brings exporters and gRPC) when
 * the tracing guide's snippet runs: `new NodeSDK().start()` registers, as the real one does, a
 * global tracer provider and an async context manager, with spans kept in memory instead of sent
 * to the OTLP endpoint the OTEL_* variables name.
 */

import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** The spans every started SDK recorded. */
export const exporter = new InMemorySpanExporter();

export class NodeSDK {
  readonly #provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });

  start(): void {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(this.#provider);
  }

  async shutdown(): Promise<void> {
    await this.#provider.shutdown();
  }
}
