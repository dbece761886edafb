/**
 * A bulk job stopped from the command line (Ctrl-C, SIGTERM, SIGHUP) the way an operator expects:
 * no new item starts, and the requests in flight get a bounded time to finish, so that they end
 * with the service's answer (journaled as done) rather than abandoned in doubt. Items still waiting
 * to be read, from a pipe that may stay silent for minutes, are not waited for at all.
 *
 * @module
 */

/**
 * How long the requests in flight may take to finish once a stop is asked for: `docker stop`'s
 * grace period, well inside a Kubernetes pod's 30 s. After it they are abandoned (`interrupted`,
 * reconciled on resume).
 */
export const STOP_GRACE_MS = 10_000;

const STOPPED = Symbol('stopped');

/** The items of one job, handed out until a stop is asked for; then the job's signal after a grace. */
export class GracefulStop {
  /** The job's signal: aborted once the grace is over (requests in flight are then abandoned). */
  readonly #abort = new AbortController();
  /** Aborted once a stop is asked for: no item is handed out after it. */
  readonly #asked = new AbortController();
  #timer: NodeJS.Timeout | undefined;

  /** The signal to give the job. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Whether a stop was asked for. */
  get requested(): boolean {
    return this.#asked.signal.aborted;
  }

  /** No new item from now on; the job is aborted after `graceMs` unless it ends before. */
  request(graceMs = STOP_GRACE_MS): void {
    if (this.requested) return;
    this.#asked.abort();
    this.#timer = setTimeout(() => this.#abort.abort(new Error('interrupted')), graceMs);
  }

  /** Clears the grace's timer once the job has ended. */
  dispose(): void {
    clearTimeout(this.#timer);
  }

  /**
   * `source`'s items until a stop is asked for; then the end, at once, even while a read is
   * pending (a pipe that sends nothing for minutes is not waited for).
   */
  items<T>(source: Iterable<T> | AsyncIterable<T>): AsyncIterable<T> {
    const asked = this.#asked.signal;
    const done: IteratorResult<T> = { done: true, value: undefined };
    return {
      [Symbol.asyncIterator]() {
        const iterator =
          Symbol.asyncIterator in source
            ? source[Symbol.asyncIterator]()
            : source[Symbol.iterator]();
        return {
          async next() {
            if (asked.aborted) return done;
            // A listener for this read only, removed after it: a job of a million items must
            // not leave a million of them on the signal.
            let onStop: () => void = () => {};
            const stopped = new Promise<typeof STOPPED>((resolve) => {
              onStop = () => resolve(STOPPED);
              asked.addEventListener('abort', onStop, { once: true });
            });
            try {
              const next = await Promise.race([iterator.next(), stopped]);
              return next === STOPPED ? done : next;
            } finally {
              asked.removeEventListener('abort', onStop);
            }
          },
          async return() {
            // A read may be pending (an async generator runs its `return` only after it): the
            // source is left to end with the command rather than waited for.
            void Promise.resolve(iterator.return?.()).catch(() => {});
            return done;
          },
        };
      },
    };
  }
}
