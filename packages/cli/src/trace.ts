/**
 * `--trace`: the SDK's OpenTelemetry spans for this command, so an operator sees where a bulk job
 * spends its time. To OTLP when the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`)
 * is set, else one JSON line per span on stderr (stdout stays the command's output).
 *
 * @module
 */

import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type { Io } from './context';

/** A span as one JSON line: its trace, its parent, its name, how long it took and what it says. */
function line(span: ReadableSpan): string {
  const [seconds, nanos] = span.duration;
  return JSON.stringify({
    trace: span.spanContext().traceId,
    span: span.spanContext().spanId,
    parent: span.parentSpanContext?.spanId,
    name: span.name,
    ms: Math.round((seconds * 1e3 + nanos / 1e6) * 10) / 10,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, ...event.attributes })),
  });
}

/** Writes each span to stderr as it ends. */
function stderrExporter(io: Io): SpanExporter {
  return {
    export(spans, done) {
      for (const span of spans) io.stderr.write(`${line(span)}\n`);
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
}

/** Registers a tracer provider for this command; the function returned flushes and removes it. */
export async function startTracing(io: Io): Promise<() => Promise<void>> {
  const otlp = io.env.OTEL_EXPORTER_OTLP_ENDPOINT || io.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const processor = otlp
    ? new BatchSpanProcessor(
        new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(),
      )
    : new SimpleSpanProcessor(stderrExporter(io));
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  return async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
  };
}
