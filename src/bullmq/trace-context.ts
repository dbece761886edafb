/**
 * Trace context from producer to worker: the producer writes the active span's context into the
 * job's data as W3C Trace Context (`traceparent`, `tracestate`), and the processor runs the job's
 * span under it, so that the producer's trace goes on in the worker. It goes through the
 * propagator registered with `@opentelemetry/api` when there is one, else the W3C format itself;
 * with no API registered it reads one global slot and does nothing. Only trace and span ids, the
 * sampling flag and the trace state travel: nothing of the job, the client or its tokens.
 *
 * @module
 */

import { registeredApi } from '../telemetry/gate';
import { quietly, withinQuietly } from '../telemetry/quiet';

/** The carried context, in the job's data. */
export interface JobTraceContext {
  /** W3C `traceparent`: version, trace id, parent span id, flags. */
  traceparent: string;
  /** W3C `tracestate`, when the trace has one. */
  tracestate?: string;
}

/** What is read of `@opentelemetry/api`'s registered objects (structural: it is not imported). */
interface ContextLike {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): ContextLike;
}
interface SpanContextLike {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
  traceState?: { serialize(): string };
}
interface Api {
  context?: { active(): ContextLike; with<T>(context: ContextLike, work: () => T): T };
  propagation?: {
    inject(context: ContextLike, carrier: object, setter: object): void;
    extract(context: ContextLike, carrier: object, getter: object): ContextLike;
  };
}

/** The key `@opentelemetry/api` keeps the active span under (shared by every copy of the API). */
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const INVALID_TRACE = /^0+$/;

const setter = {
  set: (carrier: Record<string, string>, key: string, value: string) => {
    carrier[key] = value;
  },
};
const getter = {
  get: (carrier: Record<string, string>, key: string) => carrier[key],
  keys: (carrier: Record<string, string>) => Object.keys(carrier),
};

const api = () => registeredApi() as Api | undefined;

/** The active span's context as W3C Trace Context, or `undefined` when there is none. */
export function activeTraceContext(): JobTraceContext | undefined {
  const registered = api();
  // A partner's context manager or propagator that throws costs the trace its link, never the
  // enqueue.
  const active = quietly(() => registered?.context?.active());
  if (!registered || !active) return undefined;
  const carrier: Record<string, string> = {};
  const { propagation } = registered;
  const injected = quietly(() => {
    if (propagation) propagation.inject(active, carrier, setter);
    else w3cInject(active, carrier);
    return true;
  });
  if (!injected || !carrier.traceparent) return undefined;
  return carrier.tracestate
    ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate }
    : { traceparent: carrier.traceparent };
}

function w3cInject(active: ContextLike, carrier: Record<string, string>): void {
  const span = active.getValue(SPAN_KEY) as { spanContext?: () => SpanContextLike } | undefined;
  const found = span?.spanContext?.();
  if (!found || INVALID_TRACE.test(found.traceId)) return;
  const flags = (found.traceFlags & 0xff).toString(16).padStart(2, '0');
  carrier.traceparent = `00-${found.traceId}-${found.spanId}-${flags}`;
  const state = found.traceState?.serialize();
  if (state) carrier.tracestate = state;
}

/** Runs `work` with the carried context active (as is when there is none, or it is malformed). */
export function withTraceContext<T>(carried: unknown, work: () => T): T {
  const registered = api();
  const contexts = registered?.context;
  const carrier = carrierOf(carried);
  if (!contexts || !carrier) return work();
  // A partner's context manager or propagator that throws runs the job outside the producer's
  // trace, never fails it.
  const active = quietly(() => contexts.active());
  const { propagation } = registered;
  const parent =
    active &&
    quietly(() =>
      propagation ? propagation.extract(active, carrier, getter) : w3cExtract(active, carrier),
    );
  return parent ? withinQuietly(contexts, parent, work) : work();
}

function carrierOf(carried: unknown): Record<string, string> | undefined {
  const value = carried as Partial<JobTraceContext> | undefined;
  if (typeof value?.traceparent !== 'string') return undefined;
  const carrier: Record<string, string> = { traceparent: value.traceparent };
  if (typeof value.tracestate === 'string') carrier.tracestate = value.tracestate;
  return carrier;
}

function w3cExtract(active: ContextLike, carrier: Record<string, string>): ContextLike | undefined {
  const match = TRACEPARENT.exec(carrier.traceparent ?? '');
  if (!match || INVALID_TRACE.test(match[1]!) || INVALID_TRACE.test(match[2]!)) return undefined;
  const remote: SpanContextLike = {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16),
    isRemote: true,
  };
  return active.setValue(SPAN_KEY, remoteSpan(remote));
}

/** A span that only carries a remote context, as the API's own non-recording span does. */
function remoteSpan(spanContext: SpanContextLike) {
  return {
    spanContext: () => spanContext,
    isRecording: () => false,
    setAttribute() {
      return this;
    },
    setAttributes() {
      return this;
    },
    addEvent() {
      return this;
    },
    addLink() {
      return this;
    },
    addLinks() {
      return this;
    },
    setStatus() {
      return this;
    },
    updateName() {
      return this;
    },
    end() {},
    recordException() {},
  };
}
