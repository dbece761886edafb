/**
 * A job's `signal` stops it at once even while its source is slow to give the next item (a pipe
 * that is quiet, a paginated read waiting on a slow service): the job does not wait for that item,
 * starts nothing after the stop, and tells the source to finish (`return()`) without waiting for it.
 */

import { runBulk } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { withTimeout } from '../helpers/waits';

/** A source giving `ready` at once, then nothing until `release` is called; records `return()`. */
function quietSource(ready: string[]) {
  let release: () => void = () => {};
  const state = { returned: false, pulls: 0 };
  const iterable: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        state.pulls += 1;
        const value = ready.shift();
        if (value !== undefined) return { done: false, value };
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { done: false, value: 'late' };
      },
      return: async () => {
        state.returned = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return { iterable, state, release: () => release() };
}

describe('a job whose source is slow to give its next item', () => {
  it('stops on its signal without waiting for that item, and starts nothing after', async () => {
    const source = quietSource(['a', 'b']);
    const started: string[] = [];
    const controller = new AbortController();
    const job = runBulk(
      source.iterable,
      {
        key: (item) => item,
        run: async (item) => {
          started.push(item);
          return item;
        },
      },
      { concurrency: 2, signal: controller.signal },
    );
    const seen: string[] = [];
    const read = (async () => {
      for await (const outcome of job) {
        seen.push(outcome.key);
        // Stopped once the job is surely waiting on the quiet source for a third item.
        if (seen.length === 2) setTimeout(() => controller.abort(), 100);
      }
    })();
    await withTimeout(read, 5_000, 'the job to stop while its source is quiet');
    const summary = await job;
    expect(summary.aborted).toBe(true);
    expect(summary.succeeded).toBe(2);
    expect(source.state.returned).toBe(true);
    // The item the source gives after the stop is never started.
    source.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b']);
    expect(source.state.pulls).toBe(3);
  });

  it('stops on its signal before the source gave any item', async () => {
    const source = quietSource([]);
    const controller = new AbortController();
    const job = runBulk(
      source.iterable,
      { key: (item) => item, run: async (item) => item },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 100);
    const summary = await withTimeout(Promise.resolve(job), 5_000, 'the job to stop');
    expect(summary).toMatchObject({ aborted: true, total: 0 });
    expect(source.state.returned).toBe(true);
  });

  it('stops on its signal while an async generator waits inside, and runs its finally once it resumes', async () => {
    let resume: () => void = () => {};
    let finished = false;
    async function* quietGenerator() {
      try {
        yield 'a';
        await new Promise<void>((resolve) => {
          resume = resolve;
        });
        yield 'late';
      } finally {
        finished = true;
      }
    }
    const controller = new AbortController();
    const started: string[] = [];
    const job = runBulk(
      quietGenerator(),
      {
        key: (item) => item,
        run: async (item) => {
          started.push(item);
          return item;
        },
      },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 100);
    const summary = await withTimeout(Promise.resolve(job), 5_000, 'the job to stop');
    expect(summary).toMatchObject({ aborted: true, succeeded: 1 });
    // The generator's return() waits behind its pending pull: once that comes, it finishes.
    resume();
    await withTimeout(
      (async () => {
        while (!finished) await new Promise((resolve) => setImmediate(resolve));
      })(),
      5_000,
      "the generator's finally",
    );
    expect(started).toEqual(['a']);
  });
});
