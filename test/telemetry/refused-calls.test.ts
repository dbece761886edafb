/**
 * The tracing guide's promise for a failed call holds for one refused before anything is sent (an
 * empty path parameter, a parameter past its documented limit, a request option of the wrong
 * shape): one span per SDK call, status `ERROR` with the SDK's error class as its `error.type`,
 * and one `partner_sdk.operation.duration` point with the outcome `error`. Error-rate dashboards
 * count these calls too.
 */

import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { PartnerError, RequestValidationError } from '../../src/index';
import { spanTree, useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

const otel = useOtel();

/** The call's spans and its duration points, once it was refused with `errorClass`. */
async function recordedRefusal(
  call: Promise<unknown>,
  errorClass: abstract new (...args: never[]) => PartnerError,
) {
  await expect(call).rejects.toBeInstanceOf(errorClass);
  const durations = (await otel().points()).filter(
    (point) => point.metric === 'partner_sdk.operation.duration',
  );
  return { spans: spanTree(otel().spans()), durations: durations.map((point) => point.attributes) };
}

describe('a call refused before anything is sent', () => {
  it('records its span, failed with error.type, for an empty path parameter', async () => {
    const { mock, seller } = kit();
    const { spans, durations } = await recordedRefusal(
      seller.refunds.request('', {}),
      RequestValidationError,
    );
    expect(spans).toHaveLength(1);
    const [call] = spans;
    expect(call!.name).toBe('refunds.request');
    expect(call!.status).toBe(SpanStatusCode.ERROR);
    expect(call!.attributes).toEqual({
      'partner_sdk.operation': 'refunds.request',
      'error.type': 'RequestValidationError',
    });
    // Nothing was sent: no attempt under it, and the mock saw no refund request.
    expect(call!.children).toEqual([]);
    expect(mock.requests.filter((request) => request.method === 'POST')).toEqual([]);
    expect(durations).toEqual([
      {
        'partner_sdk.operation': 'refunds.request',
        'partner_sdk.outcome': 'error',
        'error.type': 'RequestValidationError',
      },
    ]);
  });

  it('records its duration point for a parameter past its documented limit', async () => {
    const { mock, seller } = kit();
    const transaction = mock.addTransaction(1500);
    const { spans, durations } = await recordedRefusal(
      seller.refunds.request(transaction, { reason: 'x'.repeat(1001) }),
      RequestValidationError,
    );
    expect(spans.map((span) => [span.name, span.status])).toEqual([
      ['refunds.request', SpanStatusCode.ERROR],
    ]);
    expect(durations).toEqual([
      {
        'partner_sdk.operation': 'refunds.request',
        'partner_sdk.outcome': 'error',
        'error.type': 'RequestValidationError',
      },
    ]);
  });

  it('records them for a request option of the wrong shape, with its error class', async () => {
    const { mock, client } = kit();
    const { spans, durations } = await recordedRefusal(
      client.products.retrieve(mock.products.ebook.hash, { timeout: -1 }),
      PartnerError,
    );
    expect(spans.map((span) => span.attributes)).toEqual([
      { 'partner_sdk.operation': 'products.retrieve', 'error.type': 'PartnerError' },
    ]);
    expect(durations).toEqual([
      {
        'partner_sdk.operation': 'products.retrieve',
        'partner_sdk.outcome': 'error',
        'error.type': 'PartnerError',
      },
    ]);
  });
});
