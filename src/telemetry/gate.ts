/**
 * Whether the SDK records telemetry, decided per call at the cost of a property read: only when a
 * tracer or meter provider is registered with `@opentelemetry/api` (or passed in the options) is
 * the OpenTelemetry code (`otel.ts`) loaded, once, as its own chunk.
 *
 * The SDK never imports `@opentelemetry/api` itself: every copy of the API keeps its registered
 * providers in one versioned global slot, so the SDK reads them there. An app without the API,
 * a bundler that cannot resolve an optional peer, and a runtime that registers its own providers
 * (workerd) all work the same way, and there is no top-level `await`.
 */

import { VERSION } from '../version';
import type { Telemetry, TelemetryOptions } from './types';

/** The global slot every copy of `@opentelemetry/api` 1.x registers its providers in. */
const API_SLOT = Symbol.for('opentelemetry.js.api.1');

/** What that slot holds: the registered providers and context manager, by kind. */
export interface RegisteredApi {
  trace?: TelemetryOptions['tracerProvider'];
  metrics?: TelemetryOptions['meterProvider'];
  context?: unknown;
}

type Implementation = typeof import('./otel');

let implementation: Implementation | undefined;
let loading: Promise<Implementation | undefined> | undefined;

function load(): Promise<Implementation | undefined> {
  loading ??= import('./otel').then(
    (loaded) => {
      implementation = loaded;
      return loaded;
    },
    // The chunk cannot load (a bundle that dropped it): the SDK works on without telemetry.
    () => undefined,
  );
  return loading;
}

/** The providers registered with `@opentelemetry/api`, if any. */
export function registeredApi(): RegisteredApi | undefined {
  return (globalThis as { [API_SLOT]?: RegisteredApi })[API_SLOT];
}

/** A client's (or handler's, or job's) telemetry: `false` off, else its providers or the global ones. */
export class TelemetrySource {
  readonly #option: false | TelemetryOptions;
  #made: Telemetry | undefined;
  // The providers `#made` was made for: a provider registered or replaced later is picked up. Kept
  // as fields and compared one by one, so that a call with telemetry at hand allocates nothing here.
  #tracers: unknown;
  #meters: unknown;
  #contexts: unknown;

  constructor(option: false | TelemetryOptions | undefined) {
    const chosen = option ?? {};
    this.#option = chosen;
    // Start loading early, so that the first call rarely waits for it.
    const api = registeredApi();
    if (chosen && (chosen.tracerProvider ?? chosen.meterProvider ?? api?.trace ?? api?.metrics)) {
      void load();
    }
  }

  /**
   * The telemetry to record now, `undefined` when there is none (no provider, or off), or, only
   * while the OpenTelemetry code is loading, a promise of it.
   */
  current(): Telemetry | Promise<Telemetry | undefined> | undefined {
    const option = this.#option;
    if (option === false) return undefined;
    const api = registeredApi();
    const tracers = option.tracerProvider ?? api?.trace;
    const meters = option.meterProvider ?? api?.metrics;
    if (!tracers && !meters) return undefined;
    const contexts = api?.context;
    const made = this.#made;
    if (
      made &&
      tracers === this.#tracers &&
      meters === this.#meters &&
      contexts === this.#contexts
    ) {
      return made;
    }
    if (!implementation) {
      return load().then((loaded) => loaded && this.#make(loaded, tracers, meters, contexts));
    }
    return this.#make(implementation, tracers, meters, contexts);
  }

  #make(loaded: Implementation, tracers: unknown, meters: unknown, contexts: unknown): Telemetry {
    this.#made = loaded.createTelemetry([tracers, meters, contexts], this.#option || {}, VERSION);
    this.#tracers = tracers;
    this.#meters = meters;
    this.#contexts = contexts;
    return this.#made;
  }
}
