/**
 * The pace against the testing kit's rate limiter, in a model of the job's loop on a virtual
 * clock: every request takes a fixed latency, the limiter admits or refuses it on arrival, and
 * the pace decides what may start. No wall time, so every figure is the same on any machine.
 *
 * With `jitter`, the model also does what a loaded machine does to a real run, from a seeded
 * generator (so still exactly repeatable): timers fire late, the service's event loop stalls and
 * then handles what queued up at the same instant, and answers are read late. A pace that only
 * works on a perfect clock fails here as it fails in the bench.
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

/** What a loaded machine does to the timing, all in milliseconds. */
export interface Jitter {
  seed: number;
  /** A timer fires up to this much after it is due (on top of the 1 ms granularity). */
  timerLate: number;
  /** The service's event loop stalls for up to `stall` once in `stallEvery` on average. */
  stallEvery: number;
  stall: number;
  /** An answer is read up to this much after it arrived. */
  readLate: number;
}

interface Answer {
  at: number;
  startedAt: number;
  admitted: boolean;
  retryAfterMs: number;
}

/** The model's clock step (ms): fine enough for a thousand requests a second. */
const STEP = 0.25;
const LATENCY = 3;

/** A small seeded generator (mulberry32): the same jitter on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The service: the kit's bucket, read at whole milliseconds (`Date.now()`), with stalls. */
class Service {
  #limiter: RateLimiter;
  #burst: number;
  #stallUntil = 0;
  #nextStall: number;
  readonly #jitter: Jitter | undefined;
  readonly #random: () => number;

  constructor(rate: number, burst: number, jitter: Jitter | undefined) {
    this.#burst = burst;
    this.#limiter = new RateLimiter({ requestsPerSecond: rate, burst }, 0);
    this.#jitter = jitter;
    this.#random = random((jitter?.seed ?? 0) + 1);
    this.#nextStall = jitter ? this.#random() * 2 * jitter.stallEvery : Number.POSITIVE_INFINITY;
  }

  change(rate: number, now: number): void {
    this.#limiter = new RateLimiter({ requestsPerSecond: rate, burst: this.#burst }, now);
  }

  /** When a request arriving at `arrival` is handled (after any stall it lands in). */
  handledAt(arrival: number): number {
    const jitter = this.#jitter;
    while (jitter && arrival >= this.#nextStall) {
      this.#stallUntil = this.#nextStall + this.#random() * jitter.stall;
      this.#nextStall += this.#random() * 2 * jitter.stallEvery;
    }
    return Math.max(arrival, this.#stallUntil);
  }

  admit(at: number) {
    return this.#limiter.admit(Math.floor(at));
  }
}

/** Runs `seconds × requestsPerSecond` items through the pace against the kit's limiter. */
export function runModel(
  requestsPerSecond: number,
  burst: number,
  seconds: number,
  changes: LimitChange[] = [],
  jitter?: Jitter,
): ModelRun {
  const rand = random(jitter?.seed ?? 0);
  const late = (max: number) => (jitter ? rand() * max : 0);
  const service = new Service(requestsPerSecond, burst, jitter);
  const pace = new Congestion(4, 1, 16);
  const count = Math.round(requestsPerSecond * seconds);
  const inFlight: Answer[] = [];
  const admitted: number[] = [];
  const refused: number[] = [];
  /** Refused items, each with the time before which it is not sent again. */
  const retries: number[] = [];
  let started = 0;
  let done = 0;
  let now = 0;
  let wakeAt = 0;
  const pending = [...changes];
  const tally = (values: number[], at: number) => {
    const second = Math.floor(at / 1000);
    values[second] = (values[second] ?? 0) + 1;
  };
  for (; done < count; now += STEP) {
    while (pending.length > 0 && pending[0]!.at <= now) {
      service.change(pending.shift()!.requestsPerSecond, now);
    }
    while (inFlight.length > 0 && inFlight[0]!.at <= now) {
      const answer = inFlight.shift()!;
      if (answer.admitted) {
        pace.success(answer.startedAt, now);
        done++;
      } else {
        const wait = pace.throttle(answer.startedAt, answer.retryAfterMs, now);
        retries.push(now + wait);
        retries.sort((a, b) => a - b);
      }
      // A finished request wakes a scheduler that waits for room (not one asleep on a timer).
      if (wakeAt === Number.POSITIVE_INFINITY) wakeAt = now;
    }
    if (now < wakeAt) continue;
    wakeAt = schedule();
  }

  /** The job's loop at `now`: starts what it may; returns when it runs next. */
  function schedule(): number {
    for (;;) {
      if (inFlight.length >= pace.limit) return Number.POSITIVE_INFINITY;
      const retryReady = retries.length > 0 && retries[0]! <= now;
      if (!retryReady && started >= count) {
        return retries.length > 0 ? Math.max(now + 1, retries[0]!) : Number.POSITIVE_INFINITY;
      }
      const wait = pace.reserve(now);
      if (wait > 0) return now + Math.max(1, wait) + late(jitter?.timerLate ?? 0);
      if (retryReady) retries.shift();
      else started++;
      const arrival = now + LATENCY / 2;
      const handled = service.handledAt(arrival);
      const admission = service.admit(handled);
      tally(admission.allowed ? admitted : refused, handled);
      const retryAfterMs = Number(admission.headers['retry-after'] ?? 0) * 1000;
      const at = handled + LATENCY / 2 + late(jitter?.readLate ?? 0);
      const answer = { at, startedAt: now, admitted: admission.allowed, retryAfterMs };
      const index = inFlight.findIndex((a) => a.at > at);
      inFlight.splice(index < 0 ? inFlight.length : index, 0, answer);
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
