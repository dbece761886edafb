/**
 * The mock's pace: an optional rate limit and an optional latency, so bulk jobs and adaptive
 * concurrency can be exercised and measured against it. The spec shows no rate limit
 * (§8: "Request rate limits: not shown"); when one is set, the mock answers as a Laravel
 * `throttle` middleware does: 429 `{"message":"Too Many Attempts."}` with `Retry-After` in whole
 * seconds and the `X-RateLimit-*` headers.
 *
 * @module
 */

/** A rate limit of the mock: a token bucket refilled at `requestsPerSecond`. */
export interface RateLimitOptions {
  /** Sustained rate the mock serves, in requests per second (> 0, fractions allowed). */
  requestsPerSecond: number;
  /**
   * Requests the bucket holds when full: how many may arrive at once after a quiet spell, at
   * least 1. Default `requestsPerSecond` rounded up (one second's worth), at least 1.
   */
  burst?: number;
}

/** A latency added before every answer of the mock. */
export interface LatencyOptions {
  /** Fixed delay in milliseconds before each answer. */
  ms: number;
  /** Up to this many milliseconds more, drawn uniformly per request. Default 0. */
  jitterMs?: number;
}

/** What the limiter decided for one request. */
export type Admission =
  | { allowed: true; headers: Record<string, string> }
  | { allowed: false; headers: Record<string, string> };

function checkPositive(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive finite number, got ${value}`);
  }
}

/** Normalises `rateLimit` as given to the seed or `setRateLimit` (a number is requests per second). */
export function rateLimitOf(
  input: RateLimitOptions | number | null | undefined,
): Required<RateLimitOptions> | undefined {
  if (input === undefined || input === null) return undefined;
  const options = typeof input === 'number' ? { requestsPerSecond: input } : input;
  checkPositive('rateLimit.requestsPerSecond', options.requestsPerSecond);
  const burst = options.burst ?? Math.max(1, Math.ceil(options.requestsPerSecond));
  checkPositive('rateLimit.burst', burst);
  // A request takes a whole token: a bucket holding less than one would refuse every request.
  if (burst < 1)
    throw new RangeError(`rateLimit.burst must be at least 1 (a request), got ${burst}`);
  return { requestsPerSecond: options.requestsPerSecond, burst };
}

/** Normalises `latencyMs` as given to the seed or `setLatency` (a number is the fixed delay). */
export function latencyOf(
  input: LatencyOptions | number | null | undefined,
): Required<LatencyOptions> | undefined {
  if (input === undefined || input === null) return undefined;
  const options = typeof input === 'number' ? { ms: input } : input;
  const jitterMs = options.jitterMs ?? 0;
  for (const [name, v] of [
    ['latency ms', options.ms],
    ['latency jitterMs', jitterMs],
  ] as const) {
    if (!Number.isFinite(v) || v < 0) throw new RangeError(`${name} must be ≥ 0, got ${v}`);
  }
  return { ms: options.ms, jitterMs };
}

/** The delay of one answer under `latency`, in milliseconds. */
export function delayOf(latency: Required<LatencyOptions> | undefined): number {
  if (!latency) return 0;
  return latency.ms + Math.random() * latency.jitterMs;
}

/**
 * A token bucket. `now` is read from `Date.now()` at each request, so tests can move it with fake
 * timers; a change of limit starts from a full bucket.
 */
export class RateLimiter {
  private readonly limit: Required<RateLimitOptions>;
  private tokens: number;
  private updatedAt: number;

  constructor(limit: Required<RateLimitOptions>, now = Date.now()) {
    this.limit = limit;
    this.tokens = limit.burst;
    this.updatedAt = now;
  }

  /** Takes a token for one request, or says when the next one will be there. */
  admit(now = Date.now()): Admission {
    const { requestsPerSecond, burst } = this.limit;
    const elapsed = Math.max(0, now - this.updatedAt) / 1000;
    this.tokens = Math.min(burst, this.tokens + elapsed * requestsPerSecond);
    this.updatedAt = now;
    const limitHeader = String(Math.ceil(burst));
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return {
        allowed: true,
        headers: {
          'x-ratelimit-limit': limitHeader,
          'x-ratelimit-remaining': String(Math.floor(this.tokens)),
        },
      };
    }
    // HTTP's delay-seconds is a whole number: round up, so a client that waits it is admitted.
    const waitSeconds = Math.max(1, Math.ceil((1 - this.tokens) / requestsPerSecond));
    return {
      allowed: false,
      headers: {
        'retry-after': String(waitSeconds),
        'x-ratelimit-limit': limitHeader,
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.ceil(now / 1000) + waitSeconds),
      },
    };
  }
}
