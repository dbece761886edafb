/**
 * The fleet-wide pace on Redis: one request budget, one pause, for every process using the same
 * credentials. Each attempt takes a slot in one script run (`pace-scripts.ts`): one round trip,
 * and the reply says how long to wait, so a process never polls. A 429 runs one more script that
 * pauses the budget for `Retry-After` and lowers its rate. Redis away or slow: each process goes
 * on with the same rule on its own (`pace-rule.ts`), warns once, and tries Redis again once a
 * second.
 *
 * Key (under the prefix): `{pace:<hash>}`, the hash a SHA-256 of the base URL and the client id
 * (or the client token), so no secret is ever a key.
 *
 * @module
 */

import type { BoundPace, PaceClient, RequestPace } from '../core/pace/index';
import { sleep } from '../core/time/sleep';
import { type Commands, connect, type RedisClient, type RedisStoreOptions } from './client';
import { DECREASE, DEFAULT_PAUSE_MS, LocalBudget, type PaceRule } from './pace-rule';
import { REFUSE, TAKE } from './pace-scripts';

/** Options of {@link fleetPace}. */
export interface FleetPaceOptions extends RedisStoreOptions {
  /**
   * Requests per second the whole fleet starts at: the service's rate limit for these
   * credentials if you know it (the spec does not show one), else a guess; the budget then
   * adapts to the 429s.
   */
  requestsPerSecond: number;
  /** The most the budget grows to, in requests per second. Default: no bound. */
  maxRequestsPerSecond?: number | undefined;
  /** The least a run of 429s lowers it to. Default 1. */
  minRequestsPerSecond?: number | undefined;
  /**
   * How much the budget grows for every second without a 429 (requests per second, per second).
   * Default a fiftieth of `requestsPerSecond`.
   */
  increasePerSecond?: number | undefined;
}

/** How often a process paced on its own tries Redis again. */
export const RETRY_FLEET_MS = 1_000;

/** The window over which a process measures its own share of the fleet's rate. */
const SHARE_WINDOW_MS = 1_000;

/** How long an unused budget stays in Redis. */
const TTL_MS = 600_000;

/** The most the waits after a pause are spread over, so the fleet does not ask Redis at once. */
const JITTER_MS = 10;

/** The highest finite rate the script stores (Lua has no infinity to read back from a string). */
const NO_BOUND = 1e9;

function rate(name: string, value: number | undefined, fallback: number): number {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'number' || !(chosen > 0) || chosen > NO_BOUND) {
    throw new RangeError(
      `\`${name}\` must be a positive number of requests per second (got ${chosen}).`,
    );
  }
  return chosen;
}

function ruleOf(options: FleetPaceOptions): PaceRule {
  const startRate = rate('requestsPerSecond', options?.requestsPerSecond, Number.NaN);
  return {
    startRate,
    maxRate: rate('maxRequestsPerSecond', options.maxRequestsPerSecond, NO_BOUND),
    minRate: rate('minRequestsPerSecond', options.minRequestsPerSecond, 1),
    increasePerSecond: rate('increasePerSecond', options.increasePerSecond, startRate / 50),
  };
}

