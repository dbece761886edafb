/**
 * The pace against the testing kit's rate limiter, in a model of the job's loop on a virtual
 * millisecond clock: every request takes a fixed latency, the limiter admits or refuses it on
 * arrival, and the pace decides each millisecond what may start. No wall time, no randomness (the
 * kit's `Retry-After` is always given), so every figure is exact and the same on any machine.
 */

import { Congestion } from '../../src/bulk/congestion';
import { RateLimiter } from '../../src/testing/pace';

export interface ModelRun {
  /** Virtual seconds to finish, over the ideal `count / requestsPerSecond`. */
  ratio: number;
  /** Share of requests answered 429. */
  refusedShare: number;
  /** Admitted requests in each virtual second. */
  admitted: number[];
  /** 429 answers in each virtual second. */
  refused: number[];
}

/** A limit in force from `at` (virtual ms), as a fresh bucket (the kit's `setRateLimit`). */
export interface LimitChange {
  at: number;
  requestsPerSecond: number;
}

interface Answer {
  at: number;
  startedAt: number;
  admitted: boolean;
  retryAfterMs: number;
}

/** Runs `seconds × requestsPerSecond` items through the pace against the kit's limiter. */
export function runModel(
  requestsPerSecond: number,
  burst: number,
  seconds: number,
  changes: LimitChange[] = [],
): ModelRun {
  const latency = 3;
  let limiter = new RateLimiter({ requestsPerSecond, burst }, 0);
  const pace = new Congestion(4, 1, 16);
  const count = Math.round(requestsPerSecond * seconds);
  const inFlight: Answer[] = [];
  const admitted: number[] = [];
  const refused: number[] = [];
  let started = 0;
  let retries = 0;
  let done = 0;
  let now = 0;
  for (; done < count; now++) {
    for (const change of changes) {
      if (change.at === now) {
        limiter = new RateLimiter({ requestsPerSecond: change.requestsPerSecond, burst }, now);
      }
    }
    while (inFlight.length > 0 && inFlight[0]!.at <= now) {
      const answer = inFlight.shift()!;
      if (answer.admitted) {
        pace.success(answer.startedAt, now);
        done++;
      } else {
        pace.throttle(answer.startedAt, answer.retryAfterMs, now);
        retries++;
      }
    }
    while (inFlight.length < pace.limit && (started < count || retries > 0)) {
      if (pace.reserve(now) > 0) break;
      if (retries > 0) retries--;
      else started++;
      const arrival = now + latency;
      const admission = limiter.admit(arrival);
      const second = Math.floor(arrival / 1000);
      const tally = admission.allowed ? admitted : refused;
      tally[second] = (tally[second] ?? 0) + 1;
      const retryAfterMs = Number(admission.headers['retry-after'] ?? 0) * 1000;
      inFlight.push({ at: arrival, startedAt: now, admitted: admission.allowed, retryAfterMs });
    }
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + (b ?? 0), 0);
  const requests = sum(admitted) + sum(refused);
  return {
    ratio: now / 1000 / seconds,
    refusedShare: sum(refused) / requests,
    admitted: Array.from(admitted, (v) => v ?? 0),
    refused: Array.from(refused, (v) => v ?? 0),
  };
}
