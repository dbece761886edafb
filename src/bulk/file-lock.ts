/**
 * The file journal's lock: one writer per journal file. Node has no `flock`, so the lock is a file
 * next to the journal (`<journal>.lock`) naming its holder (pid, host, boot, process start time),
 * created whole and atomically with `link()` (which fails when the name exists, on local disks and
 * NFS alike), and judged by its holder's liveness rather than by its age: a holder killed with
 * `kill -9` leaves the file, and the next opener sees that process is gone and takes over.
 *
 * Taking over is the delicate part: POSIX cannot remove a file only if it is still the stale one,
 * so two takers could each remove the other's fresh lock. A taker therefore first claims the stale
 * holder's token (`<lock>.claim-<token>`, created with `link()`: exactly one taker gets it), checks
 * the lock still names that token, and only then renames its own lock over it. A claimer killed
 * mid-way leaves a claim naming a dead process, which is taken over the same way, one level down.
 * Claims are named by the token they claim, whatever the level, so that takers killed one after
 * another deepen the chain without lengthening a file name; the chain has no depth limit (each
 * level is a taker that was killed), and the next holder clears away every dead taker's files.
 *
 * @module
 */

import { randomUUID } from 'node:crypto';
import { link, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { JournalLockedError } from './journal';

/** What a lock file (and a claim) holds. */
interface Holder {
  pid: number;
  host: string;
  since: string;
  token: string;
  /** The kernel's boot id (Linux): a holder from before a reboot is gone whatever its pid. */
  boot?: string;
  /** The holder's start time in clock ticks since boot (Linux): tells a reused pid apart. */
  start?: string;
}

/** Tokens of the locks (and takeovers) this process holds or is taking now. */
const ours = new Set<string>();

/** Attempts to take the lock before giving up on a journal that keeps changing hands. */
const ATTEMPTS = 40;

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Linux's boot id, or undefined elsewhere. */
async function bootId(): Promise<string | undefined> {
  return (await readText('/proc/sys/kernel/random/boot_id'))?.trim() || undefined;
}

/** A process's start time (field 22 of `/proc/<pid>/stat`), or undefined where there is no /proc. */
async function startTimeOf(pid: number): Promise<string | undefined> {
  const text = await readText(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const fields = text?.slice(text.lastIndexOf(')') + 2).split(' ');
  return fields?.[19];
}

/** The holder a lock or claim file names; `null` when it is gone, `undefined` when unreadable. */
async function holderOf(path: string): Promise<Holder | null | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const value = JSON.parse(text) as Holder;
    if (typeof value.pid === 'number' && typeof value.token === 'string') return value;
  } catch {
    // not a lock this SDK wrote
  }
  return undefined;
}

/** Whether the holder may still be running; a holder on another host always may. */
async function alive(holder: Holder, boot: string | undefined): Promise<boolean> {
  if (holder.host !== hostname()) return true;
  if (holder.boot !== undefined && boot !== undefined && holder.boot !== boot) return false;
  // This very process: alive only if the lock is one it took (not one of an earlier incarnation
  // with the same pid, e.g. a container's pid 1).
  if (holder.pid === process.pid) return ours.has(holder.token);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as { code?: string }).code === 'ESRCH') return false;
  }
  if (holder.start === undefined) return true;
  const start = await startTimeOf(holder.pid);
  return start === undefined || start === holder.start;
}

async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => {});
}

/** A held lock on a journal file. */
export class FileLock {
  readonly #path: string;
  readonly #journal: string;
  readonly #me: Holder;
  readonly #ino: number;

  private constructor(path: string, journal: string, me: Holder, ino: number) {
    this.#path = path;
    this.#journal = journal;
    this.#me = me;
    this.#ino = ino;
  }

  /**
   * Takes the lock of `journal`, or rejects with {@link JournalLockedError} naming its holder.
   */
  static async acquire(journal: string): Promise<FileLock> {
    const path = `${journal}.lock`;
    const boot = await bootId();
    const me: Holder = {
      pid: process.pid,
      host: hostname(),
      since: new Date().toISOString(),
      token: randomUUID(),
      boot,
      start: await startTimeOf(process.pid),
    };
    const mine = `${path}.${me.token}.tmp`;
    ours.add(me.token);
    try {
      await writeFile(mine, JSON.stringify(me), { flag: 'wx' });
      const ino = (await stat(mine)).ino;
      await take(path, journal, mine, boot);
      await sweep(path, me.token, boot);
      return new FileLock(path, journal, me, ino);
    } catch (error) {
      ours.delete(me.token);
      throw error;
    } finally {
      await removeQuietly(mine);
    }
  }