async function keyOf(prefix: string, key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return `${prefix}{pace:${hex.slice(0, 32)}}`;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One request budget on Redis for every process using the same credentials: pass it as the
 * client's `pace`. Each attempt waits for its slot in the budget (one Redis round trip, never a
 * polling loop); a 429 seen by any process pauses every process for its `Retry-After` and lowers
 * the budget, which grows again while the service admits (additive increase, multiplicative
 * decrease). Redis down or slow: each process paces itself by the same rule, warns once through
 * the client's logger, and rejoins the fleet's budget when Redis answers again.
 *
 * @param client - a connected `redis` (node-redis) or `ioredis` client.
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { PartnerClient } from 'partner-sdk';
 * import { fleetPace } from 'partner-sdk/redis';
 *
 * const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
 * const client = new PartnerClient({ pace: fleetPace(redis, { requestsPerSecond: 50 }) });
 * ```
 */
export function fleetPace(client: RedisClient, options: FleetPaceOptions): RequestPace {
  const rule = ruleOf(options);
  const { commands, prefix } = connect(client, options);
  // Clients of one budget in this process (withOptions copies, forUser) share one bound pace.
  const bound = new Map<string, FleetBudget>();
  return {
    forClient({ key, warn }: PaceClient): BoundPace {
      let budget = bound.get(key);
      if (!budget) {
        budget = new FleetBudget(commands, keyOf(prefix, key), rule, warn);
        bound.set(key, budget);
      }
      return budget;
    },
  };
}

/** One budget as this process sees it: the fleet's while Redis answers, its own while not. */
class FleetBudget implements BoundPace {
  readonly #commands: Commands;
  readonly #key: Promise<string>;
  readonly #rule: PaceRule;
  readonly #warn: (message: string) => void;
  readonly #local: LocalBudget;
  /** The end of the latest pause this process knows of (`Date.now()` ms). */
  #pausedUntil = 0;
  /** While Redis is away: when to try it again; 0 while it answers. */
  #retryAt = 0;
  #warned = false;
  /** This process's share of the fleet's slots: how many it took since `#countedFrom`. */
  #taken = 0;
  #countedFrom = Date.now();
  /** The rate this process drew from the fleet over the last whole window, once there is one. */
  #ownRate: number | undefined;

  constructor(commands: Commands, key: Promise<string>, rule: PaceRule, warn: (m: string) => void) {
    this.#commands = commands;
    this.#key = key;
    this.#rule = rule;
    this.#warn = warn;
    this.#local = new LocalBudget(rule, Date.now());
  }

  async acquire(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const wait = await this.#take();
      if (wait >= 1) await sleep(wait, signal);
      // A slot taken before this process heard of a pause falls inside it: wait the pause out
      // and take a slot after it (spread, so the fleet does not ask all at once).
      const paused = this.#pausedUntil - Date.now();
      if (paused <= 0) return;
      await sleep(paused + Math.random() * JITTER_MS, signal);
    }
  }

  refused(retryAfterMs: number | undefined): void {
    const pauseMs = retryAfterMs ?? DEFAULT_PAUSE_MS;
    const now = Date.now();
    this.#pausedUntil = Math.max(this.#pausedUntil, now + pauseMs);
    if (this.#retryAt !== 0) {
      this.#local.refused(now, pauseMs);
      return;
    }
    const { startRate, minRate } = this.#rule;
    const args = [startRate, minRate, DECREASE, pauseMs, TTL_MS].map(String);
    this.#key
      .then((key) => this.#commands.eval(REFUSE, [key], args))
      .then((reply) => this.#heard(Number((reply as string[])[0]), Date.now()))
      .catch((error: unknown) => {
        this.#lost(error, now);
        this.#local.refused(now, pauseMs);
      });
  }

  /** Milliseconds to wait for this attempt's slot, from the fleet's budget or this process's. */
  async #take(): Promise<number> {
    const now = Date.now();
    if (this.#retryAt > now) return this.#local.take(now);
    // Redis away: one call tries it again while the others keep the local pace.
    if (this.#retryAt !== 0) this.#retryAt = now + RETRY_FLEET_MS;
    const { startRate, maxRate, increasePerSecond } = this.#rule;
    try {
      const args = [startRate, maxRate, increasePerSecond, TTL_MS].map(String);
      const reply = (await this.#commands.eval(TAKE, [await this.#key], args)) as string[];
      const [wait, paused, rate] = reply.map(Number) as [number, number, number];
      this.#heard(paused, Date.now());
      this.#local.rate = rate;
      this.#count(now);
      return wait;
    } catch (error) {
      this.#lost(error, now);
      return this.#local.take(Date.now());
    }
  }

  /**
   * The fleet answered: its pause is this process's, and Redis is back if it was away. `pausedMs`
   * is what was left of the pause when Redis ran the command, so it counts from the answer's
   * arrival (a little late, never early): from the call's start it would end early by the time the
   * command took to reach Redis, and a slot taken before the pause would be sent inside it.
   */
  #heard(pausedMs: number, now: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, now + pausedMs);
    this.#retryAt = 0;
    this.#warned = false;
  }

  /** Counts a slot taken from the fleet, and every second turns the count into a rate. */
  #count(now: number): void {
    this.#taken++;
    const span = now - this.#countedFrom;
    if (span < SHARE_WINDOW_MS) return;
    this.#ownRate = (this.#taken * 1000) / span;
    this.#taken = 0;
    this.#countedFrom = now;
  }

  /**
   * Redis did not answer: pace on our own, from the share of the fleet's rate this process was
   * drawing (the whole rate would be the fleet's times the number of processes); warn once an
   * outage.
   */
  #lost(error: unknown, now: number): void {
    if (this.#retryAt === 0) {
      const fleet = this.#local.rate;
      const own = Math.min(fleet, Math.max(this.#rule.minRate, this.#ownRate ?? fleet));
      this.#local.adopt(own, this.#pausedUntil, now);
    }
    this.#retryAt = now + RETRY_FLEET_MS;
    if (this.#warned) return;
    this.#warned = true;
    this.#warn(
      `fleet pace unavailable (${messageOf(error)}); pacing this process on its own until Redis answers again`,
    );
  }
}
