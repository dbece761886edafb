import { describe, expect, it } from 'vitest';
import { refundProcessor } from '../../src/bullmq';
import { spanTree, useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

const otel = useOtel();

/** A refund job as BullMQ hands it to a processor, after `attemptsMade` earlier attempts. */
const refundJob = (transaction: string, attemptsMade: number) => ({
  id: `refund:${transaction}`,
  data: { transactionHash: transaction },
  timestamp: Date.now(),
  attemptsMade,
});

describe('telemetry of BullMQ processors', () => {
  it('records a span per job with its outcome and the SDK calls under it, never the job id', async () => {
    const { mock, seller } = kit();
    const transaction = mock.addTransaction(3100);
    const process = refundProcessor(seller, { queue: { rateLimit: async () => {} } });
    const job = refundJob(transaction, 1);
    const result = await process(job);
    expect(result.status).toBe('succeeded');
    const [span, ...others] = spanTree(otel().spans());
    expect(others).toEqual([]);
    expect(span!.name).toBe('bullmq.refunds.request');
    expect(span!.attributes).toEqual({
      'messaging.system': 'bullmq',
      'messaging.operation.type': 'process',
      'partner_sdk.bullmq.attempt': 2,
      'partner_sdk.bulk.outcome': 'succeeded',
    });
    // A job BullMQ ran before reads the refunds first, then sends.
    expect(span!.children.map((call) => call.name)).toEqual([
      'refunds.findCreatedSince',
      'refunds.request',
    ]);
    expect(
      JSON.stringify(
        otel()
          .spans()
          .map((s) => [s.attributes, s.events]),
      ),
    ).not.toContain(transaction);
  });

  it('records nothing for a processor on a client made with telemetry: false, even with providers registered', async () => {
    const { mock, seller } = kit({ telemetry: false });
    const transaction = mock.addTransaction(3100);
    const process = refundProcessor(seller, { queue: { rateLimit: async () => {} } });
    const job = refundJob(transaction, 0);
    expect((await process(job)).status).toBe('succeeded');
    expect(otel().spans()).toEqual([]);
  });

  it('a processor of a function of the seller records its job span where its own telemetry option says, else with the registered providers, whatever its clients say', async () => {
    const { mock, client } = kit({ telemetry: false });
    const forSeller = () => client.forUser(mock.sellers.person.publicToken);
    const queue = { rateLimit: async () => {} };
    const job = (transactionHash: string) => ({
      ...refundJob(transactionHash, 0),
      data: { transactionHash, seller: 'acct-person' },
    });
    // No client when the processor is made: the job span goes to the registered providers, and
    // the calls of a client made with `telemetry: false` record nothing under it.
    expect((await refundProcessor(forSeller, { queue })(job(mock.addTransaction()))).status).toBe(
      'succeeded',
    );
    expect(spanTree(otel().spans()).map((s) => [s.name, s.children.length])).toEqual([
      ['bullmq.refunds.request', 0],
    ]);
    // The seller's reference is the partner's account id: never an attribute.
    expect(
      JSON.stringify(
        otel()
          .spans()
          .map((s) => s.attributes),
      ),
    ).not.toContain('acct-person');
    otel().exporter.reset();
    // The processor's own option says as the client's would.
    const off = refundProcessor(forSeller, { queue, telemetry: false });
    expect((await off(job(mock.addTransaction()))).status).toBe('succeeded');
    expect(otel().spans()).toEqual([]);
  });
});
