import { describe, expect, it } from 'vitest';
import { type PollClock, type PollTarget, poll } from '../../src/core/poll';
import {
  APIUserAbortError,
  PollTimeoutError,
  RateLimitError,
  RequestValidationError,
} from '../../src/index';
import { countingController } from '../helpers/counting-signal';
import { activeTimers } from '../helpers/leak-check';
import { nextTurn, waitFor } from '../helpers/waits';

/** A clock whose sleeps return at once and move time forward by exactly what was asked. */
function fakeClock(): PollClock & { sleeps: number[]; pollTimes: number[] } {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    pollTimes: [],
    now: () => now,
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
  };
}

/** A target answering the given statuses in turn (the last repeats), each with optional headers. */
function scripted(
  clock: { pollTimes: number[]; now(): number },
  steps: Array<string | { status: string; headers?: Record<string, string> }>,
): PollTarget<{ status: string }> & { polls: number } {
  const target = {
    polls: 0,
    what: 'test job',
    async fetch() {
      clock.pollTimes.push(clock.now());
      const step = steps[Math.min(target.polls, steps.length - 1)] ?? 'pending';
      target.polls += 1;
      const { status, headers } = typeof step === 'string' ? { status: step, headers: {} } : step;
      return { data: { status }, response: new Response(null, { headers }) };
    },
    status: (current: { status: string }) => current.status,
    isDone: (current: { status: string }) => current.status === 'done',
  };
  return target;
}

/** The error a poll's call rejects with after a 429 it would not wait for. */
function tooManyRequests(retryAfter: string | undefined): RateLimitError {
  const headers = new Headers(retryAfter === undefined ? {} : { 'retry-after': retryAfter });
  return new RateLimitError({ method: 'GET', path: '/jobs/1' }, 429, undefined, headers);
}

