/**
 * The queue between a job's workers and its `for await` reader, with back-pressure: when the
 * reader falls behind, the job starts nothing new until it catches up, so outcomes never pile up.
 *
 * @module
 */

/** A bounded queue of outcomes read by one async iterator. */
export class OutcomeStream<T> {
  readonly #highWater: number;
  readonly #buffer: T[] = [];
  #ended = false;
  #error: { error: unknown } | undefined;
  #closed = false;
  #reader: (() => void) | undefined;
  #writers: (() => void)[] = [];
  readonly #onClose: () => void;

  constructor(highWater: number, onClose: () => void) {
    this.#highWater = highWater;
    this.#onClose = onClose;
  }

  /** Whether the job should wait before starting more work. */
  get full(): boolean {
    return !this.#closed && this.#buffer.length >= this.#highWater;
  }

  /** Resolves once the reader has taken enough (or left). */
  drained(): Promise<void> {
    if (!this.full) return Promise.resolve();
    return new Promise((resolve) => this.#writers.push(resolve));
  }

  push(value: T): void {
    if (this.#closed) return;
    this.#buffer.push(value);
    this.#wakeReader();
  }

  end(error?: { error: unknown }): void {
    this.#ended = true;
    this.#error = error;
    this.#wakeReader();
  }

  #wakeReader(): void {
    const reader = this.#reader;
    this.#reader = undefined;
    reader?.();
  }

  #wakeWriters(): void {
    if (this.full) return;
    for (const writer of this.#writers.splice(0)) writer();
  }

  iterator(): AsyncIterator<T> {
    return {
      next: async (): Promise<IteratorResult<T>> => {
        for (;;) {
          if (this.#buffer.length > 0) {
            const value = this.#buffer.shift()!;
            this.#wakeWriters();
            return { value, done: false };
          }
          if (this.#ended) {
            if (this.#error) throw this.#error.error;
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => {
            this.#reader = resolve;
          });
        }
      },
      return: async (): Promise<IteratorResult<T>> => {
        // The reader left the loop: the job stops (nothing new starts) and nothing more is kept.
        if (!this.#closed) {
          this.#closed = true;
          this.#buffer.length = 0;
          for (const writer of this.#writers.splice(0)) writer();
          if (!this.#ended) this.#onClose();
        }
        return { value: undefined, done: true };
      },
    };
  }
}
