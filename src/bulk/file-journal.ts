/**
 * The file journal: one job's records as JSON lines, appended and synced to disk before a put
 * resolves. Reading it back tolerates a torn last line (the process was killed mid-write: that
 * record was never acknowledged, so nothing relied on it).
 *
 * @module
 */

import { type FileHandle, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { FileLock } from './file-lock';
import {
  asJournalRecord,
  type JournalLockedError,
  JournalMismatchError,
  type JournalRecord,
  type JournalStore,
} from './journal';

/**
 * A {@link JournalStore} in one append-only file of JSON lines, fsync'd on every put (concurrent
 * puts share one write and one sync). A file holds one job: the first record fixes its id, and a
 * get or put for another job rejects with {@link JournalMismatchError}, so a journal is never
 * mistaken for another job's. The last record of each key is kept in memory (a few dozen bytes per
 * item).
 *
 * One writer per file: `open` takes the file's lock (`<path>.lock`) and `close` gives it back. A
 * second opener, in this process or another on this host, is refused with
 * {@link JournalLockedError} naming the holder (pid, host, since) while the holder runs; a holder
 * that died (even by `kill -9`) is noticed by its pid and taken over. Limits: a lock taken on
 * another host (a shared network disk) cannot be checked from here, so it is refused until that
 * run closes it, or a person deletes the `.lock` file once sure that run is gone; hosts sharing a
 * disk must have distinct host names.
 *
 * @example
 * ```ts
 * import { FileJournal, requestRefunds } from 'partner-sdk/bulk';
 *
 * const store = await FileJournal.open('refunds.journal.jsonl');
 * try {
 *   await requestRefunds(seller, hashes, { journal: { store, job: 'cohort-2026-11' } });
 * } finally {
 *   await store.close();
 * }
 * ```
 */
export class FileJournal implements JournalStore {
  /** The file's path. */
  readonly path: string;
  readonly #handle: FileHandle;
  readonly #lock: FileLock;
  readonly #last = new Map<string, JournalRecord>();
  #job: string | undefined;
  #pending: { line: string; record: JournalRecord; done: (error?: unknown) => void }[] = [];
  #flushing: Promise<void> | undefined;
  #closed = false;

  private constructor(path: string, handle: FileHandle, lock: FileLock) {
    this.path = path;
    this.#handle = handle;
    this.#lock = lock;
  }

  /**
   * Takes the journal's lock, then opens (or creates) the file and reads its records.
   *
   * @throws {JournalLockedError} another writer holds the journal (its pid, host and since are
   *   in the message and on `holder`).
   * @throws {JournalMismatchError} a line other than the last is not a journal record, or the
   *   file mixes jobs (it is not a journal this SDK wrote).
   * @example
   * ```ts
   * const store = await FileJournal.open('./offers.journal.jsonl');
   * ```
   */
  static async open(path: string): Promise<FileJournal> {
    const lock = await FileLock.acquire(path);
    let handle: FileHandle | undefined;
    try {
      handle = await open(path, 'a');
      return await FileJournal.#read(path, handle, lock);
    } catch (err) {
      await handle?.close();
      await lock.release();
      throw err;
    }
  }

  static async #read(path: string, handle: FileHandle, lock: FileLock): Promise<FileJournal> {
    const text = await readFile(path, 'utf8');
    const journal = new FileJournal(path, handle, lock);
    const { kept, endLine } = journal.#load(text);
    if (kept < Buffer.byteLength(text)) {
      // A torn last line: cut it so the next record starts on a line of its own.
      await handle.truncate(kept);
      await handle.datasync();
    } else if (endLine) {
      await handle.appendFile('\n');
      await handle.datasync();
    }
    if (text === '') await syncDirectory(path);
    return journal;
  }

  /** The job this file holds, once it has a record. */
  get job(): string | undefined {
    return this.#job;
  }

  /** Parses the file's lines: how many bytes of it are whole records, and whether the last needs its newline. */
  #load(text: string): { kept: number; endLine: boolean } {
    let offset = 0;
    let lineNumber = 0;
    while (offset < text.length) {
      const end = text.indexOf('\n', offset);
      lineNumber++;
      const line = text.slice(offset, end === -1 ? text.length : end);
      const parsed = parseLine(line);
      const record = parsed === NOT_JSON ? undefined : asJournalRecord(parsed);
      if (!record) {
        // A write cut by a crash leaves the end of the file without its newline, and a cut JSON
        // object never parses. Anything else is a line this version cannot read: never cut it.
        if ((end === -1 && parsed === NOT_JSON) || text.slice(offset).trim() === '') break;
        throw new JournalMismatchError(unreadable(this.path, lineNumber, parsed));
      }
      this.#remember(record);
      // A whole record without its newline was cut before it: kept, and its line is ended.
      if (end === -1) return { kept: Buffer.byteLength(text), endLine: true };
      offset = end + 1;
    }
    return { kept: Buffer.byteLength(text.slice(0, offset)), endLine: false };
  }

  #remember(record: JournalRecord): void {
    this.#checkJob(record.job);
    this.#job ??= record.job;
    this.#last.set(record.key, record);
  }

  #checkJob(job: string): void {
    if (this.#job !== undefined && job !== this.#job) {
      throw new JournalMismatchError(
        `${this.path} is the journal of job "${this.#job}", not of job "${job}": use another file, or the job id "${this.#job}" to resume it`,
      );
    }
  }

  /**
   * The last record of `key`, or `undefined`.
   *
   * @throws {JournalMismatchError} `job` is not this file's job.
   * @example
   * ```ts
   * const record = await store.get('cohort-2026-11', 'trx_8Kq2');
   * ```
   */
  async get(job: string, key: string): Promise<JournalRecord | undefined> {
    this.#checkOpen();
    this.#checkJob(job);
    const record = this.#last.get(key);
    return record && structuredClone(record);
  }

  /**
   * Appends a record and syncs the file; resolves once it is on disk.
   *
   * @throws {JournalMismatchError} the record's job is not this file's job.
   * @example
   * ```ts
   * await store.put({ job: 'cohort-2026-11', key: 'trx_8Kq2', state: 'intent', at: new Date().toISOString() });
   * ```
   */
  put(record: JournalRecord): Promise<void> {
    try {
      this.#checkOpen();
      this.#checkJob(record.job);
    } catch (err) {
      return Promise.reject(err);
    }
    this.#job ??= record.job;
    const copy = structuredClone(record);
    const line = `${JSON.stringify(copy)}\n`;
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ line, record: copy, done: (e) => (e ? reject(e) : resolve()) });
      this.#flushing ??= this.#flush();
    });
  }

  /** Writes everything pending in one append and one sync, until nothing is pending. */
  async #flush(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      try {
        // Never write beside another run: the lock must still be ours (not deleted by hand).
        await this.#lock.verify();
        await this.#handle.appendFile(batch.map((p) => p.line).join(''));
        await this.#handle.datasync();
        for (const p of batch) {
          this.#last.set(p.record.key, p.record);
          p.done();
        }
      } catch (err) {
        for (const p of batch) p.done(err);
      }
    }
    this.#flushing = undefined;
  }

  /**
   * Waits for pending records and closes the file.
   *
   * @example
   * ```ts
   * await store.close();
   * ```
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#flushing;
    await this.#handle.close();
    await this.#lock.release();
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error(`${this.path}: the journal is closed`);
  }
}

const NOT_JSON = Symbol('not JSON');

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return NOT_JSON;
  }
}

/** Why line `number` cannot be read: not a journal at all, or a record this version does not know. */
function unreadable(path: string, number: number, parsed: unknown): string {
  const recordLike = typeof parsed === 'object' && parsed !== null && 'job' in parsed;
  return recordLike
    ? `${path}: line ${number} is a record this version cannot read (written by a newer version of partner-sdk?): resume with that version; the file is left as it is`
    : `${path}: line ${number} is not a journal record; is this a journal file? (it is left as it is)`;
}

/** Makes a new file's directory entry durable too (where the platform allows opening a directory). */
async function syncDirectory(path: string): Promise<void> {
  try {
    const dir = await open(dirname(path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // Windows cannot open a directory; the file's own sync is what it offers.
  }
}
