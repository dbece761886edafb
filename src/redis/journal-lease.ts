/**
 * One writer per Redis journal: a lease per job (`<prefix>journal-lease:{<job>}`, in the journal's
 * own hash slot) naming its owner, set only when free or already the owner's, renewed a few times
 * per lease by its owner, and checked by every put in the same script that writes the record. A
 * second runner is refused while the first renews; once the first dies, its lease runs out and
 * the next runner takes the job over. The job's last claimer is kept beside the lease
 * (`<prefix>journal-owner:{<job>}`, as long as the journal): a runner whose lease ran out takes
 * it back only if nobody claimed the job meanwhile, so one that was paused while another took
 * over writes nothing more, even once that other is done and the lease is free again.
 *
 * @module
 */

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { JournalLockedError } from '../bulk/journal';
import { type Commands, RELEASE_LEASE, Script } from './client';

// Taken when free or already ours, and its claimer recorded; otherwise the holder and the time
// its lease has left.
const CLAIM = new Script(`
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
  return {1}
end
return {0, holder, redis.call('PTTL', KEYS[1])}
`);

// Renewed while ours; taken back when it ran out and nobody claimed the job since (this runner
// was only slow, never replaced). 0: another runner holds it now, or held it meanwhile.
const RENEW = new Script(`
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] or (holder == false and redis.call('GET', KEYS[2]) == ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
  return 1
end
return 0
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
  readonly #keys: (job: string) => [lease: string, owner: string];
  readonly #leaseMs: number;
  readonly #ownerMs: number;
  readonly #owner = randomUUID();
  readonly #held = new Map<string, { value: string; timer: ReturnType<typeof setInterval> }>();
  /** Leases another runner took over: their values stay, so this store's puts are refused. */
  readonly #lost = new Map<string, string>();

  /** `ownerMs`: how long the job's last claimer is remembered (the journal's own lifetime). */
  constructor(
    commands: Commands,
    keys: (job: string) => [lease: string, owner: string],
    leaseMs: number,
    ownerMs: number,
  ) {
    this.#commands = commands;
    this.#keys = keys;
    this.#leaseMs = leaseMs;
    this.#ownerMs = Math.max(ownerMs, leaseMs);
  }

  /** The lease keys of `job`: the lease, and its last claimer. */
  keysOf(job: string): [lease: string, owner: string] {
    return this.#keys(job);
  }

  /** The lease value this store puts with `job`'s records ('' when it never held one). */
  valueOf(job: string): string {
    return this.#held.get(job)?.value ?? this.#lost.get(job) ?? '';
  }

  /** How long the job's last claimer is remembered, in milliseconds. */
  get ownerMs(): number {
    return this.#ownerMs;
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
    const reply = await this.#commands.eval(CLAIM, this.#keys(job), [
      value,
      String(this.#leaseMs),
      String(this.#ownerMs),
    ]);
    const [taken, holder, ttl] = reply as [unknown, unknown, unknown];
    if (Number(taken) !== 1) throw lockedBy(job, String(holder), Number(ttl));
    this.#lost.delete(job);
    if (this.#held.has(job)) return;
    const timer = setInterval(() => void this.#renew(job, value), this.#leaseMs / 3);
    (timer as { unref?: () => void }).unref?.();
    this.#held.set(job, { value, timer });
  }

  async #renew(job: string, value: string): Promise<void> {
    try {
      const renewed = await this.#commands.eval(RENEW, this.#keys(job), [
        value,
        String(this.#leaseMs),
        String(this.#ownerMs),
      ]);
      // Another runner took over: stop renewing; this store's next put is refused.
      if (Number(renewed) !== 1) {
        this.#stop(job);
        this.#lost.set(job, value);
      }
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
    this.#lost.delete(job);
    const value = this.valueOf(job);
    if (!value) return;
    this.#stop(job);
    await this.#commands.eval(RELEASE_LEASE, [this.#keys(job)[0]], [value]);
  }

  /** Gives every lease back (the store closes). */
  async releaseAll(): Promise<void> {
    for (const job of [...this.#held.keys()]) await this.release(job).catch(() => {});
  }
}

/** The refusal of a put by a runner another one took the job over from while it was paused. */
export function takenOver(job: string, claimer: string): JournalLockedError {
  const { pid, host, since } = parsedHolder(claimer);
  const who = pid === undefined ? 'another runner' : `process ${pid} on ${host}`;
  return new JournalLockedError(
    `the Redis journal of job "${job}" was taken over by ${who} while this runner was paused past its lease; stopped so as not to write beside it: run the job again to resume it`,
    { pid, host, since },
  );
}

function parsedHolder(holder: string): Partial<Holder> {
  try {
    return JSON.parse(holder) as Partial<Holder>;
  } catch {
    // a lease not written by this SDK: named without details
    return {};
  }
}

/** The refusal of a put or a claim while `holder` (the lease's JSON) holds the job. */
export function lockedBy(job: string, holder: string, ttlMs: number): JournalLockedError {
  const parsed = parsedHolder(holder);
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