  /** Rejects with {@link JournalLockedError} when the lock file is no longer this lock. */
  async verify(): Promise<void> {
    const current = await stat(this.#path).catch(() => undefined);
    if (current?.ino !== this.#ino) {
      throw new JournalLockedError(
        `${this.#journal}: its lock file ${this.#path} was removed or replaced while this job ran; stopped so as not to write beside another run`,
      );
    }
  }

  /** Removes the lock file, if it is still this lock. */
  async release(): Promise<void> {
    try {
      await this.verify();
      await unlink(this.#path);
    } catch {
      // Already gone or taken: nothing of ours to remove.
    } finally {
      ours.delete(this.#me.token);
    }
  }
}

/** Links `mine` as the lock, taking over a dead holder's; rejects when a live one holds it. */
async function take(
  path: string,
  journal: string,
  mine: string,
  boot: string | undefined,
): Promise<void> {
  let last: Holder | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      await link(mine, path);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
    const holder = await holderOf(path);
    if (holder === null) continue; // released meanwhile: try again
    if (holder === undefined) {
      throw new JournalLockedError(
        `${journal}: ${path} exists but is not a lock this SDK wrote; remove it if no job is running on this journal`,
      );
    }
    last = holder;
    if (await alive(holder, boot)) throw lockedBy(journal, path, holder);
    if (await replace({ lock: path, mine, boot, seen: new Set() }, path, holder)) return;
    // Another taker is at work: look again once it is done.
    await delay(5 + Math.random() * 20);
  }
  throw lockedBy(journal, path, last);
}

/** One takeover: the lock, this process's lock file, the boot id, the tokens claimed so far. */
interface Takeover {
  lock: string;
  mine: string;
  boot: string | undefined;
  seen: Set<string>;
}

/**
 * Replaces `target` (the lock, or a claim), which names the dead `holder`, with this process's
 * lock: claims the dead holder's token first, so exactly one taker replaces it. False when another
 * taker got there.
 */
async function replace(takeover: Takeover, target: string, holder: Holder): Promise<boolean> {
  const { lock, mine, boot, seen } = takeover;
  // A token met twice would be a loop of claims: leave it to the next attempt.
  if (seen.has(holder.token)) return false;
  seen.add(holder.token);
  const claim = `${lock}.claim-${holder.token}`;
  try {
    await link(mine, claim);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    const claimer = await holderOf(claim);
    if (!claimer || (await alive(claimer, boot))) return false;
    if (!(await replace(takeover, claim, claimer))) return false;
  }
  // The claim is ours: only we may replace a target that still names the dead holder.
  try {
    if ((await holderOf(target))?.token !== holder.token) return false;
    const copy = `${mine}.${seen.size}`;
    await link(mine, copy);
    await rename(copy, target);
    return true;
  } finally {
    await removeQuietly(claim);
  }
}

/**
 * Removes what earlier takeovers left: claims on tokens no lock names any more, and the lock
 * files (and their copies) of takers that died before they were done.
 */
async function sweep(path: string, token: string, boot: string | undefined): Promise<void> {
  const claims = `${basename(path)}.claim-`;
  const temporary = `${basename(path)}.`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    const file = join(dirname(path), name);
    if (name.startsWith(claims) && !name.startsWith(`${claims}${token}`)) {
      await removeQuietly(file);
    } else if (
      name.startsWith(temporary) &&
      /^[0-9a-f-]{36}\.tmp(\.\d+)?$/.test(name.slice(temporary.length)) &&
      !name.includes(token)
    ) {
      // A taker's own lock file, left when it died before it was done: removed once it is dead.
      const taker = await holderOf(file).catch(() => undefined);
      if (taker && !(await alive(taker, boot))) await removeQuietly(file);
    }
  }
}

function lockedBy(journal: string, path: string, holder: Holder | undefined): JournalLockedError {
  if (!holder) return new JournalLockedError(`${journal} is in use by another run`);
  const here = holder.host === hostname();
  const advice = here
    ? 'one writer per journal: wait for that run to end'
    : `one writer per journal: wait for that run to end; this host cannot tell whether it still runs, so if it is gone for good, delete ${path}`;
  return new JournalLockedError(
    `${journal} is in use by process ${holder.pid} on ${holder.host} since ${holder.since}; ${advice}`,
    { pid: holder.pid, host: holder.host, since: holder.since },
  );
}
