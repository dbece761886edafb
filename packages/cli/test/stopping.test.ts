/**
 * A bulk command stopped by Ctrl-C, SIGTERM or SIGHUP, run as a child process against the kit: nothing new
 * starts, the requests in flight finish (within a bound), the journal records them, and a resume
 * refunds each transaction once. A pipe that sends nothing is not waited for, and a second Ctrl-C
 * ends the command at once.
 */

import { join } from 'node:path';
import { PartnerClient } from 'partner-sdk';
import { describe, expect, it, vi } from 'vitest';
import { waitFor, withTimeout } from '../../../test/helpers/waits';
import { GracefulStop } from '../src/stopping';
import { jsonLines, onTerminal, startCli, useCliKit } from './run-cli';

const kit = useCliKit('stopping', { refundPolls: 0 });
const { mock, env, dir, run } = kit;

/** How many refunds each transaction has at the kit. */
async function refundCounts(hashes: string[]): Promise<number[]> {
  const seller = new PartnerClient({ baseUrl: kit.url, ...mock.credentials }).forUser(
    mock.sellers.person.publicToken,
  );
  return Promise.all(hashes.map(async (hash) => (await seller.refunds.list(hash)).length));
}

/** Refund requests the kit has received for `hashes`. */
const posted = (hashes: string[]) =>
  mock.requests.filter(
    (r) => r.method === 'POST' && hashes.some((hash) => r.path.endsWith(`/refund/${hash}`)),
  ).length;

