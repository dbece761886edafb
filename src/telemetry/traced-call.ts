/**
 * One SDK call and its HTTP attempts as spans and metrics: the call's span with its page, retry
 * and decision events and its duration; under it, each attempt's client span (the stable HTTP
 * client conventions) with its status and duration, a resend counted on the next one.
 */

import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { AttemptSets, AttributeSets, OperationSets } from './attribute-sets';
import { errorType, statusOf } from './conventions';
import type { Instruments } from './instruments';
import { CLIENT, clean, failed, INTERNAL, inside, SpanEvents } from './span-context';
import type {
  AttemptScope,
  CallFacts,
  CallScope,
  CallSpanFacts,
  TelemetryAttributes,
} from './types';
import { fullUrl } from './url-full';

/** What a call's spans are recorded with: the telemetry made over the partner's providers. */
export interface Recorder {
  readonly instruments: Instruments | undefined;
  readonly recordIds: boolean;
  readonly sets: AttributeSets;
  /** The active context, or the empty one. */
  active(): Context;
  /** Runs `work` in `context`. */
  within<T>(context: Context, work: () => T): T;
  /** A span started under `parent`. */
  start(name: string, kind: number, attributes: Attributes, parent: Context): Span | undefined;
}

/** One call's span and duration, and the attempts made under it. */
export class TracedCall extends SpanEvents implements CallScope {
  readonly #telemetry: Recorder;
  readonly #context: Context;
  readonly #operation: OperationSets;
  readonly #started = performance.now();
  #attempts = 0;

  constructor(telemetry: Recorder, facts: CallSpanFacts) {
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
  readonly #telemetry: Recorder;
  readonly #sets: AttemptSets;
  readonly #span: Span | undefined;
  readonly #started = performance.now();

  constructor(telemetry: Recorder, sets: AttemptSets, span: Span | undefined) {
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
