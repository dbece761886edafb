/**
 * Trace context from the producer to the worker, with the real OpenTelemetry SDK registered
 * globally (in-memory exporter, async-hooks context manager, no propagator: the W3C format): the
 * job a producer enqueues inside a span carries that span's context, and the worker's job span
 * goes on in the producer's trace, under its span. Nothing but the W3C fields travels.
 */

import { context, propagation, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { enqueueRefunds, type RefundJobData, refundProcessor } from '../../src/bullmq';
import { capturingQueue } from '../helpers/capturing-queue';
import { throwingContextManager, useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

const otel = useOtel();

describe('trace context from producer to worker', () => {
  it('the worker’s job span is in the producer’s trace, under the span the producer enqueued in', async () => {
    const { mock, seller } = kit();
    const transaction = mock.addTransaction(3100);
    const { queue, added } = capturingQueue();
    const tracer = trace.getTracer('partner-app');
    const producer = await tracer.startActiveSpan('refund-cohort', async (span) => {
      await enqueueRefunds(queue, [{ transactionHash: transaction }]);
      span.end();
      return span.spanContext();
    });
    const data = JSON.parse(JSON.stringify(added[0]!.data)) as RefundJobData;
    // Only the W3C fields travel: no token, no secret, nothing of the client.
    expect(Object.keys(data.trace!)).toEqual(['traceparent']);
    expect(data.trace!.traceparent).toBe(`00-${producer.traceId}-${producer.spanId}-01`);

    // The worker runs it elsewhere: no span active there.
    const process = refundProcessor(seller, { queue: { rateLimit: async () => {} } });
    const job = { id: 'refund-request/x', data, timestamp: Date.now(), attemptsMade: 0 };
    await context.with(
      context.active().deleteValue(Symbol.for('OpenTelemetry Context Key SPAN')),
      () => process(job),
    );
    const jobSpan = otel()
      .spans()
      .find((s) => s.name === 'bullmq.refunds.request')!;
    expect(jobSpan.spanContext().traceId).toBe(producer.traceId);
    expect(jobSpan.parentSpanContext?.spanId).toBe(producer.spanId);
    const call = otel()
      .spans()
      .find((s) => s.name === 'refunds.request')!;
    expect(call.spanContext().traceId).toBe(producer.traceId);
    expect(JSON.stringify(data.trace)).not.toContain(mock.credentials.clientSecret);
  });

  it('a producer outside any span writes no trace context; a malformed one is ignored by the worker', async () => {
    const { mock, seller } = kit();
    const transaction = mock.addTransaction(3100);
    const { queue, added } = capturingQueue();
    await enqueueRefunds(queue, [{ transactionHash: transaction }]);
    expect(added[0]!.data).toEqual({ transactionHash: transaction });

    const process = refundProcessor(seller, { queue: { rateLimit: async () => {} } });
    const data = { transactionHash: transaction, trace: { traceparent: 'not-a-traceparent' } };
    await process({ id: 'refund-request/y', data, timestamp: Date.now(), attemptsMade: 0 });
    const jobSpan = otel()
      .spans()
      .find((s) => s.name === 'bullmq.refunds.request')!;
    expect(jobSpan.parentSpanContext).toBeUndefined();
  });

  it("a partner's propagator that throws fails neither the enqueue nor the job: no context travels", async () => {
    const broken = () => {
      throw new Error('propagator failed');
    };
    propagation.setGlobalPropagator({ inject: broken, extract: broken, fields: () => [] });
    try {
      const { mock, seller } = kit();
      const transaction = mock.addTransaction(3100);
      const { queue, added } = capturingQueue();
      await trace.getTracer('partner-app').startActiveSpan('refund-cohort', async (span) => {
        await enqueueRefunds(queue, [{ transactionHash: transaction }]);
        span.end();
      });
      expect(added[0]!.data).toEqual({ transactionHash: transaction });

      const process = refundProcessor(seller, { queue: { rateLimit: async () => {} } });
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      const data = { transactionHash: transaction, trace: { traceparent } };
      const result = await process({
        id: 'refund-request/z',
        data,
        timestamp: Date.now(),
        attemptsMade: 0,
      });
      expect(result.status).toBe('succeeded');
      const jobSpan = otel()
        .spans()
        .find((s) => s.name === 'bullmq.refunds.request')!;
      expect(jobSpan.parentSpanContext).toBeUndefined();
    } finally {
      propagation.disable();
    }
  });

  it('a context manager that throws fails neither the enqueue nor the job', async () => {
    context.disable();
    context.setGlobalContextManager(throwingContextManager());
    const { mock, seller } = kit();
    const transaction = mock.addTransaction(3100);
    const { queue, added } = capturingQueue();
    await enqueueRefunds(queue, [{ transactionHash: transaction }]);
    expect(added[0]!.data).toEqual({ transactionHash: transaction });

    const process = refundProcessor(seller, { queue: { rateLimit: async () => {} } });
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const data = { transactionHash: transaction, trace: { traceparent } };
    const job = { id: 'refund-request/w', data, timestamp: Date.now(), attemptsMade: 0 };
    expect((await process(job)).status).toBe('succeeded');
  });
});
