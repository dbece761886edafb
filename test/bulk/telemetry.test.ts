import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { requestRefunds } from '../../src/bulk';
import { makeOtel, shape, spanTree, useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

const otel = useOtel();

describe('telemetry of a bulk job', () => {
  it('records the job span, a span per item under it with its outcome and the item calls under that', async () => {
    const { mock, seller } = kit();
    await seller.refunds.list(mock.transactions.withActiveRefund); // logged in
    otel().exporter.reset();
    const fresh = mock.addTransaction(1200);
    const items = [fresh, mock.transactions.withActiveRefund, 'trx_does_not_exist'];
    const summary = await requestRefunds(seller, items, { concurrency: 2 });
    expect(summary.total).toBe(3);
    const [job, ...others] = spanTree(otel().spans());
    expect(others).toEqual([]);
    expect(job!.name).toBe('bulk.job');
    expect(job!.children.map((item) => item.name)).toEqual(['bulk.item', 'bulk.item', 'bulk.item']);
    const outcomes = job!.children.map((item) => item.attributes['partner_sdk.bulk.outcome']);
    expect(outcomes.sort()).toEqual(['existing', 'failed', 'succeeded']);
    const failed = job!.children.find(
      (item) => item.attributes['partner_sdk.bulk.outcome'] === 'failed',
    );
    expect([failed?.status, failed?.attributes['error.type']]).toEqual([
      SpanStatusCode.ERROR,
      'NotFoundError',
    ]);
    expect(job!.status).toBe(SpanStatusCode.UNSET);
    for (const item of job!.children) {
      if (item !== failed) expect(item.status).toBe(SpanStatusCode.UNSET);
      expect(item.children.map((call) => call.name)).toEqual(['refunds.request']);
      expect(item.children[0]!.children[0]!.attributes['url.template']).toBe(
        '/financial/refund/{transactionHash}',
      );
    }
    const counted = (await otel().points()).filter(
      (point) => point.metric === 'partner_sdk.bulk.items',
    );
    expect(
      counted.map((point) => [point.attributes['partner_sdk.bulk.outcome'], point.value]).sort(),
    ).toEqual([
      ['existing', 1],
      ['failed', 1],
      ['succeeded', 1],
    ]);
    expect(
      JSON.stringify(
        otel()
          .spans()
          .map((s) => [s.attributes, s.events]),
      ),
    ).not.toContain(fresh);
  });

  it('records nothing of a job on a client made with telemetry: false, even with providers registered', async () => {
    const { mock, seller } = kit({ telemetry: false });
    const summary = await requestRefunds(seller, [mock.addTransaction(1200)], { concurrency: 2 });
    expect(summary.succeeded).toBe(1);
    expect(otel().spans()).toEqual([]);
    expect(await otel().points()).toEqual([]);
  });

  it("records a job on its client's own providers, its calls under its item spans there", async () => {
    const own = makeOtel();
    const { mock, seller } = kit({
      telemetry: { tracerProvider: own.tracerProvider, meterProvider: own.meterProvider },
    });
    await seller.refunds.list(mock.transactions.withActiveRefund); // logged in
    own.exporter.reset();
    await requestRefunds(seller, [mock.addTransaction(1200)]);
    expect(shape(spanTree(own.spans()))).toEqual([
      'bulk.job',
      ['bulk.item', ['refunds.request', ['POST /financial/refund/{transactionHash}']]],
    ]);
    expect((await own.points()).map((point) => point.metric)).toContain('partner_sdk.bulk.items');
    expect(otel().spans()).toEqual([]);
    await own.tracerProvider.shutdown();
    await own.meterProvider.shutdown();
  });

  it('keeps the telemetry option of the job over its client’s', async () => {
    const { mock, seller } = kit({ telemetry: false });
    await requestRefunds(seller, [mock.addTransaction(1200)], { telemetry: {} });
    expect(
      otel()
        .spans()
        .map((span) => span.name),
    ).toEqual(['bulk.item', 'bulk.job']);
  });
});
