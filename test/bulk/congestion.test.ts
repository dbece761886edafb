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
    // Halved: a few 429s while the pace comes down, then about one a plateau.
    const refusedWhileHalved = run.refused.slice(23, 40).reduce((a, b) => a + b, 0);
    expect(refusedWhileHalved).toBeLessThanOrEqual(3);
    expect(Math.min(...run.admitted.slice(23, 29))).toBeGreaterThanOrEqual(rate * 0.4);
    // Restored: back above 90 % of the rate within 16 s.
    const restored = run.admitted.slice(40, 56).findIndex((n) => n >= rate * 0.9);
    expect(restored).toBeGreaterThanOrEqual(0);
  });

  it('is not fooled by a burst: a full second of burst does not pass for twice the rate', () => {
    const run = runModel(60, 60, SECONDS);
    // After the first seconds of learning, every second stays within the rate and the bucket.
    for (const admitted of run.admitted.slice(3, -1)) expect(admitted).toBeLessThanOrEqual(60 + 60);
    expect(run.refused.slice(3).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(6);
  });
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

  it('pauses for Retry-After, then grows one step per 100 ms of success, within bounds', () => {
    const c = new Congestion(2, 2, 4);
    c.throttle(0, 1500, 100);
    expect(c.limit).toBe(2);
    expect(c.reserve(200)).toBeCloseTo(1400);
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
    // 50 over the 1.01 s until the pause ends is all it can be sure of.
    expect(c.rate).toBeGreaterThan(45);
    expect(c.rate).toBeLessThan(55);
    expect(c.reserve(500)).toBeCloseTo(510);
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
