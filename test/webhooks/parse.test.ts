import { describe, expect, expectTypeOf, it } from 'vitest';
import { PartnerError } from '../../src/core/errors';
import {
  type BankAccountUpdatedEvent,
  type GenericWebhookEvent,
  isKnownWebhookEvent,
  parseWebhookEvent,
  type SubscriptionEndedEvent,
  WebhookPayloadError,
} from '../../src/webhooks';
import {
  bankAccountDeletedBody,
  bankAccountReprovedBody,
  bankAccountUpdatedBody,
  subscriptionEndedBody,
  userUpdatedBody,
} from '../helpers/webhook-bodies';

function parseError(body: unknown): WebhookPayloadError {
  try {
    parseWebhookEvent(body);
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect(error).toBeInstanceOf(PartnerError);
    return error as WebhookPayloadError;
  }
  throw new Error('expected parseWebhookEvent to throw');
}

describe('parseWebhookEvent', () => {
  it('reads subscription_ended into its typed payload', () => {
    const event = parseWebhookEvent(JSON.stringify(subscriptionEndedBody));

    expect(event.event).toBe('subscription_ended');
    if (!isKnownWebhookEvent(event) || event.event !== 'subscription_ended') {
      throw new Error('expected a typed subscription_ended event');
    }
    expectTypeOf(event).toEqualTypeOf<SubscriptionEndedEvent>();
    expectTypeOf(event.payload.end_reason).toEqualTypeOf<
      'completed' | 'delinquency' | (string & {}) | null | undefined
    >();
    expect(event.payload.end_reason).toBe('completed');
    expect(event.payload.subscription_code).toBe('sub_7Hq2LmX9');
    expect(event.payload.total_charges).toBe(12);
    expect(event.payload.commissions?.paid_amount).toBe(9700);
    expect(event.payload.commissions?.items?.map((item) => [item.type, item.amount])).toEqual([
      ['producer', 7760],
      ['affiliate', 1940],
    ]);
    expect(event.payload.commissions?.items?.[1]?.user?.code).toBe('usr_aff1');
    expect(event.payload.buyer?.email).toBe('maria@example.com');
    expect(event.metadata?.request_id).toBe('req_01HQ8Z3K4M5N6P7Q8R9S');
    expect(event.metadata?.correlation_id).toBeNull();
    expect(event.created_at).toBe('2025-03-14T12:30:45.654321Z');
  });

  it('reads a delinquency ending', () => {
    const body = {
      ...subscriptionEndedBody,
      payload: { ...subscriptionEndedBody.payload, end_reason: 'delinquency', total_charges: 3 },
    };
    const event = parseWebhookEvent(body);
    expect(isKnownWebhookEvent(event) && event.event === 'subscription_ended').toBe(true);
    expect((event as SubscriptionEndedEvent).payload.end_reason).toBe('delinquency');
  });

  it('reads bank_account_updated with a null reason and bank_document', () => {
    const event = parseWebhookEvent(JSON.stringify(bankAccountUpdatedBody));
    if (!isKnownWebhookEvent(event) || event.event !== 'bank_account_updated') {
      throw new Error('expected a typed bank_account_updated event');
    }
    expectTypeOf(event.payload.reason).toEqualTypeOf<string | null | undefined>();
    expectTypeOf(event.payload.status).toEqualTypeOf<
      'approved' | 'pending' | 'reproved' | (string & {}) | null | undefined
    >();
    expect(event.payload).toEqual(bankAccountUpdatedBody.payload);
    expect(event.payload.reason).toBeNull();
    expect(event.payload.bank_document).toBeNull();
  });

  it('reads a reproved bank account with its reason, document and an unlisted receiver_type', () => {
    const event = parseWebhookEvent(bankAccountReprovedBody);
    if (!isKnownWebhookEvent(event) || event.event !== 'bank_account_updated') {
      throw new Error('expected a typed bank_account_updated event');
    }
    expect(event.payload.status).toBe('reproved');
    expect(event.payload.reason).toBe('Holder name does not match the tax id');
    expect(event.payload.receiver_type).toBe('checking_account');
    expect(event.payload.bank_document).toEqual(bankAccountReprovedBody.payload.bank_document);
  });

  it('reads bank_account_deleted with the shared bank-account payload', () => {
    const event = parseWebhookEvent(bankAccountDeletedBody);
    if (!isKnownWebhookEvent(event) || event.event !== 'bank_account_deleted') {
      throw new Error('expected a typed bank_account_deleted event');
    }
    expect(event.payload.code).toBe('bnk_55aa77');
    expect(event.payload.pix_key).toBe('maria@example.com');
  });

  it('keeps an event of any other name as a generic event with its payload intact', () => {
    const event = parseWebhookEvent(JSON.stringify(userUpdatedBody));
    expect(isKnownWebhookEvent(event)).toBe(false);
    if (isKnownWebhookEvent(event)) return;
    expectTypeOf(event).toEqualTypeOf<GenericWebhookEvent>();
    expect(event.event).toBe('user_updated');
    expect(event.payload).toEqual(userUpdatedBody.payload);
    expect(event).toEqual(userUpdatedBody);

    const invented = { event: 'fee_tier_deleted', payload: { anything: [1, { nested: true }] } };
    expect(parseWebhookEvent(invented)).toEqual(invented);
  });

  it('keeps keys the spec does not list, on the envelope and in a typed payload', () => {
    const body = {
      ...subscriptionEndedBody,
      version: 2,
      payload: { ...subscriptionEndedBody.payload, next_product_hash: 'prd_next' },
    };
    const event = parseWebhookEvent(body) as SubscriptionEndedEvent;
    expect(event).toEqual(body);
  });

  it('accepts the body as text, bytes, a Buffer, an ArrayBuffer or an already-parsed value', () => {
    const text = JSON.stringify(subscriptionEndedBody);
    const bytes = new TextEncoder().encode(text);
    const forms: unknown[] = [
      text,
      `\uFEFF${text}`,
      bytes,
      Buffer.from(text),
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      JSON.parse(text),
    ];
    for (const form of forms) expect(parseWebhookEvent(form)).toEqual(subscriptionEndedBody);
  });

  it('refuses a body that is not JSON with a clear message', () => {
    const error = parseError('<html>Bad gateway</html>');
    expect(error.message).toMatch(/not JSON/);
    expect(error.issues).toEqual([]);
    expect(parseError('').message).toMatch(/empty/);
    expect(parseError(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])).message).toMatch(/UTF-8/);
  });

  it('quotes the start of a body that is not JSON cut between characters, never inside an emoji', () => {
    const error = parseError(`${'x'.repeat(39)}${'😀'.repeat(10)}`);
    expect(error.message).not.toMatch(/\p{Cs}/u);
    expect(error.message).toContain(`(starts with "${'x'.repeat(39)}…")`);
  });

  it('refuses JSON that is not an event envelope, saying where', () => {
    expect(parseError('[1,2]').issues).toMatchObject([{ path: [], code: 'invalid_type' }]);
    expect(parseError(null).issues).toMatchObject([{ path: [], code: 'invalid_type' }]);

    const noName = parseError({ payload: {} });
    expect(noName.issues).toMatchObject([
      { path: ['event'], code: 'invalid_type', message: 'required (expected string)' },
    ]);
    expect(noName.message).toMatch(/event: required/);

    expect(parseError({ event: 'user_updated', payload: 'text' }).issues).toMatchObject([
      { path: ['payload'], code: 'invalid_type' },
    ]);
  });

  it('keeps an end_reason or account status the spec does not list, so no delivery is lost', () => {
    const event = parseWebhookEvent({
      ...subscriptionEndedBody,
      payload: { ...subscriptionEndedBody.payload, end_reason: 'cancelled_by_buyer' },
    }) as SubscriptionEndedEvent;
    expect(event.payload.end_reason).toBe('cancelled_by_buyer');
    const bank = parseWebhookEvent({
      ...bankAccountUpdatedBody,
      payload: { ...bankAccountUpdatedBody.payload, status: 'under_review' },
    }) as BankAccountUpdatedEvent;
    expect(bank.payload.status).toBe('under_review');
  });

  it('refuses a typed event whose payload breaks the documented shape', () => {
    const wrong = {
      ...subscriptionEndedBody,
      payload: { ...subscriptionEndedBody.payload, end_reason: 7, total_charges: 'twelve' },
    };
    const error = parseError(wrong);
    expect(error.message).toMatch(/subscription_ended/);
    expect(error.issues).toEqual([
      expect.objectContaining({ path: ['payload', 'end_reason'], code: 'invalid_type' }),
      expect.objectContaining({
        path: ['payload', 'total_charges'],
        code: 'invalid_type',
        message: 'expected number, received string',
      }),
    ]);

    const noCode = { ...bankAccountUpdatedBody, payload: { status: 'approved' } };
    expect(parseError(noCode).issues).toMatchObject([{ path: ['payload', 'code'] }]);
    expect(parseError({ event: 'bank_account_deleted' }).issues).toMatchObject([
      { path: ['payload'] },
    ]);
  });

  it('never lets a __proto__ or constructor key reach a prototype, nor stand in for a typed field', () => {
    const text = JSON.stringify({
      ...subscriptionEndedBody,
      payload: { ...subscriptionEndedBody.payload, buyer: { name: 'Ana' } },
      metadata: { ...subscriptionEndedBody.metadata },
    })
      .replace('"buyer":{', '"buyer":{"__proto__":{"email":"attacker@example.com"},')
      .replace(
        '"metadata":{',
        '"metadata":{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":true}},',
      );
    const event = parseWebhookEvent(text);
    expect(isKnownWebhookEvent(event) && event.event === 'subscription_ended').toBe(true);
    const payload = (event as SubscriptionEndedEvent).payload;
    expect(payload.buyer?.email).toBeUndefined();
    expect(Object.getPrototypeOf(payload.buyer)).toBe(Object.prototype);
    expect((event.metadata as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // A required field offered only through __proto__ is missing, not inherited.
    const smuggled = JSON.stringify(bankAccountUpdatedBody).replace(
      '"code":',
      '"__proto__":{"code":"acc_1"},"other_code":',
    );
    expect(parseError(smuggled).issues).toMatchObject([{ path: ['payload', 'code'] }]);
    // An unknown event's payload: the key never becomes its prototype either.
    const generic = parseWebhookEvent(
      '{"event":"order_created","payload":{"__proto__":{"paid":true},"id":"o1"}}',
    );
    expect(generic.payload?.paid).toBeUndefined();
    expect(Object.getPrototypeOf(generic.payload)).toBe(Object.prototype);
  });
});
