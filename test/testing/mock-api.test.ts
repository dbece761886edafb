import { describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing';
import { call, clientHeaders } from './helpers';

describe('createMockPartnerApi', () => {
  it('gives each mock fresh state: what one mock is told never shows in the next', async () => {
    const first = createMockPartnerApi();
    const { course } = first.products;
    const offer = `/products/${course.hash}/offers/${course.offerCode}`;
    expect((await call(first, 'PUT', offer, { name: 'Changed', price: 100 })).status).toBe(200);
    const trx = first.transactions.refundable[0]!;
    expect((await call(first, 'POST', `/financial/refund/${trx}`, {})).status).toBe(202);
    const confirmed = first.anticipations.confirmable[0]!;
    const confirm = `/financial/anticipation/confirm/${confirmed}`;
    expect((await call(first, 'POST', confirm, { scenario: 'above' })).status).toBe(200);
    first.enablePixRecurring(first.products.recurring.producerCode);
    first.failNext({ status: 503 });

    const second = createMockPartnerApi();
    expect(second.requests).toEqual([]);
    expect(second.getOffer(course.hash, course.offerCode)).toMatchObject({ price: 29700 });
    expect(second.getOffer(course.hash, course.offerCode)?.name).not.toBe('Changed');
    expect((await call(second, 'GET', `/financial/refund/${trx}`)).body.data).toEqual([]);
    const list = await call(second, 'GET', '/financial/anticipation?per_page=100');
    expect(list.body.data.anticipations.map((a: { hash: string }) => a.hash)).not.toContain(
      confirmed,
    );
    // Neither the client token of the first mock nor its queued fault reaches the second.
    const foreign = await second.fetch(`${second.baseUrl}/products`, {
      headers: clientHeaders(first),
    });
    expect(foreign.status).toBe(401);
    expect((await call(second, 'GET', '/products')).status).toBe(200);
  });
});
