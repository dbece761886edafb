/**
 * Contexts and spans as `@opentelemetry/api` shapes them, without importing it at run time: the
 * key the active span is kept under, a context for when no context manager is registered, and
 * how a span is marked.
 */

import type { Attributes, Context, Span } from '@opentelemetry/api';
import { errorType } from './conventions';
import type { SpanScope, TelemetryAttributes } from './types';

/** The key `@opentelemetry/api` keeps the active span under in a context (shared by every copy). */
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

// The API's enums, as numbers: the API is not imported at run time.
/** `SpanKind.INTERNAL`. */
export const INTERNAL = 0;
/** `SpanKind.CLIENT`. */
export const CLIENT = 2;
/** `SpanStatusCode.ERROR`. */
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

/** The context spans start under when no context manager is registered. */
export const ROOT: Context = new EmptyContext();

/** `parent` with `span` active in it. */
export function inside(parent: Context, span: Span | undefined): Context {
  return span ? parent.setValue(SPAN_KEY, span) : parent;
}

/** Attributes without the `undefined` ones. */
export function clean(attributes: TelemetryAttributes): Attributes {
  const kept: Attributes = {};
  for (const key in attributes) if (attributes[key] !== undefined) kept[key] = attributes[key];
  return kept;
}

/** Marks `span` as failed with `error`'s type: never its message, which may quote a path. */
export function failed(span: Span | undefined, error: unknown, level: 'attempt' | 'call'): string {
  const type = errorType(error, level);
  span?.setAttribute('error.type', type);
  span?.setStatus({ code: ERROR });
  return type;
}

/** What a piece of code tells its span: events, attributes, its failure. */
export class SpanEvents implements SpanScope {
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