describe('poll', () => {
  it('polls at once, then waits longer each time (×1.5) until maxInterval', async () => {
    const clock = fakeClock();
    const target = scripted(clock, [...Array(7).fill('pending'), 'done']);
    await expect(poll(target, { interval: 1_000, maxInterval: 4_000 }, clock)).resolves.toEqual({
      status: 'done',
    });
    expect(clock.sleeps).toEqual([1_000, 1_500, 2_250, 3_375, 4_000, 4_000, 4_000]);
    expect(clock.pollTimes[0]).toBe(0);
    expect(target.polls).toBe(8);
  });

  it('uses 1 s growing to 10 s by default', async () => {
    const clock = fakeClock();
    const target = scripted(clock, [...Array(9).fill('pending'), 'done']);
    await poll(target, {}, clock);
    expect(clock.sleeps.slice(0, 3)).toEqual([1_000, 1_500, 2_250]);
    expect(clock.sleeps.at(-1)).toBe(10_000);
    expect(Math.max(...clock.sleeps)).toBe(10_000);
  });

  it('waits at least what a Retry-After on a poll asks for', async () => {
    const clock = fakeClock();
    const target = scripted(clock, [
      { status: 'pending', headers: { 'retry-after': '7' } },
      { status: 'pending', headers: { 'retry-after': '0' } },
      'done',
    ]);
    await poll(target, { interval: 1_000 }, clock);
    expect(clock.sleeps).toEqual([7_000, 1_500]);
  });

  it('waits out a 429 the transport gave up on, for as long as its Retry-After asks', async () => {
    const clock = fakeClock();
    const target = scripted(clock, ['pending', 'pending', 'done']);
    const answer = target.fetch;
    const seen: string[] = [];
    target.fetch = async () => {
      if (target.polls !== 1) return answer({});
      target.polls += 1;
      throw tooManyRequests('120');
    };
    const done = await poll(target, { interval: 1_000, onStatus: (s) => seen.push(s) }, clock);
    expect(done).toEqual({ status: 'done' });
    expect(clock.sleeps).toEqual([1_000, 120_000]);
    expect(seen).toEqual(['pending', 'done']);
  });

  it('ends with PollTimeoutError when a 429 asks for longer than the wait has left', async () => {
    const clock = fakeClock();
    const target = scripted(clock, ['pending']);
    const answer = target.fetch;
    target.fetch = async () =>
      target.polls === 0 ? answer({}) : Promise.reject(tooManyRequests('3600'));
    const error = await poll(target, { timeout: 60_000 }, clock).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ lastStatus: 'pending', waitedMs: 60_000 });
  });

  it('ends with the RateLimitError of a 429 that names no wait', async () => {
    const clock = fakeClock();
    const target = scripted(clock, ['pending']);
    target.fetch = async () => Promise.reject(tooManyRequests(undefined));
    await expect(poll(target, {}, clock)).rejects.toBeInstanceOf(RateLimitError);
  });

  it('calls onStatus once per change, the first status included', async () => {
    const clock = fakeClock();
    const target = scripted(clock, ['requested', 'requested', 'success', 'success', 'done']);
    const seen: Array<string | undefined> = [];
    await poll(target, { onStatus: (status) => seen.push(status) }, clock);
    expect(seen).toEqual(['requested', 'success', 'done']);
  });

  it('gives up after 600 000 ms (10 minutes) by default', async () => {
    const clock = fakeClock();
    const target = scripted(clock, ['processing']);
    const error = await poll(target, {}, clock).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ lastStatus: 'processing', waitedMs: 600_000 });
  });

  it('throws PollTimeoutError with the last status once the timeout is spent', async () => {
    const clock = fakeClock();
    const target = scripted(clock, ['requested', 'success']);
    const error = await poll(target, { interval: 1_000, timeout: 5_000 }, clock).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ lastStatus: 'success', waitedMs: 5_000 });
    // Polls at 0, 1 000, 2 500; the next would be at 4 750 + 3 375 > 5 000: sleeps to the deadline.
    expect(clock.pollTimes).toEqual([0, 1_000, 2_500, 4_750]);
    expect(clock.sleeps.at(-1)).toBe(250);
  });

  it('never sleeps past the deadline for a long Retry-After', async () => {
    const clock = fakeClock();
    const target = scripted(clock, [{ status: 'pending', headers: { 'retry-after': '3600' } }]);
    const error = await poll(target, { timeout: 2_000 }, clock).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PollTimeoutError', waitedMs: 2_000 });
    expect(clock.sleeps).toEqual([2_000]);
    expect(target.polls).toBe(1);
  });

  it('lets an error thrown by isDone end the wait', async () => {
    const clock = fakeClock();
    const target = scripted(clock, ['pending', 'broken']);
    target.isDone = (current) => {
      if (current.status === 'broken') throw new Error('it broke');
      return false;
    };
    await expect(poll(target, {}, clock)).rejects.toThrow('it broke');
  });

  it('refuses nonsense options before sending anything', async () => {
    const clock = fakeClock();
    const target = scripted(clock, ['done']);
    for (const options of [{ interval: 0 }, { timeout: -1 }, { maxInterval: Number.NaN }]) {
      await expect(poll(target, options, clock)).rejects.toBeInstanceOf(RequestValidationError);
    }
    expect(target.polls).toBe(0);
  });

  it('uses interval as the ceiling when it is above the default maxInterval', async () => {
    const clock = fakeClock();
    await poll(scripted(clock, ['pending', 'pending', 'done']), { interval: 20_000 }, clock);
    expect(clock.sleeps).toEqual([20_000, 20_000]);
  });

  it('rejects at once, without polling, on an already aborted signal', async () => {
    const clock = fakeClock();
    const target = scripted(clock, ['done']);
    const error = await poll(target, { signal: AbortSignal.abort('stop') }, clock).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toBe('stop');
    expect(target.polls).toBe(0);
  });

  it('ends a real sleep at once on abort, clearing its timer and listener', async () => {
    const before = activeTimers();
    const { controller, listeners } = countingController();
    const signal = controller.signal;

    const polls: number[] = [];
    const waiting = poll(
      {
        what: 'job',
        fetch: async () => {
          polls.push(Date.now());
          return { data: 'pending', response: new Response(null) };
        },
        status: (s) => s,
        isDone: () => false,
      },
      { interval: 60_000, signal },
    );
    // The sleep starts in the same run of microtasks as the poll's answer is read.
    await waitFor(() => polls.length === 1, 'the first poll');
    await nextTurn();
    expect(activeTimers()).toBeGreaterThan(before);
    const abortedAt = Date.now();
    controller.abort();
    const error = await waiting.catch((e: unknown) => e);
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(polls).toHaveLength(1);
    expect(listeners()).toBe(0);
    expect(activeTimers()).toBeLessThanOrEqual(before);
  });

  it('leaves no timer behind after a wait that succeeds or times out', async () => {
    const before = activeTimers();
    const pending = {
      what: 'job',
      fetch: async () => ({ data: 'pending', response: new Response(null) }),
      status: (s: string) => s,
      isDone: (s: string) => s === 'done',
    };
    await expect(poll(pending, { interval: 5, timeout: 30 })).rejects.toBeInstanceOf(
      PollTimeoutError,
    );
    let n = 0;
    await poll(
      {
        ...pending,
        fetch: async () => ({ data: ++n > 2 ? 'done' : 'pending', response: new Response(null) }),
      },
      { interval: 5 },
    );
    expect(activeTimers()).toBeLessThanOrEqual(before);
  });
});
