/**
 * The narrow interface between the SDK and its OpenTelemetry code: what the transport, polls,
 * walks, webhooks and bulk jobs tell it. The OpenTelemetry side (`otel.ts`) loads only when a
 * provider is there; without one the SDK holds nothing but `undefined` (`gate.ts`).
 */

/** Attribute values the SDK records: never a header value, a body, a token or an id. */
export type TelemetryAttributes = Record<string, string | number | boolean | undefined>;

/**
 * Anything with `getTracer`, as `@opentelemetry/api`'s `TracerProvider` (kept structural so that
 * the SDK's types need no `@opentelemetry/api` installed).
 *
 * @example
 * ```ts
 * import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
 * const tracerProvider: TracerProviderLike = new BasicTracerProvider();
 * ```
 */
export interface TracerProviderLike {
  /**
   * Returns a tracer, as `TracerProvider.getTracer`.
   *
   * @example
   * ```ts
   * const tracer = tracerProvider.getTracer('partner-sdk');
   * ```
   */
  getTracer(name: string, version?: string): unknown;
}

/**
 * Anything with `getMeter`, as `@opentelemetry/api`'s `MeterProvider`.
 *
 * @example
 * ```ts
 * import { MeterProvider } from '@opentelemetry/sdk-metrics';
 * const meterProvider: MeterProviderLike = new MeterProvider();
 * ```
 */
export interface MeterProviderLike {
  /**
   * Returns a meter, as `MeterProvider.getMeter`.
   *
   * @example
   * ```ts
   * const meter = meterProvider.getMeter('partner-sdk');
   * ```
   */
  getMeter(name: string, version?: string): unknown;
}

/**
 * Where the SDK's spans and metrics go (`ClientOptions.telemetry`, the webhook handler's and a
 * bulk job's `telemetry`). By default the providers registered globally with `@opentelemetry/api`;
 * `false` turns telemetry off.
 *
 * @example
 * ```ts
 * const client = new PartnerClient({ telemetry: { tracerProvider, meterProvider } });
 * const quiet = new PartnerClient({ telemetry: false });
 * ```
 */
export interface TelemetryOptions {
  /** Spans go here instead of the global tracer provider. */
  tracerProvider?: TracerProviderLike;
  /** Metrics go here instead of the global meter provider. */
  meterProvider?: MeterProviderLike;
  /**
   * `true` adds each HTTP attempt's URL (`url.full`: path and query, with transaction, product
   * and seller hashes; credentials in it scrubbed) to its span. Off by default: hashes identify
   * sales and sellers, and spans are often kept longer and seen by more people than the data they
   * describe.
   */
  recordIds?: boolean;
}

/** What the transport knows of a call when it starts (its span needs only the operation and the page). */
export interface CallFacts {
  /** The operation, e.g. `refunds.request`. */
  operation: string;
  method: string;
  /** The path template (`/financial/refund/{transactionHash}`), when the call has one. */
  template: string | undefined;
  /** The URL the call goes to, an attempt's with its query (host and port recorded; the rest only by opt-in). */
  url: string;
  /** The page a walk asks for, when the call fetches one. */
  page?: number | undefined;
}

/** What a call's own span records: a call refused before it was ready to send has no more. */
export type CallSpanFacts = Pick<CallFacts, 'operation' | 'page'>;

/** One attempt under way. */
export interface AttemptScope {
  /** The attempt ended with an answer (`status`) or a failure (`error`, with its status if any). */
  end(status: number | undefined, error?: unknown): void;
}

/** A span under way that the SDK may add events to. */
export interface SpanScope {
  /** Adds an event (a decision the SDK took) to this span. */
  event(name: string, attributes?: TelemetryAttributes): void;
  /** Sets attributes on this span (a verdict known only at its end). */
  set(attributes: TelemetryAttributes): void;
  /** Marks this span as failed, with `error`'s class as its `error.type` (never its message). */
  failed(error: unknown): void;
}

/** One SDK call under way: its span, the attempts under it, and the events of its decisions. */
export interface CallScope extends SpanScope {
  /** Runs `work` with this call's span active, so that the calls it makes (login, reconciliation) nest under it. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Starts the span of the next HTTP attempt. */
  attempt(facts: CallFacts): AttemptScope;
  /** Retry number `retry` is about to wait `waitMs` after `error`; `retryAfter`: that wait is the one a readable `Retry-After` asked for. */
  retry(error: unknown, retry: number, waitMs: number, retryAfter: boolean): void;
  /** Counts an SDK decision (re-login, reconciliation) with its event. */
  decision(event: 'relogin' | 'login' | 'reconciliation', attributes?: TelemetryAttributes): void;
  /** Ends the call, with the error that ended it if any. */
  end(error?: unknown): void;
}

/** The counters beside the spans. */
export type CounterName = 'webhook.deliveries' | 'bulk.items';

/** The SDK's telemetry when a provider is there. */
export interface Telemetry {
  /** Starts the span of one SDK call (a child of the active span). */
  call(facts: CallSpanFacts): CallScope;
  /** Runs `work` inside a new span `name` (a child of the active span), ending it when `work` settles. */
  span<T>(
    name: string,
    attributes: TelemetryAttributes,
    work: (span: SpanScope) => Promise<T>,
  ): Promise<T>;
  /** Adds one to a counter. */
  count(name: CounterName, attributes: TelemetryAttributes): void;
}