describe('GracefulStop', () => {
  it('hands out items until a stop, ends a pending read at once, and aborts the job after the grace', async () => {
    vi.useFakeTimers();
    try {
      const stop = new GracefulStop();
      let release: (value: IteratorResult<number>) => void = () => {};
      const source: AsyncIterable<number> = {
        [Symbol.asyncIterator]: () => {
          let n = 0;
          return {
            next: () =>
              n < 2
                ? Promise.resolve({ done: false, value: n++ })
                : new Promise<IteratorResult<number>>((resolve) => {
                    release = resolve;
                  }),
          };
        },
      };
      const items = stop.items(source)[Symbol.asyncIterator]();
      expect(await items.next()).toEqual({ done: false, value: 0 });
      expect(await items.next()).toEqual({ done: false, value: 1 });
      const pending = items.next();
      stop.request(1_000);
      expect(await pending).toEqual({ done: true, value: undefined });
      release({ done: false, value: 2 });
      expect(await items.next()).toEqual({ done: true, value: undefined });
      expect(stop.signal.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(stop.signal.aborted).toBe(true);
      const finished = new GracefulStop();
      finished.request(1_000);
      finished.dispose();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(finished.signal.aborted).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('partner-sdk stopped by a signal mid-job', { timeout: 120_000 }, () => {
  for (const [signal, said] of [
    ['SIGINT', 'Ctrl-C'],
    ['SIGHUP', 'SIGHUP (the terminal closed), as SIGTERM'],
  ] as const) {
    it(`${said}: the requests in flight finish and are journaled, nothing new starts, exit 130; a resume refunds the rest once`, async () => {
      const hashes = Array.from({ length: 30 }, () => mock.addTransaction());
      const journal = join(dir, `graceful-${signal}.jsonl`);
      const args = ['refunds', 'request', '--concurrency', '2', '--journal', journal, ...hashes];
      mock.setLatency(300);
      try {
        const cli = startCli(['--json', ...args], { env });
        await waitFor(() => posted(hashes) >= 1, 'a first refund request', 30_000);
        cli.stop(signal);
        const stopped = await withTimeout(cli.exited, 15_000, 'the stopped command');
        expect({ code: stopped.code, signal: stopped.signal }).toEqual({ code: 130, signal: null });
        expect(stopped.stderr).toBe('');
        const lines = jsonLines(stopped.stdout);
        const outcomes = lines.filter((line) => 'key' in line);
        // The items in flight at the signal ended with the service's answer, not abandoned.
        expect(outcomes.length).toBeGreaterThan(0);
        expect(outcomes.map((o) => o.status)).toEqual(outcomes.map(() => 'succeeded'));
        const { summary } = lines.at(-1) as { summary: Record<string, unknown> };
        expect(summary).toMatchObject({ aborted: true, interrupted: 0 });
        expect(Number(summary.notStarted)).toBe(hashes.length - outcomes.length);
        expect(summary.resume).toContain(`--journal ${journal}`);
        // Refunded: exactly the items reported, once each.
        const done = new Set(outcomes.map((o) => o.key));
        expect(await refundCounts(hashes)).toEqual(hashes.map((h) => (done.has(h) ? 1 : 0)));
      } finally {
        mock.setLatency(undefined);
      }
      const resumed = await run(['--json', ...args]);
      expect(resumed.code).toBe(0);
      expect(
        jsonLines(resumed.stdout).filter((l) => l.status === 'skipped').length,
      ).toBeGreaterThan(0);
      expect(await refundCounts(hashes)).toEqual(hashes.map(() => 1));
    });
  }

  it('a terminal that goes away mid-job (its writes fail, SIGHUP): the requests in flight still end journaled, exit 130; a resume refunds the rest once', async () => {
    const hashes = Array.from({ length: 12 }, () => mock.addTransaction());
    const journal = join(dir, 'terminal-gone.jsonl');
    const args = ['refunds', 'request', '--concurrency', '2', '--journal', journal, ...hashes];
    mock.setLatency(300);
    let gone: { code: number | null; shown: string };
    try {
      gone = await onTerminal(['--json', ...args], env, { hangUpAt: '"succeeded"' });
    } finally {
      mock.setLatency(undefined);
    }
    expect(gone.code, gone.shown).toBe(130);
    // Every refund made is in the journal as done: the resume skips it and sends none twice.
    const made = (await refundCounts(hashes)).filter((n) => n === 1).length;
    expect(made).toBeGreaterThan(0);
    const resumed = await run(['--json', ...args]);
    expect(resumed.code).toBe(0);
    const skipped = jsonLines(resumed.stdout).filter((l) => l.status === 'skipped');
    expect(skipped).toHaveLength(made);
    expect(await refundCounts(hashes)).toEqual(hashes.map(() => 1));
  });

  it('Ctrl-C while stdin sends nothing: refunds request and refunds wait end at once, not when the pipe ends, exit 130', async () => {
    const hashes = Array.from({ length: 2 }, () => mock.addTransaction());
    for (const command of ['request', 'wait']) {
      const cli = startCli(['--json', 'refunds', command], { env, stdin: 'pipe' });
      try {
        // A line, then the next without its newline, then silence with the pipe still open.
        cli.stdin!.write(`${hashes[0]}\r\n${hashes[1]}`);
        await cli.printed((out) => out.includes(hashes[0]!));
        cli.stop('SIGINT');
        const stopped = await withTimeout(cli.exited, 5_000, `refunds ${command} after Ctrl-C`);
        expect(stopped.code, command).toBe(130);
        const { summary } = jsonLines(stopped.stdout).at(-1) as {
          summary: Record<string, unknown>;
        };
        expect(summary, command).toMatchObject({ aborted: true, succeeded: 1 });
      } finally {
        cli.stdin!.end();
        cli.stop('SIGKILL');
      }
    }
    expect(await refundCounts(hashes)).toEqual([1, 0]);
  });

  it('a second Ctrl-C while requests are in flight ends the command at once; a resume refunds each once', async () => {
    const hashes = Array.from({ length: 6 }, () => mock.addTransaction());
    const journal = join(dir, 'twice.jsonl');
    const args = ['refunds', 'request', '--concurrency', '2', '--journal', journal, ...hashes];
    mock.setLatency(30_000);
    try {
      // A client token: the login call would wait out the latency too.
      const cli = startCli(['--format', 'table', ...args], {
        env: { ...env, PARTNER_API_CLIENT_TOKEN: mock.credentials.clientToken },
      });
      await waitFor(
        () => mock.requests.some((r) => hashes.some((h) => r.path.includes(h))),
        'a request',
        30_000,
      );
      cli.stop('SIGINT');
      await cli.noted((err) => err.includes('Ctrl-C again to stop at once'));
      cli.stop('SIGINT');
      const stopped = await withTimeout(cli.exited, 3_000, 'the command after a second Ctrl-C');
      expect(stopped.code).toBe(130);
      expect(stopped.stderr).toMatch(/requests in flight have up to 10 s to finish/);
    } finally {
      mock.setLatency(undefined);
    }
    const resumed = await run(['--json', ...args]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await refundCounts(hashes)).toEqual(hashes.map(() => 1));
  });
});
