/**
 * The SDK's spans and metrics on OpenTelemetry, following the stable HTTP client conventions for
 * each attempt. Loaded by `gate.ts` only when a provider is there. It works on the providers and
 * context manager `@opentelemetry/api` registered (or were passed), through their public
 * interfaces, so it imports nothing of the API at run time.
 *
 * Nothing sensitive is recorded: names, methods, path templates, statuses, counts, durations and
 * error classes only; never a header value, a body, a message (it may quote a path), a token or an
 * id, unless `recordIds` asks for each attempt's URL (`url.full`, credentials scrubbed).
 *
 * This file makes the telemetry and its plain spans; a call and its attempts are
 * `traced-call.ts`, the instruments `instruments.ts`, contexts and span marks `span-context.ts`.
 * Every one of them is reached only from here, so all stay in the chunk loaded on demand.
 */

import type {
  Attributes,
  Context,
  ContextManager,
  MeterProvider,
  Span,
  Tracer,
  TracerProvider,
} from '@opentelemetry/api';
import { AttributeSets } from './attribute-sets';
import { type Instruments, instruments } from './instruments';
import { quietly, quietMeter, quietTracer, withinQuietly } from './quiet';
import { clean, failed, INTERNAL, inside, ROOT, SpanEvents } from './span-context';
import { type Recorder, TracedCall } from './traced-call';
import type {
  CallScope,
  CallSpanFacts,
  CounterName,
  SpanScope,
  Telemetry,
  TelemetryAttributes,
  TelemetryOptions,
} from './types';

/**
 * Makes the telemetry over `[tracerProvider, meterProvider, contextManager]` (any may be missing)
 * for the SDK at `version` (passed in: this chunk shares no code with the root one).
 */
export function createTelemetry(
  providers: unknown[],
  options: TelemetryOptions,
  version: string,
): Telemetry {
  const [tracerProvider, meterProvider, contextManager] = providers as [
    TracerProvider | undefined,
    MeterProvider | undefined,
    ContextManager | undefined,
  ];
  // What a provider answers is wrapped within `quietly` too: an answer that is no object at all
  // cannot be wrapped, and means no tracer (or meter) rather than a failed call.
  const tracer = quietly(() => {
    const made = tracerProvider?.getTracer('partner-sdk', version);
    return made && quietTracer(made);
  });
  const meter = quietly(() => {
    const made = meterProvider?.getMeter('partner-sdk', version);
    return made && quietMeter(made);
  });
  return new OtelTelemetry(tracer, meter && instruments(meter), contextManager, options);
}

class OtelTelemetry implements Telemetry, Recorder {
  readonly tracer: Tracer | undefined;
  readonly instruments: Instruments | undefined;
  readonly contexts: ContextManager | undefined;
  readonly recordIds: boolean;
  readonly sets = new AttributeSets();

  constructor(
    tracer: Tracer | undefined,
    metrics: Instruments | undefined,
    contexts: ContextManager | undefined,
    options: TelemetryOptions,
  ) {
    this.tracer = tracer;
    this.instruments = metrics;
    this.contexts = contexts;
    this.recordIds = options.recordIds === true;
  }

  // A context manager that throws (a zone-based one without zone.js) is the partner's telemetry
  // failing: spans lose their parents, the call goes on.
  active(): Context {
    return quietly(() => this.contexts?.active()) ?? ROOT;
  }

  /** Runs `work` in `context` (as the active one, when a context manager can make it so). */
  within<T>(context: Context, work: () => T): T {
    return this.contexts ? withinQuietly(this.contexts, context, work) : work();
  }

  /** A span started under `parent` (an attempt's span is a leaf: no context is made for it). */
  start(name: string, kind: number, attributes: Attributes, parent: Context): Span | undefined {
    return this.tracer?.startSpan(name, { kind, attributes }, parent);
  }

  call(facts: CallSpanFacts): CallScope {
    return new TracedCall(this, facts);
  }

  async span<T>(
    name: string,
    attributes: TelemetryAttributes,
    work: (span: SpanScope) => Promise<T>,
  ): Promise<T> {
    const parent = this.active();
    const span = this.start(name, INTERNAL, clean(attributes), parent);
    const scope = new SpanEvents(span);
    try {
      return await this.within(inside(parent, span), () => work(scope));
    } catch (error) {
      failed(span, error, 'call');
      throw error;
    } finally {
      span?.end();
    }
  }

  count(name: CounterName, attributes: TelemetryAttributes): void {
    this.instruments?.counters[name].add(1, clean(attributes));
  }
}
