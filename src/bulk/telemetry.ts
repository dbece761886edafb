/**
 * A bulk job in telemetry: one span for the job, a span per item under it (the item's SDK calls
 * nest under that), each item's outcome on its span, and items counted by outcome.
 *
 * @module
 */

import { TelemetrySource } from '../telemetry/gate';
import type { SpanScope, Telemetry, TelemetryOptions } from '../telemetry/types';

/** The telemetry of one job; every method costs nothing when no provider is registered. */
export class JobTelemetry<W extends { key: string }> {
  readonly #source: TelemetrySource;
  #telemetry: Telemetry | undefined;
  /** The spans of the items in flight, by their work (an item's key is known only once admitted). */
  readonly #items = new Map<W, SpanScope>();

  constructor(option: false | TelemetryOptions | undefined) {
    this.#source = new TelemetrySource(option);
  }

  /** Runs the whole job inside its span. */
  async job<T>(run: () => Promise<T>): Promise<T> {
    const pending = this.#source.current();
    this.#telemetry = pending && (await pending);
    return this.#telemetry ? this.#telemetry.span('bulk.job', {}, run) : run();
  }

  /** Runs one item inside its own span, a child of the job's. */
  item(work: W, process: () => Promise<void>): Promise<void> {
    if (!this.#telemetry) return process();
    return this.#telemetry.span('bulk.item', {}, async (span) => {
      this.#items.set(work, span);
      try {
        await process();
      } finally {
        this.#items.delete(work);
      }
    });
  }

  /**
   * Records an item's outcome on its span (if it has one) and in the count by outcome; a failed
   * item's span is marked failed with its error's class, so that a search for failed spans finds it.
   */
  outcome(key: string, status: string, error?: unknown): void {
    const telemetry = this.#telemetry;
    if (!telemetry) return;
    const attributes = { 'partner_sdk.bulk.outcome': status };
    for (const [work, span] of this.#items) {
      if (work.key !== key) continue;
      span.set(attributes);
      if (status === 'failed') span.failed(error);
    }
    telemetry.count('bulk.items', attributes);
  }
}
