/**
 * `requestRefunds` with `unlessRefunded`: a job run again without its journal refunds no one
 * twice. The service makes a new refund once the first is `completed` (spec §3), so each
 * transaction's refunds are read first; a completed one (and none active) fails the item, sent
 * nothing. A `failed` refund refunded nothing, and an active one is answered with itself.
 */

import { AlreadyRefundedError, requestRefunds } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { collect, setup } from './support';

describe('requestRefunds with unlessRefunded', () => {
  it('fails a transaction already refunded, sending nothing for it, and requests the others', async () => {
    const { mock, seller, refundPosts } = setup({ refundPolls: 0 });
    const failed = mock.addTransaction();
    mock.refundOutcome(failed, 'failed', { polls: 0 });
    await seller.refunds.request(failed);
    await seller.refunds.waitForCompletion(failed, { interval: 1 });
    const past = mock.transactions.withPastRefund;
    const active = mock.transactions.withActiveRefund;
    const fresh = mock.addTransaction();
    const [completed] = await seller.refunds.list(past);
    const before = refundPosts();

    const job = requestRefunds(seller, [past, active, fresh, failed], { unlessRefunded: true });
    const outcomes = Object.fromEntries((await collect(job)).map((o) => [o.key, o]));

    const refused = outcomes[past]!;
    expect(refused).toMatchObject({ status: 'failed', inDoubt: false });
    const error = refused.status === 'failed' ? refused.error : undefined;
    expect(error).toBeInstanceOf(AlreadyRefundedError);
    expect(error).toMatchObject({ transactionHash: past, refund: completed });
    expect((error as Error).message).toContain(completed!.hash);
    expect(refundPosts(past)).toBe(0);
    expect(outcomes[active]).toMatchObject({ status: 'existing' });
    expect(outcomes[fresh]).toMatchObject({ status: 'succeeded' });
    expect(outcomes[failed]).toMatchObject({ status: 'succeeded' });
    expect(await job).toMatchObject({ succeeded: 2, existing: 1, failed: 1 });
    expect(refundPosts() - before).toBe(3);
  });

  it('sends the request when the read answers 404, a service that reads no refunds as not found', async () => {
    const { mock, seller, refundPosts } = setup({ refundPolls: 0 });
    const fresh = mock.addTransaction();
    mock.failNext({ status: 404, method: 'GET', path: `/financial/refund/${fresh}` });
    const outcomes = await collect(requestRefunds(seller, [fresh], { unlessRefunded: true }));
    expect(outcomes).toEqual([expect.objectContaining({ key: fresh, status: 'succeeded' })]);
    expect(refundPosts(fresh)).toBe(1);
  });

  it('is off by default: the job requests what it is given, as refunds.request does', async () => {
    const { mock, seller, refundsOf } = setup();
    const past = mock.transactions.withPastRefund;
    const outcomes = await collect(requestRefunds(seller, [past]));
    expect(outcomes).toEqual([expect.objectContaining({ key: past, status: 'succeeded' })]);
    expect(await refundsOf(past)).toHaveLength(2);
  });
});
