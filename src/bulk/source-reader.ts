/**
 * A job's items as its source gives them, read so that a stop is never held up by a source slow
 * to give its next item (a quiet pipe, a paginated read waiting on a slow service).
 */

/** Reads a job's source one item at a time, for as long as the job is not stopped. */
export class SourceReader<I> {
  readonly #source: AsyncIterator<I>;
  /** A pull the job stopped waiting for is still pending at the source. */
  #abandoned = false;

  constructor(source: AsyncIterator<I>) {
    this.#source = source;
  }

  /**
   * The source's next item; `undefined` when `stop` fires first. The item the source gives after
   * that, if any, is dropped: it was never started, so a resumed job still has it to do.
   * Rejects as the source does.
   */
  next(stop: AbortSignal): Promise<IteratorResult<I> | undefined> {
    const pending = this.#source.next();
    return new Promise((resolve, reject) => {
      const onStop = () => {
        this.#abandoned = true;
        resolve(undefined);
      };
      const settle = () => stop.removeEventListener('abort', onStop);
      stop.addEventListener('abort', onStop, { once: true });
      if (stop.aborted) onStop();
      // Settling after a stop changes nothing (the promise is resolved), and its error is handled.
      pending.then(
        (result) => {
          settle();
          resolve(result);
        },
        (error: unknown) => {
          settle();
          reject(error);
        },
      );
    });
  }

  /**
   * Tells a source that was not read to its end to finish (`return()`: an async generator runs
   * its `finally`, a file stream closes), waiting for it unless a pull is still pending there: an
   * async generator answers `return()` only after that pull, which may never come.
   */
  async close(): Promise<void> {
    const ended = this.#source.return?.().catch(() => {});
    if (!this.#abandoned) await ended;
  }
}
