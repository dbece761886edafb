import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing/index';
import { shape, spanTree, useOtel } from '../helpers/otel-harness';
import { kit, losingRefundPost } from '../helpers/virtual-kit';
import { sleep } from '../helpers/waits';

const otel = useOtel();

describe('telemetry of a reconciled refund and of context across awaits', () => {
  it('records a refund whose answer was lost: the failed attempt, the retry, the reconciliation found and no replay', async () => {
    const mock = createMockPartnerApi();
    const transaction = mock.addTransaction(5000);
    const { seller } = kit({ fetch: losingRefundPost(mock, { lost: 'answer' }) }, mock);
    const result = await seller.refunds.request(transaction, { reason: 'Customer asked' });
    expect(result).toMatchObject({ kind: 'existing', recovered: true });
    const [call] = spanTree(otel().spans());
    expect(shape([call!])).toEqual([
      'refunds.request',
      [
        'auth.login',
        ['POST /auth'],
        'POST /financial/refund/{transactionHash}',
        'refunds.findCreatedSince',
        ['GET /financial/refund/{transactionHash}'],
      ],
    ]);
    const attempt = call!.children[1]!;
    expect(attempt.attributes['error.type']).toBe('ECONNRESET');
    expect(attempt.attributes['http.response.status_code']).toBeUndefined();
    expect(call!.events.map((event) => [event.name, event.attributes])).toEqual([
      ['partner_sdk.login', {}],
      [
        'partner_sdk.retry',
        expect.objectContaining({
          'partner_sdk.retry.retry_after': false,
          'error.type': 'ECONNRESET',
        }),
      ],
      ['partner_sdk.reconciliation', { 'partner_sdk.reconciliation.verdict': 'found' }],
    ]);
    const counted = (await otel().points()).filter(
      (point) => point.metric === 'partner_sdk.reconciliations',
    );
    expect(counted).toEqual([
      {
        metric: 'partner_sdk.reconciliations',
        attributes: {
          'partner_sdk.operation': 'refunds.request',
          'partner_sdk.reconciliation.verdict': 'found',
        },
        value: 1,
      },
    ]);
    expect(
      JSON.stringify(
        otel()
          .spans()
          .map((s) => [s.attributes, s.events]),
      ),
    ).not.toContain(transaction);
  });

  it('keeps 100 concurrent calls each under its own parent span, across awaits', async () => {
    const { mock, client } = kit();
    const tracer = trace.getTracer('partner-app');
    const parents = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        tracer.startActiveSpan(`job ${index}`, async (parent) => {
          // Staggered starts, so the calls' awaits interleave.
          await sleep(index % 7);
          await client.products.retrieve(mock.products.hashes[index % 4]!);
          await client.products.retrieve(mock.products.hashes[(index + 1) % 4]!);
          parent.end();
          return parent.spanContext().spanId;
        }),
      ),
    );
    const spans = otel().spans();
    const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
    const calls = spans.filter((span) => span.name === 'products.retrieve');
    expect(calls).toHaveLength(200);
    for (const [index, parentId] of parents.entries()) {
      const children = calls.filter((span) => span.parentSpanContext?.spanId === parentId);
      expect(children, `job ${index}`).toHaveLength(2);
    }
    for (const attempt of spans.filter((span) => span.name === 'GET /products/{productHash}')) {
      expect(byId.get(attempt.parentSpanContext!.spanId)?.name).toBe('products.retrieve');
    }
    expect(spans.filter((span) => span.name === 'auth.login')).toHaveLength(1);
  });
});
