/**
 * The tracing guide's other two reconciliation verdicts (`found` is in refund-and-context): `none`,
 * the request sent again, and `unknown`, the call failed with `OutcomeUnknownError` as its span's
 * `error.type`.
 */

import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../../src/index';
import { createMockPartnerApi } from '../../src/testing/index';
import { shape, spanTree, useOtel } from '../helpers/otel-harness';
import { kit, losingRefundPost } from '../helpers/virtual-kit';

const otel = useOtel();

const verdicts = async () =>
  (await otel().points())
    .filter((point) => point.metric === 'partner_sdk.reconciliations')
    .map((point) => [point.attributes['partner_sdk.reconciliation.verdict'], point.value]);

describe('the reconciliation verdict of a refund request whose answer was lost', () => {
  it('is none when the lost attempt created nothing: the request is sent again', async () => {
    const mock = createMockPartnerApi();
    const transaction = mock.addTransaction(5000);
    const { seller } = kit({ fetch: losingRefundPost(mock, { lost: 'request' }) }, mock);
    await expect(seller.refunds.request(transaction)).resolves.toMatchObject({
      kind: 'accepted',
    });
    const [call] = spanTree(otel().spans());
    expect(shape([call!])).toEqual([
      'refunds.request',
      [
        'auth.login',
        ['POST /auth'],
        'POST /financial/refund/{transactionHash}',
        'refunds.findCreatedSince',
        ['GET /financial/refund/{transactionHash}'],
        'POST /financial/refund/{transactionHash}',
      ],
    ]);
    expect(call!.events.map((event) => event.name)).toEqual([
      'partner_sdk.login',
      'partner_sdk.retry',
      'partner_sdk.reconciliation',
    ]);
    expect(call!.events[2]!.attributes).toEqual({ 'partner_sdk.reconciliation.verdict': 'none' });
    expect(call!.status).toBe(SpanStatusCode.UNSET);
    expect(await verdicts()).toEqual([['none', 1]]);
  });

  it('is unknown when the refunds cannot be read: the call fails as OutcomeUnknownError, sent once', async () => {
    const mock = createMockPartnerApi();
    const transaction = mock.addTransaction(5000);
    const { seller } = kit(
      { fetch: losingRefundPost(mock, { lost: 'request', readsFail: true }) },
      mock,
    );
    const error = await seller.refunds.request(transaction).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    const [call] = spanTree(otel().spans());
    expect(call!.status).toBe(SpanStatusCode.ERROR);
    expect(call!.attributes['error.type']).toBe('OutcomeUnknownError');
    expect(call!.events.at(-1)).toEqual({
      name: 'partner_sdk.reconciliation',
      attributes: { 'partner_sdk.reconciliation.verdict': 'unknown' },
    });
    const posts = call!.children.filter((child) => child.name.startsWith('POST /financial'));
    expect(posts).toHaveLength(1);
    expect(await verdicts()).toEqual([['unknown', 1]]);
    const durations = (await otel().points()).filter(
      (point) =>
        point.metric === 'partner_sdk.operation.duration' &&
        point.attributes['partner_sdk.operation'] === 'refunds.request',
    );
    expect(durations.map((point) => point.attributes)).toEqual([
      {
        'partner_sdk.operation': 'refunds.request',
        'partner_sdk.outcome': 'error',
        'error.type': 'OutcomeUnknownError',
      },
    ]);
  });
});
