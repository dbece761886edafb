/**
 * One writer per Redis journal: a lease per job (`<prefix>journal-lease:{<job>}`, in the journal's
 * own hash slot) naming its owner, set only when free or already the owner's, renewed a few times
 * per lease by its owner, and checked by every put in the same script that writes the record. A
 * second runner is refused while the first renews; once the first dies, its lease runs out and
 * the next runner takes the job over.
 *
 * @module
 */

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { JournalLockedError } from '../bulk/journal';
import { type Commands, Script } from './client';

// Taken when free or already ours; otherwise the holder and the time its lease has left.
const CLAIM = new Script(`
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return {1}
end
return {0, holder, redis.call('PTTL', KEYS[1])}
`);

// Renewed while ours; taken back when it ran out and nobody else took it (this runner was only
// slow, never replaced). 0: another runner holds it now.
const RENEW = new Script(`
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`);

const RELEASE = new Script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

/** The JSON a lease holds. */
interface Holder {
  owner: string;
  pid: number;
  host: string;
  since: string;
}

/** The leases one journal store holds, with their renewal. @internal */
export class JournalLeases {
  readonly #commands: Commands;
  readonly #leaseKey: (job: string) => string;
  readonly #leaseMs: number;
  readonly #owner = randomUUID();
  readonly #held = new Map<string, { value: string; timer: ReturnType<typeof setInterval> }>();

  constructor(commands: Commands, leaseKey: (job: string) => string, leaseMs: number) {
    this.#commands = commands;
    this.#leaseKey = leaseKey;
    this.#leaseMs = leaseMs;
  }

  /** The lease value this store puts with `job`'s records ('' when it holds none). */
  valueOf(job: string): string {
    return this.#held.get(job)?.value ?? '';
  }

  /** Takes `job`'s lease, or rejects with {@link JournalLockedError} naming its holder. */
  async claim(job: string): Promise<void> {
    const value =
      this.valueOf(job) ||
      JSON.stringify({
        owner: this.#owner,
        pid: process.pid,
        host: hostname(),
        since: new Date().toISOString(),
      } satisfies Holder);
    const reply = await this.#commands.eval(
      CLAIM,
      [this.#leaseKey(job)],
      [value, String(this.#leaseMs)],
    );
    const [taken, holder, ttl] = reply as [unknown, unknown, unknown];
    if (Number(taken) !== 1) throw lockedBy(job, String(holder), Number(ttl));
    if (this.#held.has(job)) return;
    const timer = setInterval(() => void this.#renew(job, value), this.#leaseMs / 3);
    (timer as { unref?: () => void }).unref?.();
    this.#held.set(job, { value, timer });
  }

  async #renew(job: string, value: string): Promise<void> {
    try {
      const renewed = await this.#commands.eval(
        RENEW,
        [this.#leaseKey(job)],
        [value, String(this.#leaseMs)],
      );
      // Another runner took over: stop renewing; this store's next put is refused.
      if (Number(renewed) !== 1) this.#stop(job);
    } catch {
      // Redis away: the next put fails on its own and stops the job.
    }
  }

  #stop(job: string): void {
    clearInterval(this.#held.get(job)?.timer);
    this.#held.delete(job);
  }

  /** Gives `job`'s lease back, if this store holds it. */
  async release(job: string): Promise<void> {
    const value = this.valueOf(job);
    if (!value) return;
    this.#stop(job);
    await this.#commands.eval(RELEASE, [this.#leaseKey(job)], [value]);
  }

  /** Gives every lease back (the store closes). */
  async releaseAll(): Promise<void> {
    for (const job of [...this.#held.keys()]) await this.release(job).catch(() => {});
  }
}

/** The refusal of a put or a claim while `holder` (the lease's JSON) holds the job. */
export function lockedBy(job: string, holder: string, ttlMs: number): JournalLockedError {
  let parsed: Partial<Holder> = {};
  try {
    parsed = JSON.parse(holder) as Partial<Holder>;
  } catch {
    // a lease not written by this SDK: named without details
  }
  const expiresInMs = ttlMs > 0 ? ttlMs : undefined;
  const who =
    parsed.pid === undefined
      ? 'another runner'
      : `process ${parsed.pid} on ${parsed.host} since ${parsed.since}`;
  return new JournalLockedError(
    `the Redis journal of job "${job}" is in use by ${who}; one writer per journal: wait for that run to end (its lease runs out ${expiresInMs === undefined ? 'soon' : `within ${Math.ceil(expiresInMs / 1000)} s`} if it died)`,
    { pid: parsed.pid, host: parsed.host, since: parsed.since, expiresInMs },
  );
}
