/**
 * The partner's tracer and meter, made unable to fail a call: a span processor, exporter, view or
 * instrument that throws is the partner's telemetry failing, never the payment or the read it
 * watches (stripe-node and openai-node hold their instrumentation to the same rule). What throws is
 * dropped: the span or data point goes missing, the call goes on.
 */

import type { Meter, Span, Tracer } from '@opentelemetry/api';

/**
 * The methods the SDK calls on a span or an instrument. A partner's hand-made span or instrument
 * may lack some: those do nothing. Only these, so that no other member (a `then`) appears.
 */
const CALLED = new Set<string | symbol>([
  'setAttribute',
  'setAttributes',
  'addEvent',
  'setStatus',
  'end',
  'add',
  'record',
]);

/** `target` with each of its methods answering `undefined` instead of throwing. */
function quiet<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key, object) as unknown;
      if (typeof value !== 'function') return CALLED.has(key) ? nothing : value;
      return (...args: unknown[]) => {
        try {
          return value.apply(object, args);
        } catch {
          return undefined;
        }
      };
    },
  });
}

function nothing(): void {}

/** What `make` makes, or `undefined` when it throws (a provider that cannot make a tracer). */
export function quietly<T>(make: () => T | undefined): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}

/** What `with` of `@opentelemetry/api`'s context manager is, structurally. */
interface ContextRunner<C> {
  with<T>(context: C, work: () => T): T;
}

/**
 * `work` run by `contexts.with` in `context`; run as it is when the manager throws before running
 * it (a zone-based one without zone.js), its answer kept when the manager throws after. Only an
 * error of `work` itself reaches the caller.
 */
export function withinQuietly<C, T>(contexts: ContextRunner<C>, context: C, work: () => T): T {
  let ran: { value: T } | undefined;
  let started = false;
  try {
    return contexts.with(context, () => {
      started = true;
      ran = { value: work() };
      return ran.value;
    });
  } catch (error) {
    if (ran) return ran.value;
    if (started) throw error;
    return work();
  }
}

/** An instrument that records nothing, for one the meter failed to make. */
const NOTHING = { add: nothing, record: nothing };

/** `tracer`, its `startSpan` answering `undefined` (no span) when it throws, its spans quiet. */
export function quietTracer(tracer: Tracer): Tracer {
  return new Proxy(tracer, {
    get(object, key) {
      if (key !== 'startSpan') return Reflect.get(object, key, object);
      return (...args: Parameters<Tracer['startSpan']>): Span | undefined => {
        try {
          return quiet(object.startSpan(...args));
        } catch {
          return undefined;
        }
      };
    },
  });
}

/** `meter`, each instrument it makes quiet, and one it fails to make a no-op. */
export function quietMeter(meter: Meter): Meter {
  return new Proxy(meter, {
    get(object, key) {
      const value = Reflect.get(object, key, object) as unknown;
      // A `create…` the meter lacks makes an instrument that records nothing, as one that throws.
      if (!String(key).startsWith('create')) return value;
      return (...args: unknown[]) => {
        try {
          return quiet((value as (...made: unknown[]) => object).apply(object, args));
        } catch {
          return NOTHING;
        }
      };
    },
  });
}
