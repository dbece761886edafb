import { describe, expect, it } from 'vitest';
import { Congestion } from '../../src/bulk/congestion';
import { runModel } from './pace-model';

/** A minute of work at the service's rate: long enough for the two 429s that learn any limit. */
const SECONDS = 60;

describe('the pace against a token bucket (virtual clock)', () => {
  for (const rate of [20, 60, 200, 1000]) {
    for (const burst of [1, 10, rate]) {
      it(`finds and holds R = ${rate}/s with a burst of ${burst}: within 1.15 × ideal, under 3 % 429s`, () => {
        const run = runModel(rate, burst, SECONDS);
        expect(run.ratio).toBeLessThanOrEqual(1.15);
        expect(run.refusedShare).toBeLessThan(0.03);
      });
    }
  }

  it('follows a limit halved mid-job within seconds, and its restoration', () => {
    const rate = 200;
    const run = runModel(rate, 10, SECONDS, [
      { at: 20_000, requestsPerSecond: rate / 2 },
      { at: 40_000, requestsPerSecond: rate },
    ]);
    // Halved: within two seconds the job is back under the new limit, with a handful of 429s.
    const refusedWhileHalved = run.refused.slice(20, 40).reduce((a, b) => a + b, 0);
    expect(refusedWhileHalved).toBeLessThanOrEqual(6);
    for (const admitted of run.admitted.slice(22, 40)) expect(admitted).toBeGreaterThanOrEqual(85);
    // Restored: back above 90 % of the rate within 8 s.
    const restored = run.admitted.slice(40, 48).findIndex((n) => n >= rate * 0.9);
    expect(restored).toBeGreaterThanOrEqual(0);
  });

  it('is not fooled by a burst: a full second of burst does not pass for twice the rate', () => {
    const run = runModel(60, 60, SECONDS);
    // After the first seconds of learning, every second stays within the rate and the bucket.
    for (const admitted of run.admitted.slice(3, -1)) expect(admitted).toBeLessThanOrEqual(60 + 60);
    expect(run.refused.slice(3).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(6);
  });
});

/**
 * A loaded machine's clock: timers up to 0.5 ms late, the service stalling up to 3 ms about twice
 * a second (then handling what queued up at once), answers read up to 0.5 ms late. Seeded, so
 * exactly repeatable. A thousand a second with a burst of 1 is left out: one request per
 * millisecond of the service's clock, which timers of a millisecond's grain cannot keep.
 */
const JITTER = { seed: 3, timerLate: 0.5, stallEvery: 500, stall: 3, readLate: 0.5 };

describe('the pace on a jittery clock (late timers, a stalling service)', () => {
  for (const rate of [20, 60, 200, 1000]) {
    for (const burst of rate === 1000 ? [10, rate] : [1, 10, rate]) {
      it(`holds R = ${rate}/s with a burst of ${burst}: within 1.15 × ideal, under 3 % 429s`, () => {
        const run = runModel(rate, burst, SECONDS, [], JITTER);
        expect(run.ratio).toBeLessThanOrEqual(1.15);
        expect(run.refusedShare).toBeLessThan(0.03);
      });
    }
  }

  it('follows a limit halved mid-job and restored', () => {
    const run = runModel(
      200,
      10,
      SECONDS,
      [
        { at: 20_000, requestsPerSecond: 100 },
        { at: 40_000, requestsPerSecond: 200 },
      ],
      JITTER,
    );
    for (const admitted of run.admitted.slice(22, 40)) expect(admitted).toBeGreaterThanOrEqual(85);
    expect(run.admitted.slice(40, 48).some((n) => n >= 180)).toBe(true);
    expect(run.refusedShare).toBeLessThan(0.03);
  });
});

/**
 * A more loaded machine's clock, as the real-time bench meets it: timers up to 2 ms late, the
 * service stalling up to 10 ms about five times a second, answers read up to 2 ms late. With a
 * bucket of one, a stall that holds two requests is a 429 at any pace below R; the pace must not
 * take those for a lower limit. (These cells run slower than 1.15 × ideal here: a late timer
 * cannot catch up with a bucket of one, so the lateness itself is lost.)
 */
const LOADED = { seed: 3, timerLate: 2, stallEvery: 200, stall: 10, readLate: 2 };

describe('the pace with a bucket of one on a loaded clock', () => {
  for (const [rate, within] of [
    [20, 1.15],
    [60, 1.2],
    [200, 1.3],
  ] as const) {
    it(`holds R = ${rate}/s within ${within} × ideal, under 3 % 429s, without ratcheting down`, () => {
      const run = runModel(rate, 1, SECONDS, [], LOADED);
      expect(run.ratio).toBeLessThanOrEqual(within);
      expect(run.refusedShare).toBeLessThan(0.03);
    });
  }
});

/**
 * A service whose event loop stalls for up to 100 ms about once a second (a busy machine's
 * scheduler, a long collection), then handles what queued up at once: with a bucket of one, each
 * stall refuses all but one of the requests it held, whatever the pace. Those refusals say
 * nothing about the rate; read as a lower limit, they took the pace down to a fraction of R.
 * (A stall's refusals are more than 3 % of the requests here: only the time is held to a target.)
 */
const STALLING = { seed: 3, timerLate: 1, stallEvery: 1000, stall: 100, readLate: 1 };

describe('the pace with a bucket of one behind a stalling service', () => {
  for (const rate of [20, 60, 200]) {
    it(`holds R = ${rate}/s within 1.3 × ideal: a stall's refusals do not lower the pace`, () => {
      const run = runModel(rate, 1, SECONDS, [], STALLING);
      expect(run.ratio).toBeLessThanOrEqual(1.3);
      expect(run.refusedShare).toBeLessThan(0.06);
    });
  }
});

describe('Congestion', () => {
  it('halves the limit once per event, whatever the answers to requests sent before it', () => {
    const c = new Congestion(16, 1, 32);
    c.throttle(0, 1000, 10);
    expect(c.limit).toBe(8);
    c.throttle(5, 1000, 11); // sent before the decrease: same event
    expect(c.limit).toBe(8);
    c.throttle(2000, 1000, 2010);
    expect(c.limit).toBe(4);
    expect(c.throttled).toBe(3);
  });

  it('holds back the refused request for Retry-After, and the whole job only when refusals repeat', () => {
    const c = new Congestion(2, 2, 4);
    c.reserve(0);
    c.success(0, 50);
    // One refusal: the refused request waits what the service asked, the others keep to a pace.
    expect(c.throttle(60, 1500, 100)).toBe(1500);
    expect(c.limit).toBe(2);
    expect(c.pausedUntil).toBeLessThanOrEqual(100);
    // A request sent after it is refused too, nothing admitted between: everything waits.
    expect(c.throttle(150, 1500, 160)).toBe(1500);
    expect(c.reserve(200)).toBeCloseTo(1460);
  });

  it('grows the limit one step per 100 ms of success, within bounds', () => {
    const c = new Congestion(2, 2, 4);
    c.throttle(0, 1000, 100);
    expect(c.limit).toBe(2);
    c.success(1700, 1700);
    expect(c.limit).toBe(3);
    c.success(1750, 1750);
    expect(c.limit).toBe(3);
    for (let t = 1800; t < 3000; t += 100) c.success(t, t);
    expect(c.limit).toBe(4);
  });

  it('measures the burst at the first 429, and paces from the rate it implies', () => {
    const c = new Congestion(4, 1, 16);
    c.reserve(0);
    for (let i = 0; i < 50; i++) c.success(0, 10); // 50 admitted at once: a burst
    c.throttle(0, 1000, 10);
    expect(c.burst).toBeGreaterThan(49);
    // 50 over the 1.01 s until the refused request may go again is all it can be sure of.
    expect(c.rate).toBeGreaterThan(45);
    expect(c.rate).toBeLessThan(55);
    // The bucket is empty: the next request waits about an interval, not a whole second.
    expect(c.reserve(11)).toBeGreaterThan(0);
    expect(c.reserve(40)).toBe(0);
  });

  it('with a bucket of one, a lone refusal holds back only its item; refusals in a row lower the pace', () => {
    const c = new Congestion(4, 1, 16);
    c.reserve(0);
    c.success(0, 5);
    c.throttle(1, 1000, 10); // the first 429 after one admission: a bucket of one
    expect(c.burst).toBe(1);
    for (let t = 20; t <= 490; t += 10) c.success(t, t);
    c.reserve(495);
    const before = c.rate!;
    const limit = c.limit;
    // One refusal in 48 admissions: two requests bunched, not a limit. The search goes on.
    expect(c.throttle(495, 1000, 500)).toBe(1000);
    expect(c.limit).toBe(limit);
    expect(c.pausedUntil).toBeLessThanOrEqual(500);
    c.reserve(600);
    const climbing = c.rate!;
    expect(climbing).toBeGreaterThan(before * 1.5);
    // A second one with nothing admitted between: an event, the limit and the pace fall.
    c.throttle(600, 1000, 605);
    expect(c.limit).toBe(Math.floor(limit / 2));
    c.reserve(606);
    expect(c.rate!).toBeLessThan(climbing);
  });

  it('with a bucket of one, a refusal right behind a delayed admission is no event', () => {
    const c = new Congestion(4, 1, 16);
    c.reserve(0);
    c.success(0, 5);
    c.throttle(1, 1000, 10); // a bucket of one
    // Answers in 4 ms, one every 10 ms, then one held on the way for 60 ms.
    for (let t = 20; t <= 490; t += 10) c.success(t, t + 4);
    c.success(500, 560);
    const limit = c.limit;
    // Sent 10 and 20 ms after it, answered at once with it: the stall delivered them together.
    c.throttle(510, 1000, 561);
    c.throttle(520, 1000, 562);
    expect(c.limit).toBe(limit);
    // The same refusals with answers as quick as the others: the pace is too fast, an event.
    c.success(600, 604);
    c.throttle(610, 1000, 614);
    c.throttle(620, 1000, 624);
    expect(c.limit).toBe(Math.floor(limit / 2));
  });

  it('stops climbing at a bound when a search is never refused', () => {
    const c = new Congestion(4, 1, 16);
    c.reserve(0);
    c.success(0, 1);
    c.throttle(0, 1000, 2);
    // Ten minutes later the search would be at 2^6000 a second; the pace stays a finite rate.
    expect(c.reserve(600_000)).toBe(0);
    expect(Number.isFinite(c.rate)).toBe(true);
    expect(c.reserve(600_000)).toBeGreaterThanOrEqual(0);
  });

  it('backs off 1 s, 2 s, 4 s… on 503s without Retry-After', () => {
    const c = new Congestion(4, 1, 4);
    c.throttle(0, undefined, 0);
    expect(c.pausedUntil).toBeGreaterThanOrEqual(800);
    expect(c.pausedUntil).toBeLessThanOrEqual(1200);
    c.throttle(1300, undefined, 1300);
    expect(c.pausedUntil - 1300).toBeGreaterThanOrEqual(1600);
  });
});
