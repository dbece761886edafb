/**
 * The transport's side of telemetry (`src/telemetry/`): a call recorded as a span with its
 * attempts under it, and what telemetry may know of it (never its path's values).
 */

import type {
  CallFacts,
  CallScope,
  SpanScope,
  Telemetry,
  TelemetryAttributes,
} from '../telemetry/types';
import type { CallSpecInput, ReadyCallSpec, Schema } from './transport/call-spec';
import type { Target } from './transport/request';

/** Telemetry as a source gives it: `undefined` when none records, a promise while its code loads. */
export type PendingTelemetry = Telemetry | Promise<Telemetry | undefined> | undefined;

/** Runs `work` inside a span `name` when telemetry records, else as it is. */
export async function inSpan<T>(
  pending: PendingTelemetry,
  name: string,
  attributes: TelemetryAttributes,
  work: (span: SpanScope | undefined) => Promise<T>,
): Promise<T> {
  const telemetry = await pending;
  return telemetry ? telemetry.span(name, attributes, work) : work(undefined);
}

/** A call's telemetry: where it records, and, once the call's spec is known, its scope. */
export interface Tracing {
  telemetry: Telemetry;
  scope?: CallScope;
}

/**
 * Runs `send`, the call `input` describes, recorded by `pending` telemetry (a promise only while
 * its code loads): the call's span, which `send` starts once its spec is known, ends with the call.
 */
export function traced<T>(
  pending: Telemetry | Promise<Telemetry | undefined>,
  input: CallSpecInput<Schema | undefined>,
  send: (tracing?: Tracing) => Promise<T>,
): Promise<T> {
  // Once loaded, the telemetry is at hand: no turn of the event loop waits for it.
  if (!(pending instanceof Promise)) return tracedBy(pending, input, send);
  return pending.then((telemetry) => (telemetry ? tracedBy(telemetry, input, send) : send()));
}

async function tracedBy<T>(
  telemetry: Telemetry,
  input: CallSpecInput<Schema | undefined>,
  send: (tracing: Tracing) => Promise<T>,
): Promise<T> {
  const tracing: Tracing = { telemetry };
  try {
    const result = await send(tracing);
    tracing.scope?.end();
    return result;
  } catch (error) {
    // A call refused before it was ready to send (a bad parameter) has no span yet: it gets one,
    // ended as any failed call's, so that error rates count it.
    tracing.scope ??= telemetry.call({ operation: operationOf(input) });
    tracing.scope.end(error);
    throw error;
  }
}

/** What telemetry names a call: its method's name, or `request` (`client.request()`, a spec made when it runs). */
function operationOf(input: CallSpecInput<Schema | undefined> | ReadyCallSpec): string {
  return (typeof input === 'function' ? undefined : input.operation) ?? 'request';
}

/**
 * What telemetry records of a call or one of its hops; an attempt's `url` is the one it requests,
 * the call's query on it.
 */
export function callFacts(spec: ReadyCallSpec, target: Target, url = target.url): CallFacts {
  const page = spec.query?.page;
  return {
    operation: operationOf(spec),
    method: spec.method,
    template: spec.template,
    url,
    page: typeof page === 'number' ? page : undefined,
  };
}

/** A reconciliation, its verdict an event of the call (found, none, or unknown when it failed). */
export async function tracedReconciliation<T>(
  trace: CallScope | undefined,
  find: () => Promise<T | undefined>,
): Promise<T | undefined> {
  if (!trace) return find();
  const verdict = (value: string) => ({ 'partner_sdk.reconciliation.verdict': value });
  try {
    const found = await find();
    trace.decision('reconciliation', verdict(found ? 'found' : 'none'));
    return found;
  } catch (failure) {
    trace.decision('reconciliation', verdict('unknown'));
    throw failure;
  }
}
