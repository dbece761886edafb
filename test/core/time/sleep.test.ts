import { describe, expect, it, vi } from 'vitest';
import { sleep } from '../../../src/core/time/sleep';
import { countingController } from '../../helpers/counting-signal';

// The one wait behind retries, polls and the testing kit's delays.

describe('sleep', () => {
  it('resolves after the given time', async () => {
    const started = Date.now();
    await sleep(60);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it("waits a delay past the timers' range (which Node would cut to 1 ms) to its end", async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      const waiting = sleep(3 * 2_147_483_647 + 5).then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(3 * 2_147_483_647);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(5);
      await waiting;
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("rejects with the signal's reason as soon as it aborts", async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const started = Date.now();
    const waiting = sleep(5_000, controller.signal).catch((error: unknown) => error);
    setTimeout(() => controller.abort(reason), 20);
    expect(await waiting).toBe(reason);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('rejects at once with a signal that is already aborted', async () => {
    const reason = new Error('already');
    await expect(sleep(5_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('leaves no listener on the signal once it resolved', async () => {
    const { controller, listeners } = countingController();
    await sleep(5, controller.signal);
    expect(listeners()).toBe(0);
  });
});
