/**
 * A file journal's lock taken over from a dead holder, with the taker itself SIGKILLed at each
 * step of the takeover (a fault-injecting wrapper of `node:fs/promises` stops it there: see
 * `fixtures/stop-at-step.ts`): the journal is never left locked for good, the next runners take
 * it over with exactly one of them holding it, and the dead takers' files are cleared away.
 */

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Child, startChild, startChildren } from '../helpers/children';

const FIXTURE = 'test/bulk/fixtures/hold-journal.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Opened {
  held?: boolean;
  stopped?: string;
  pid?: number;
  error?: string;
  holder?: { pid?: number };
}

async function journalIn(): Promise<{ dir: string; env: () => Record<string, string> }> {
  const dir = await mkdtemp(join(tmpdir(), 'partner-takeover-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return { dir, env: () => ({ JOURNAL: join(dir, 'journal.jsonl') }) };
}

/** One process, started and told to open the journal; its answer (or where it stopped). */
async function opener(env: Record<string, string>): Promise<{ child: Child; opened: Opened }> {
  const child = startChild(FIXTURE, env);
  cleanups.push(() => child.close());
  await child.next(30_000);
  return { child, opened: await child.ask<Opened>({ open: true, at: 0 }, 30_000) };
}

/** A holder that took the journal, then was SIGKILLed: its lock file stays behind. */
async function deadHolder(env: Record<string, string>): Promise<void> {
  const { child, opened } = await opener(env);
  expect(opened.held).toBe(true);
  await child.close();
}

/** Four processes open the journal at one instant: exactly one holds it, the others name it. */
async function exactlyOneOfFourTakesOver(env: () => Record<string, string>): Promise<void> {
  const children = await startChildren(4, FIXTURE, env);
  cleanups.push(async () => {
    await Promise.all(children.map((child) => child.close()));
  });
  const at = Date.now() + 400;
  const opened = await Promise.all(
    children.map((child) => child.ask<Opened>({ open: true, at }, 30_000)),
  );
  const holders = opened.filter((o) => o.held);
  expect(holders).toHaveLength(1);
  for (const refused of opened.filter((o) => !o.held)) {
    expect(refused).toMatchObject({
      error: 'JournalLockedError',
      holder: { pid: holders[0]!.pid },
    });
  }
}

describe('a journal lock whose taker is SIGKILLed mid-takeover', () => {
  it.each([
    ['claimed', 'after claiming the dead holder, before replacing its lock'],
    ['copied', 'after linking its copy of the lock, before renaming it over the stale one'],
    ['renamed', 'after its lock replaced the stale one, before removing its claim'],
  ])(
    'killed %s (%s): the next runners take it over, exactly one of four, nothing of the dead left',
    async (step) => {
      const { dir, env } = await journalIn();
      await deadHolder(env());
      const taker = await opener({ ...env(), STOP_AT: step });
      expect(taker.opened).toMatchObject({ stopped: step });
      await taker.child.close();

      await exactlyOneOfFourTakesOver(env);
      // Claims and the temporary lock files of the dead takers are gone; the journal and the
      // live holder's lock remain.
      expect((await readdir(dir)).sort()).toEqual(['journal.jsonl', 'journal.jsonl.lock']);
    },
    90_000,
  );

  it('six takers killed one after another, each right after its claim: the seventh runner still takes it over', async () => {
    const { dir, env } = await journalIn();
    await deadHolder(env());
    for (let taker = 0; taker < 6; taker++) {
      const { child, opened } = await opener({ ...env(), STOP_AT: 'claimed' });
      expect(opened).toMatchObject({ stopped: 'claimed' });
      await child.close();
    }

    await exactlyOneOfFourTakesOver(env);
    expect((await readdir(dir)).sort()).toEqual(['journal.jsonl', 'journal.jsonl.lock']);
  }, 120_000);
});
