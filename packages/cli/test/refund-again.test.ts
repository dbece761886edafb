/**
 * `refunds request` run a second time, as from a shell's history: the service makes a new refund
 * once the first is `completed` (spec §3), so the command reads the transaction's refunds first
 * and refuses one already refunded (exit 5, nothing sent) unless `--again` says so. A `failed`
 * refund, or an active one (which the service answers with itself), is no reason to refuse.
 */

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PartnerClient } from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { jsonLines, useCliKit } from './run-cli';

const kit = useCliKit('refund-again', { refundPolls: 0 });
const { mock, dir, run } = kit;

const refundPosts = (hash: string) =>
  mock.requests.filter((r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`);
const refundReads = (hash: string) =>
  mock.requests.filter((r) => r.method === 'GET' && r.path === `/financial/refund/${hash}`);
const summaryOf = (stdout: string) =>
  jsonLines(stdout).find((line) => 'summary' in line)?.summary as Record<string, unknown>;
const lineOf = (stdout: string, key: string) => jsonLines(stdout).find((line) => line.key === key);

/** The seller's client, to read the kit's refunds as a partner would. */
const seller = () =>
  new PartnerClient({ baseUrl: kit.url, ...mock.credentials }).forUser(
    mock.sellers.person.publicToken,
  );

/** A transaction refunded yesterday: requested through the CLI, then waited on to its end. */
async function refunded(outcome: 'completed' | 'failed' = 'completed'): Promise<string> {
  const hash = mock.addTransaction();
  mock.refundOutcome(hash, outcome, { polls: 0 });
  expect((await run(['refunds', 'request', hash])).code).toBe(0);
  const final = await seller().refunds.waitForCompletion(hash, { interval: 10, timeout: 20_000 });
  expect(final.status).toBe(outcome);
  return hash;
}

describe('partner-sdk refunds request run again', { timeout: 120_000 }, () => {
  it('refuses a transaction whose refund completed: exit 5, nothing sent, the refund and --again named', async () => {
    const hash = await refunded();
    const [first] = await seller().refunds.list(hash);
    const again = await run(['refunds', 'request', hash]);
    expect(again.code).toBe(5);
    const { error } = JSON.parse(again.stderr) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ name: 'AlreadyRefundedError', refund: first!.hash });
    expect(error.message).toContain(hash);
    expect(error.message).toContain('--again');
    expect(refundPosts(hash)).toHaveLength(1);
    const table = await run(['--format', 'table', 'refunds', 'request', hash]);
    expect(table.code).toBe(5);
    expect(table.stderr).toMatch(/already has a completed refund.*--again/);
    expect(refundPosts(hash)).toHaveLength(1);
    expect(await seller().refunds.list(hash)).toHaveLength(1);
  });

  it('--again requests it all the same: a second refund', async () => {
    const hash = await refunded();
    const again = await run(['refunds', 'request', hash, '--again']);
    expect(again.code, again.stderr).toBe(0);
    expect(jsonLines(again.stdout)).toEqual([expect.objectContaining({ kind: 'accepted' })]);
    expect(await seller().refunds.list(hash)).toHaveLength(2);
  });

  it('a failed refund is no reason to refuse, nor an active one (the service answers with it)', async () => {
    const failed = await refunded('failed');
    const retried = await run(['refunds', 'request', failed]);
    expect(retried.code, retried.stderr).toBe(0);
    expect(jsonLines(retried.stdout)).toEqual([expect.objectContaining({ kind: 'accepted' })]);
    const active = mock.transactions.withActiveRefund;
    const existing = await run(['refunds', 'request', active]);
    expect(existing.code, existing.stderr).toBe(0);
    expect(jsonLines(existing.stdout)).toEqual([expect.objectContaining({ kind: 'existing' })]);
  });

  it('a file run again without --journal refunds only what was not refunded: exit 5, each refused item named', async () => {
    const done = [await refunded(), await refunded()];
    const fresh = mock.addTransaction();
    const cohort = join(dir, 'cohort.txt');
    await writeFile(cohort, `${[...done, fresh].join('\n')}\n`);
    const rerun = await run(['refunds', 'request', '--file', cohort]);
    expect(rerun.code, rerun.stderr).toBe(5);
    for (const hash of done) {
      expect(lineOf(rerun.stdout, hash)).toMatchObject({
        status: 'failed',
        inDoubt: false,
        error: { name: 'AlreadyRefundedError' },
      });
      expect(refundPosts(hash)).toHaveLength(1);
    }
    expect(lineOf(rerun.stdout, fresh)).toMatchObject({ status: 'succeeded' });
    expect(summaryOf(rerun.stdout)).toMatchObject({ succeeded: 1, failed: 2 });
    const forced = await run(['refunds', 'request', '--file', cohort, '--again']);
    expect(forced.code, forced.stderr).toBe(0);
    for (const hash of done) expect(await seller().refunds.list(hash)).toHaveLength(2);
  });

  it('a cohort run again with its --journal reads nothing for what the journal settled: the journal skips it first', async () => {
    const cohort = join(dir, 'journalled.txt');
    const journal = join(dir, 'journalled.jsonl');
    const hashes = [mock.addTransaction(), mock.addTransaction()];
    await writeFile(cohort, `${hashes.join('\n')}\n`);
    const first = await run(['refunds', 'request', '--file', cohort, '--journal', journal]);
    expect(first.code, first.stderr).toBe(0);
    // The guard read each transaction once, then requested it.
    for (const hash of hashes)
      expect([refundReads(hash), refundPosts(hash)].map((r) => r.length)).toEqual([1, 1]);
    const again = await run(['refunds', 'request', '--file', cohort, '--journal', journal]);
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again.stdout)).toMatchObject({ skipped: 2, succeeded: 0, failed: 0 });
    for (const hash of hashes)
      expect([refundReads(hash), refundPosts(hash)].map((r) => r.length)).toEqual([1, 1]);
  });

  it('another failure beside a refused item is exit 1', async () => {
    const done = await refunded();
    const result = await run(['refunds', 'request', done, 'trx_not_there']);
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, done)).toMatchObject({ error: { name: 'AlreadyRefundedError' } });
    expect(lineOf(result.stdout, 'trx_not_there')).toMatchObject({
      error: { name: 'NotFoundError' },
    });
  });
});
