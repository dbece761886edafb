import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FileJournal,
  JournalLockedError,
  JournalMismatchError,
  type JournalRecord,
} from 'partner-sdk/bulk';
import { afterEach, describe, expect, it } from 'vitest';
import { describeJournalStoreContract } from '../helpers/journal-store-contract';

const dirs: string[] = [];
async function tempFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'partner-journal-'));
  dirs.push(dir);
  return join(dir, 'job.jsonl');
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describeJournalStoreContract('FileJournal', async () => {
  const path = await tempFile();
  return { open: () => FileJournal.open(path) };
});

const record = (key: string, state: JournalRecord['state'] = 'intent'): JournalRecord => ({
  job: 'job-1',
  key,
  state,
  at: '2026-11-23T12:00:00.000Z',
});

describe('FileJournal', () => {
  it('writes one JSON line per record, with the job id in each', async () => {
    const path = await tempFile();
    const store = await FileJournal.open(path);
    await store.put(record('trx_1'));
    await store.put(record('trx_1', 'succeeded'));
    await store.close();
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      record('trx_1'),
      record('trx_1', 'succeeded'),
    ]);
  });

  it('ignores a torn last line and appends the next record on a line of its own', async () => {
    const path = await tempFile();
    await writeFile(path, `${JSON.stringify(record('trx_1'))}\n{"job":"job-1","key":"trx_2","st`);
    const store = await FileJournal.open(path);
    expect(await store.get('job-1', 'trx_1')).toEqual(record('trx_1'));
    expect(await store.get('job-1', 'trx_2')).toBeUndefined();
    await store.put(record('trx_3'));
    await store.close();
    const reopened = await FileJournal.open(path);
    expect(await reopened.get('job-1', 'trx_3')).toEqual(record('trx_3'));
    await reopened.close();
    expect((await readFile(path, 'utf8')).split('\n')).toHaveLength(3);
  });

  it('keeps a whole last record that lost only its newline', async () => {
    const path = await tempFile();
    await writeFile(path, JSON.stringify(record('trx_1')));
    const store = await FileJournal.open(path);
    await store.put(record('trx_2'));
    await store.close();
    const reopened = await FileJournal.open(path);
    expect(await reopened.get('job-1', 'trx_1')).toEqual(record('trx_1'));
    expect(await reopened.get('job-1', 'trx_2')).toEqual(record('trx_2'));
    await reopened.close();
  });

  it("refuses another job's file, naming both jobs", async () => {
    const path = await tempFile();
    const store = await FileJournal.open(path);
    await store.put(record('trx_1'));
    await expect(store.get('job-2', 'trx_1')).rejects.toThrow(JournalMismatchError);
    await expect(store.put({ ...record('trx_1'), job: 'job-2' })).rejects.toThrow(/job-1.*job-2/);
    await store.close();
  });

  it('refuses a file that is not a journal, whatever its last line', async () => {
    const path = await tempFile();
    await writeFile(path, 'hash,amount\ntrx_1,100\n');
    await expect(FileJournal.open(path)).rejects.toThrow(JournalMismatchError);
  });

  it('refuses, and leaves as it was, a file whose one line is not a record (the input given as --journal)', async () => {
    const path = await tempFile();
    await writeFile(path, 'trx_1\n');
    await expect(FileJournal.open(path)).rejects.toThrow(/line 1 is not a journal record/);
    expect(await readFile(path, 'utf8')).toBe('trx_1\n');
  });

  it("refuses a whole record it cannot read (a newer version's) instead of cutting it as torn", async () => {
    const newer = { ...record('trx_2'), state: 'cancelled', version: 2 };
    for (const tail of ['\n', '']) {
      const path = await tempFile();
      const text = `${JSON.stringify(record('trx_1'))}\n${JSON.stringify(newer)}${tail}`;
      await writeFile(path, text);
      const refused = await FileJournal.open(path).then(
        async (store) => {
          await store.close();
          return undefined;
        },
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(JournalMismatchError);
      expect(String((refused as Error).message)).toMatch(/line 2 .*newer version of partner-sdk/);
      expect(await readFile(path, 'utf8')).toBe(text);
    }
  });

  it('refuses a file that mixes jobs', async () => {
    const path = await tempFile();
    const lines = [record('trx_1'), { ...record('trx_2'), job: 'job-2' }];
    await writeFile(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    await expect(FileJournal.open(path)).rejects.toThrow(JournalMismatchError);
  });
});

describe('FileJournal: one writer per file', () => {
  it('refuses a second open while the first holds the journal, naming the holder; free again after close', async () => {
    const path = await tempFile();
    const first = await FileJournal.open(path);
    const refused = await FileJournal.open(path).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(JournalLockedError);
    const { holder, message } = refused as JournalLockedError;
    expect(holder).toMatchObject({ pid: process.pid, host: hostname() });
    expect(Date.parse(holder.since!)).toBeGreaterThan(Date.now() - 60_000);
    expect(message).toContain(
      `in use by process ${process.pid} on ${hostname()} since ${holder.since}`,
    );
    await first.close();
    const second = await FileJournal.open(path);
    await second.put(record('trx_1'));
    await second.close();
  });

  it('takes over the lock of a process that is gone (killed: its lock file left behind)', async () => {
    const path = await tempFile();
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const stale = { pid: gone, host: hostname(), since: '2026-11-01T00:00:00.000Z', token: 'old' };
    await writeFile(`${path}.lock`, JSON.stringify(stale));
    const store = await FileJournal.open(path);
    const lock = JSON.parse(await readFile(`${path}.lock`, 'utf8')) as { pid: number };
    expect(lock.pid).toBe(process.pid);
    await store.close();
  });

  it('refuses a lock taken on another host (it cannot tell whether that run lives), saying which file frees it', async () => {
    const path = await tempFile();
    const since = '2026-11-25T10:00:00.000Z';
    const other = { pid: 4242, host: 'batch-host-7', since, token: 'theirs' };
    await writeFile(`${path}.lock`, JSON.stringify(other));
    const refused = await FileJournal.open(path).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(JournalLockedError);
    expect((refused as JournalLockedError).holder).toEqual({
      pid: 4242,
      host: 'batch-host-7',
      since,
    });
    expect((refused as Error).message).toContain(`delete ${path}.lock`);
  });

  it('stops writing when its lock file is removed while it runs', async () => {
    const path = await tempFile();
    const store = await FileJournal.open(path);
    await store.put(record('trx_1'));
    await unlink(`${path}.lock`);
    await expect(store.put(record('trx_2'))).rejects.toThrow(JournalLockedError);
    await store.close();
  });
});
