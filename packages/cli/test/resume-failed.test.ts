/**
 * A bulk job resumed from its journal skips the items an earlier run failed (unless
 * `--retry-failed`): for people, such an item is said as the failure it still is, never as done,
 * and in doubt when its request may have reached the service. An item a stopped job interrupted is
 * said to resume with the journal only when there is one. Resumed with `--wait`, it waits for the
 * refunds an earlier run requested too.
 */

import { join } from 'node:path';
import type { BulkInterrupted, BulkSkipped } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { outcomeText } from '../src/output';
import { jsonLines, useCliKit } from './run-cli';

const { mock, dir, run } = useCliKit('resume-failed', { refundPolls: 0 });

const skipped = (detail: Record<string, unknown>): BulkSkipped<string> => ({
  key: 'trx_x',
  item: 'trx_x',
  status: 'skipped',
  previous: { job: 'j', key: 'trx_x', state: 'failed', at: '2026-11-27T00:00:00Z', detail },
});

describe('a resumed job, for people', { timeout: 90_000 }, () => {
  it('says an item an earlier run failed is still failed and how to try it again', async () => {
    const failing = mock.addTransaction();
    const fine = mock.addTransaction();
    const journal = join(dir, 'resume.jsonl');
    mock.failNext({ status: 422, method: 'POST', path: `/financial/refund/${failing}` });
    const args = ['refunds', 'request', failing, fine, '--journal', journal, '--format', 'table'];
    expect((await run(args)).code).toBe(1);
    const again = await run(args);
    // Still failed: the resumed job is not done, whatever this run did.
    expect(again.code).toBe(1);
    const lines = again.stdout.split('\n');
    expect(lines.find((line) => line.includes(failing))).toMatch(
      /failed in an earlier run \(UnprocessableEntityError 422\): not tried again without --retry-failed$/,
    );
    expect(lines.find((line) => line.includes(fine))).toMatch(
      /done by an earlier run \(succeeded\)$/,
    );
  });

  it('exits 1 when the one hash given is an item an earlier run failed, skipped again', async () => {
    const failing = mock.addTransaction();
    const journal = join(dir, 'single.jsonl');
    mock.failNext({ status: 422, method: 'POST', path: `/financial/refund/${failing}` });
    const args = ['refunds', 'request', failing, '--journal', journal, '--format', 'table'];
    expect((await run(args)).code).toBe(1);
    const again = await run(args);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/failed in an earlier run \(UnprocessableEntityError 422\)/);
  });

  it('exits 0 once --retry-failed has done the item an earlier run failed', async () => {
    const failing = mock.addTransaction();
    const journal = join(dir, 'retried.jsonl');
    mock.failNext({ status: 422, method: 'POST', path: `/financial/refund/${failing}` });
    const args = ['refunds', 'request', failing, '--journal', journal, '--format', 'json'];
    expect((await run([...args, failing])).code).toBe(1);
    expect((await run([...args, failing, '--retry-failed'])).code).toBe(0);
    expect((await run([...args, failing])).code).toBe(0);
  });

  it('exits 1, not 5, when a transaction already refunded is refused beside an item an earlier run failed', async () => {
    const failing = mock.addTransaction();
    const refunded = mock.addTransaction();
    const journal = join(dir, 'refused-beside-failed.jsonl');
    mock.failNext({ status: 422, method: 'POST', path: `/financial/refund/${failing}` });
    const args = ['refunds', 'request', '--journal', journal, '--format', 'json'];
    expect((await run([...args, failing])).code).toBe(1);
    // Refunded outside this journal, to its end: the resumed job refuses it, nothing sent.
    expect((await run(['refunds', 'request', refunded, '--wait'])).code).toBe(0);
    const again = await run([...args, failing, refunded]);
    expect(again.code).toBe(1);
  });

  it('--wait resumed waits for the refunds an earlier run requested too, not only its own', async () => {
    const [first, second, later] = [1, 2, 3].map(() => mock.addTransaction());
    const journal = join(dir, 'resumed-wait.jsonl');
    const args = ['refunds', 'request', '--journal', journal, '--format', 'json'];
    // The first run requested two refunds and stopped before any wait.
    expect((await run([...args, first!, second!])).code).toBe(0);
    const resumed = await run([...args, first!, second!, later!, '--wait']);
    expect(resumed.code).toBe(0);
    // The wait's lines: each refund's status, read to its end.
    const waited = jsonLines(resumed.stdout).filter(
      (line) => (line.result as { status?: string } | undefined)?.status === 'completed',
    );
    expect(new Set(waited.map((line) => line.key))).toEqual(new Set([first, second, later]));
  });

  it('in JSON says what an earlier run failed an item with, and whether in doubt', async () => {
    const failing = mock.addTransaction();
    const journal = join(dir, 'resume-json.jsonl');
    mock.failNext({ status: 422, method: 'POST', path: `/financial/refund/${failing}` });
    const args = ['refunds', 'request', failing, mock.addTransaction(), '--journal', journal];
    expect((await run([...args, '--json'])).code).toBe(1);
    const again = await run([...args, '--json']);
    expect(again.code).toBe(1);
    expect(jsonLines(again.stdout).find((line) => line.key === failing)).toEqual({
      key: failing,
      status: 'skipped',
      previous: 'failed',
      inDoubt: false,
      error: { name: 'UnprocessableEntityError', message: expect.any(String), status: 422 },
    });
  });

  it('says an item failed in doubt may have reached the service', () => {
    const line = outcomeText(
      skipped({ inDoubt: true, error: 'APIConnectionError', message: 'lost' }),
      String,
    );
    expect(line).toMatch(
      /failed in an earlier run \(APIConnectionError; its request may have reached the service\): not tried again without --retry-failed$/,
    );
  });
});

describe('an item a stopped job interrupted, for people', () => {
  const interrupted: BulkInterrupted<string> = {
    key: 'trx_x',
    item: 'trx_x',
    status: 'interrupted',
    attempts: 1,
  };

  it('resumes with the same --journal when the job has one', () => {
    expect(outcomeText(interrupted, String, true)).toMatch(
      /interrupted: resume with the same --journal$/,
    );
  });

  it('is to be run again when the job has no journal, never told to resume one', () => {
    const line = outcomeText(interrupted, String, false);
    expect(line).not.toContain('resume with the same --journal');
    expect(line).toMatch(
      /interrupted: run it again \(with --journal FILE, a run resumes it by itself\)$/,
    );
  });
});
