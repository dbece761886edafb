/**
 * The kit's event factories take payload fields to override: a field of a nested object
 * (`commissions.transaction_hash`, as spec §6.1 names it) replaces that field only, so an event
 * given the transaction to refund still names its producer. Through `partner-sdk/testing`.
 */

import { subscriptionEndedEvent } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';

describe('subscriptionEndedEvent overrides', () => {
  it('replaces one field of commissions and keeps its other fields', () => {
    const { payload } = subscriptionEndedEvent({ commissions: { transaction_hash: 'trx_1' } });
    expect(payload.commissions).toMatchObject({
      transaction_hash: 'trx_1',
      paid_amount: 1990,
      items: [{ type: 'producer' }, { type: 'affiliate' }],
    });
  });

  it('replaces one field of buyer and keeps the other', () => {
    const { payload } = subscriptionEndedEvent({ buyer: { email: 'ana@example.com' } });
    expect(payload.buyer).toEqual({ name: 'João Pedro Almeida', email: 'ana@example.com' });
  });

  it('replaces an array whole', () => {
    const items = [
      { type: 'producer', amount: 1, user: { code: 'usr_1', name: 'A', email: 'a@b.c' } },
    ];
    const { payload } = subscriptionEndedEvent({ commissions: { items } });
    expect(payload.commissions).toEqual({
      transaction_hash: 'trx_8Sb3Ub52',
      paid_amount: 1990,
      items,
    });
  });
});
