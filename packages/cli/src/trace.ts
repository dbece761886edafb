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
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type { Io } from './context';
import { cutColumns } from './cut-text';
import { CLI_VERSION } from './version';

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

/**
 * Who the spans are from: `partner-sdk-cli` at its own version (released apart from the SDK, whose
 * tracer names the SDK's), unless the standard `OTEL_SERVICE_NAME` or `OTEL_RESOURCE_ATTRIBUTES`
 * say otherwise, as every OpenTelemetry SDK reads them.
 */
function resource() {
  const service = { 'service.name': 'partner-sdk-cli', 'service.version': CLI_VERSION };
  return defaultResource()
    .merge(resourceFromAttributes(service))
    .merge(detectResources({ detectors: [envDetector] }));
}

/** A failure to export in a few words: its code or class, never its message (it may quote the endpoint). */
function exportFailure(error: unknown): string {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' || typeof code === 'number') return String(code);
  }
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : 'unknown error';
}

/**
 * The spans go as OTLP/HTTP JSON, the one protocol every OTLP/HTTP receiver takes: a protocol
 * variable asking for another is said once on stderr, so an operator whose collector listens
 * for gRPC learns why no span arrives before reading the exporter's failure.
 */
function noteProtocol(io: Io): void {
  const name = io.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const asked = io.env[name];
  if (!asked || asked === 'http/json') return;
  io.stderr.write(
    `partner-sdk: --trace: ${name} is ${cutColumns(JSON.stringify(asked), 40)}; the spans go as OTLP over HTTP in JSON (http/json)\n`,
  );
}

/**
 * Registers a tracer provider for this command; the function returned flushes and removes it. A
 * collector that cannot be reached costs one line on stderr: the command's output and exit code
 * are the command's, whatever happens to its spans.
 */
export async function startTracing(io: Io): Promise<() => Promise<void>> {
  const otlp = io.env.OTEL_EXPORTER_OTLP_ENDPOINT || io.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (otlp) noteProtocol(io);
  const processor = otlp
    ? new BatchSpanProcessor(
        new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(),
      )
    : new SimpleSpanProcessor(stderrExporter(io));
  const provider = new BasicTracerProvider({ resource: resource(), spanProcessors: [processor] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  return async () => {
    try {
      await provider.shutdown();
    } catch (error) {
      io.stderr.write(
        `partner-sdk: --trace: could not send the spans to the OTLP endpoint (${exportFailure(error)})\n`,
      );
    } finally {
      trace.disable();
      context.disable();
    }
  };
}
