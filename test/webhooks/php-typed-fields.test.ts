/**
 * A PHP sender may write an integer the spec shows as a string of digits (a column read as text),
 * and a numeric code the spec shows as text (a bank code, an account number) as a number. Such a
 * delivery is the event the spec describes: refusing it with 400 would lose it, since the sender
 * may never deliver it again. Anything further from the spec is still refused.
 */

import { describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  defaultDedupeKey,
  isKnownWebhookEvent,
  parseWebhookEvent,
  type WebhookEvent,
  WebhookPayloadError,
} from '../../src/webhooks';
import {
  bankAccountUpdatedBody,
  subscriptionEndedBody,
  userUpdatedBody,
} from '../helpers/webhook-bodies';

function subscriptionEnded(payload: Record<string, unknown>): WebhookEvent {
  return parseWebhookEvent(
    JSON.stringify({
      ...subscriptionEndedBody,
      payload: { ...subscriptionEndedBody.payload, ...payload },
    }),
  );
}

describe('a delivery written by PHP', () => {
  it('reads integers sent as strings of digits as the integers', () => {
    const event = subscriptionEnded({
      total_charges: '12',
      commissions: {
        transaction_hash: 'trx_1',
        paid_amount: '-4990',
        items: [{ type: 'producer', amount: '4000', user: { code: 'u1' } }],
      },
    });
    if (!isKnownWebhookEvent(event) || event.event !== 'subscription_ended')
      throw new Error('untyped');
    expect(event.payload.total_charges).toBe(12);
    expect(event.payload.commissions?.paid_amount).toBe(-4990);
    expect(event.payload.commissions?.items?.[0]?.amount).toBe(4000);
  });

  it('reads numeric codes sent as numbers as their digits', () => {
    const event = parseWebhookEvent(
      JSON.stringify({
        ...bankAccountUpdatedBody,
        payload: {
          ...bankAccountUpdatedBody.payload,
          bank_code: 341,
          account_number: 123456,
          branch_check_digit: 0,
        },
      }),
    );
    if (!isKnownWebhookEvent(event) || event.event !== 'bank_account_updated')
      throw new Error('untyped');
    expect(event.payload.bank_code).toBe('341');
    expect(event.payload.account_number).toBe('123456');
    expect(event.payload.branch_check_digit).toBe('0');
  });

  it('handles any event whose metadata carries its tracking ids as numbers, reading them as their digits', async () => {
    // The envelope is every event's, named or not: a 400 there would lose whichever event it is.
    const handled: WebhookEvent[] = [];
    const receiver = createWebhookHandler({
      logLevel: 'off',
      verify: () => true,
      dedupe: true,
      onUnknown: (event) => void handled.push(event),
    });
    const metadata = { origin: 7, request_id: 918273645, correlation_id: 42 };
    const deliver = () =>
      receiver.fetch(
        new Request('https://partner.example.com/webhooks/partner', {
          method: 'POST',
          body: JSON.stringify({ ...userUpdatedBody, metadata }),
        }),
      );
    expect((await deliver()).status).toBe(200);
    expect(handled.map((event) => event.metadata)).toEqual([
      { origin: '7', request_id: '918273645', correlation_id: '42' },
    ]);
    expect(await (await deliver()).json()).toEqual({ received: true, duplicate: true });
    expect(await defaultDedupeKey(handled[0] as WebhookEvent)).toMatch(/^user_updated:918273645:/);
  });

  it.each([
    ['a fraction', 3.5],
    ['a boolean', false],
  ])('still refuses a tracking id holding %s', (_, value) => {
    expect(() =>
      parseWebhookEvent(JSON.stringify({ ...userUpdatedBody, metadata: { request_id: value } })),
    ).toThrow(WebhookPayloadError);
  });

  it.each([
    ['a fraction', '12.5'],
    ['an exponent', '1e3'],
    ['spaces', ' 12'],
    ['a sign alone', '-'],
    ['digits past what a number holds exactly', '12345678901234567890'],
    ['words', 'twelve'],
    ['a boolean', true],
  ])('still refuses an integer field holding %s', (_, value) => {
    expect(() => subscriptionEnded({ total_charges: value })).toThrow(WebhookPayloadError);
  });

  it.each([
    ['a fraction', 3.5],
    ['a boolean', false],
    ['an object', { code: 1 }],
  ])('still refuses a text field holding %s', (_, value) => {
    expect(() =>
      parseWebhookEvent(
        JSON.stringify({
          ...bankAccountUpdatedBody,
          payload: { ...bankAccountUpdatedBody.payload, bank_code: value },
        }),
      ),
    ).toThrow(WebhookPayloadError);
  });
});
