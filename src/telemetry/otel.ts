/**
 * The SDK's spans and metrics on OpenTelemetry, following the stable HTTP client conventions for
 * each attempt. Loaded by `gate.ts` only when a provider is there. It works on the providers and
 * context manager `@opentelemetry/api` registered (or were passed), through their public
 * interfaces, so it imports nothing of the API at run time.
 *
 * Nothing sensitive is recorded: names, methods, path templates, statuses, counts, durations and
 * error classes only; never a header value, a body, a message (it may quote a path), a token or an
 * id, unless `recordIds` asks for each attempt's URL (`url.full`, credentials scrubbed).
 */

import type {
  Attributes,
  Context,
  ContextManager,
  Counter,
  Histogram,
  Meter,
  MeterProvider,
  Span,
  Tracer,
  TracerProvider,
} from '@opentelemetry/api';
import { type AttemptSets, AttributeSets, type OperationSets } from './attribute-sets';
import { errorType, statusOf } from './conventions';
import { quietly, quietMeter, quietTracer } from './quiet';
import type {
  AttemptScope,
  CallFacts,
  CallScope,
  CounterName,
  SpanScope,
  Telemetry,
  TelemetryAttributes,
  TelemetryOptions,
} from './types';
import { fullUrl } from './url-full';

/** The key `@opentelemetry/api` keeps the active span under in a context (shared by every copy). */
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

// The API's enums, as numbers: the API is not imported at run time.
const INTERNAL = 0;
const CLIENT = 2;
const ERROR = 2;

/** A context with nothing in it, for when no context manager is registered. */
class EmptyContext implements Context {
  readonly #values: Map<symbol, unknown>;
  constructor(values = new Map<symbol, unknown>()) {
    this.#values = values;
  }
  getValue(key: symbol): unknown {
    return this.#values.get(key);
  }
  setValue(key: symbol, value: unknown): Context {
    return new EmptyContext(new Map(this.#values).set(key, value));
  }
  deleteValue(key: symbol): Context {
    const values = new Map(this.#values);
    values.delete(key);
    return new EmptyContext(values);
  }
}

const ROOT = new EmptyContext();

/** The instruments, made once per meter. */
interface Instruments {
  attempt: Histogram;
  call: Histogram;
  counters: Record<
    'retries' | 'relogins' | 'rateLimited' | 'reconciliations' | CounterName,
    Counter
  >;
}

function instruments(meter: Meter): Instruments {
  // An integer count's unit names what it counts, in the singular (the metrics guidelines).
  const counter = (name: string, unit: string, description: string) =>
    meter.createCounter(name, { description, unit });
  return {
    attempt: meter.createHistogram('http.client.request.duration', {
      description: 'Duration of HTTP client requests.',
      unit: 's',
      advice: {
        explicitBucketBoundaries: [
          0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
        ],
      },
    }),
    call: meter.createHistogram('partner_sdk.operation.duration', {
      description: 'Duration of SDK calls, retries, waits and re-logins included.',
      unit: 's',
    }),
    counters: {
      retries: counter('partner_sdk.retries', '{retry}', 'Attempts repeated after a failure.'),
      relogins: counter(
        'partner_sdk.relogins',
        '{login}',
        'Logins again after the service refused a client token.',
      ),
      rateLimited: counter(
        'partner_sdk.rate_limited',
        '{request}',
        'Attempts answered 429 Too Many Requests.',
      ),
      reconciliations: counter(
        'partner_sdk.reconciliations',
        '{reconciliation}',
        'Lost answers looked up before a replay, by verdict.',
      ),
      'webhook.deliveries': counter(
        'partner_sdk.webhook.deliveries',
        '{delivery}',
        'Webhook deliveries received, by verdict.',
      ),
      'bulk.items': counter(
        'partner_sdk.bulk.items',
        '{item}',
        'Bulk job items finished, by outcome.',
      ),
    },
  };
}

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
  const made = quietly(() => tracerProvider?.getTracer('partner-sdk', version));
  const tracer = made && quietTracer(made);
  const metered = quietly(() => meterProvider?.getMeter('partner-sdk', version));
  const meter = metered && quietMeter(metered);
  return new OtelTelemetry(tracer, meter && instruments(meter), contextManager, options);
}

class OtelTelemetry implements Telemetry {
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

  active(): Context {
    return this.contexts?.active() ?? ROOT;
  }

  /** Runs `work` in `context` (as the active one, when a context manager can make it so). */
  within<T>(context: Context, work: () => T): T {
    return this.contexts ? this.contexts.with(context, work) : work();
  }

  /** A span started under `parent` (an attempt's span is a leaf: no context is made for it). */
  start(name: string, kind: number, attributes: Attributes, parent: Context): Span | undefined {
    return this.tracer?.startSpan(name, { kind, attributes }, parent);
  }

  call(facts: CallFacts): CallScope {
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

/** `parent` with `span` active in it. */
function inside(parent: Context, span: Span | undefined): Context {
  return span ? parent.setValue(SPAN_KEY, span) : parent;
}

/** Attributes without the `undefined` ones. */
function clean(attributes: TelemetryAttributes): Attributes {
  const kept: Attributes = {};
  for (const key in attributes) if (attributes[key] !== undefined) kept[key] = attributes[key];
  return kept;
}

/** Marks `span` as failed with `error`'s type: never its message, which may quote a path. */
function failed(span: Span | undefined, error: unknown, level: 'attempt' | 'call'): string {
  const type = errorType(error, level);
  span?.setAttribute('error.type', type);
  span?.setStatus({ code: ERROR });
  return type;
}

class SpanEvents implements SpanScope {
  readonly span: Span | undefined;
  constructor(span: Span | undefined) {
    this.span = span;
  }
  event(name: string, attributes: TelemetryAttributes = {}): void {
    this.span?.addEvent(name, clean(attributes));
  }
  set(attributes: TelemetryAttributes): void {
    this.span?.setAttributes(clean(attributes));
  }
  failed(error: unknown): void {
    failed(this.span, error, 'call');
  }
}

class TracedCall extends SpanEvents implements CallScope {
  readonly #telemetry: OtelTelemetry;
  readonly #context: Context;
  readonly #operation: OperationSets;
  readonly #started = performance.now();
  #attempts = 0;

  constructor(telemetry: OtelTelemetry, facts: CallFacts) {
    const operation = telemetry.sets.operation(facts.operation);
    const parent = telemetry.active();
    const span = telemetry.start(facts.operation, INTERNAL, operation.span, parent);
    super(span);
    this.#telemetry = telemetry;
    this.#context = inside(parent, span);
    this.#operation = operation;
    if (facts.page !== undefined)
      this.event('partner_sdk.page', { 'partner_sdk.page.number': facts.page });
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.#telemetry.within(this.#context, work);
  }

  attempt(facts: CallFacts): AttemptScope {
    const telemetry = this.#telemetry;
    const sets = telemetry.sets.attempt(facts.method, facts.url, facts.template);
    const resends = this.#attempts++;
    let attributes = sets.span;
    if (resends > 0 || telemetry.recordIds) {
      attributes = { ...attributes };
      if (resends > 0) attributes['http.request.resend_count'] = resends;
      const full = telemetry.recordIds ? fullUrl(facts.url) : undefined;
      if (full !== undefined) attributes['url.full'] = full;
    }
    const span = telemetry.start(sets.name, CLIENT, attributes, this.#context);
    return new TracedAttempt(telemetry, sets, span);
  }

  retry(error: unknown, retry: number, waitMs: number, retryAfter: boolean): void {
    const type = errorType(error);
    this.event('partner_sdk.retry', {
      'partner_sdk.retry.number': retry,
      'partner_sdk.retry.wait_ms': Math.round(waitMs),
      'partner_sdk.retry.retry_after': retryAfter,
      'error.type': type,
    });
    const telemetry = this.#telemetry;
    telemetry.instruments?.counters.retries.add(1, telemetry.sets.retried(this.#operation, type));
  }

  decision(
    event: 'relogin' | 'login' | 'reconciliation',
    attributes: TelemetryAttributes = {},
  ): void {
    this.event(`partner_sdk.${event}`, attributes);
    const counters = this.#telemetry.instruments?.counters;
    const counted: TelemetryAttributes = { ...attributes };
    counted['partner_sdk.operation'] = this.#operation.span['partner_sdk.operation'] as string;
    if (event === 'relogin') counters?.relogins.add(1, clean(counted));
    if (event === 'reconciliation') counters?.reconciliations.add(1, clean(counted));
  }

  end(error?: unknown): void {
    const telemetry = this.#telemetry;
    const attributes =
      error === undefined
        ? this.#operation.success
        : telemetry.sets.failed(this.#operation, failed(this.span, error, 'call'));
    this.span?.end();
    telemetry.instruments?.call.record((performance.now() - this.#started) / 1000, attributes);
  }
}

/** One HTTP attempt's span and its duration, ended by its answer or its failure. */
class TracedAttempt implements AttemptScope {
  readonly #telemetry: OtelTelemetry;
  readonly #sets: AttemptSets;
  readonly #span: Span | undefined;
  readonly #started = performance.now();

  constructor(telemetry: OtelTelemetry, sets: AttemptSets, span: Span | undefined) {
    this.#telemetry = telemetry;
    this.#sets = sets;
    this.#span = span;
  }

  end(status: number | undefined, error?: unknown): void {
    const span = this.#span;
    const { instruments, sets } = this.#telemetry;
    status ??= statusOf(error);
    let attributes = this.#sets.span;
    if (status !== undefined) {
      span?.setAttribute('http.response.status_code', status);
      attributes = sets.answered(this.#sets, status);
    }
    if (error !== undefined || status! >= 400) {
      const type = failed(span, error ?? { status }, 'attempt');
      attributes = sets.failedAttempt(this.#sets, status, type);
    }
    if (status === 429) instruments?.counters.rateLimited.add(1, attributes);
    span?.end();
    instruments?.attempt.record((performance.now() - this.#started) / 1000, attributes);
  }
}
