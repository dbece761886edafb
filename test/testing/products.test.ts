import { describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing';
import { call } from './helpers';

describe('mock API products and offers', () => {
  it('reads one product in the wire format', async () => {
    const mock = createMockPartnerApi();
    const res = await call(mock, 'GET', `/products/${mock.products.physical.hash}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      hash: mock.products.physical.hash,
      type: 'physical',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      metadata: { links: expect.any(Object) },
    });
    expect((await call(mock, 'GET', '/products/prd_missing')).status).toBe(404);
  });

  it('paginates the product list with meta', async () => {
    const mock = createMockPartnerApi();
    const first = await call(mock, 'GET', '/products?per_page=50');
    expect(first.body.meta).toEqual({ current_page: 1, last_page: 3, per_page: 50, total: 120 });
    expect(first.body.data).toHaveLength(50);
    const last = await call(mock, 'GET', '/products?page=3&per_page=50');
    expect(last.body.data).toHaveLength(20);
    expect(last.body.data.at(-1).hash).toBe(mock.products.hashes.at(-1));
    const byDefault = await call(mock, 'GET', '/products');
    expect(byDefault.body.meta.per_page).toBe(15);
  });

  it('refuses a page size over 50 with a Laravel 422', async () => {
    const mock = createMockPartnerApi();
    const res = await call(mock, 'GET', '/products?per_page=51');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ per_page: ['The per page must not be greater than 50.'] });
    expect(res.body.message).toBe(res.body.errors.per_page[0]);
  });

  it('updates an offer and answers the offer without the hidden settings', async () => {
    const mock = createMockPartnerApi();
    const { hash, offerCode } = mock.products.course;
    const res = await call(mock, 'PUT', `/products/${hash}/offers/${offerCode}`, {
      price: 0,
      name: 'Gratuito por tempo limitado',
      custom_commission: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: offerCode, price: 0, is_free: true });
    expect(res.body).not.toHaveProperty('custom_commission');
    expect(mock.getOffer(hash, offerCode)?.custom_commission).toBe(true);
  });

  it('saves automatic PIX as false, without error, until the producer is enabled', async () => {
    const mock = createMockPartnerApi();
    const { hash, offerCode, producerCode } = mock.products.recurring;
    const body = {
      allow_pix_recurring: true,
      pix_recurring_frequency: 'weekly',
      pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
    };
    const path = `/products/${hash}/offers/${offerCode}`;
    expect((await call(mock, 'PUT', path, body)).status).toBe(200);
    expect(mock.getOffer(hash, offerCode)?.allow_pix_recurring).toBe(false);

    mock.enablePixRecurring(producerCode);
    await call(mock, 'PUT', path, body);
    expect(mock.getOffer(hash, offerCode)?.allow_pix_recurring).toBe(true);

    mock.revokePixRecurring(producerCode);
    expect(mock.getOffer(hash, offerCode)?.allow_pix_recurring).toBe(false);
  });

  it('answers 422 with every broken rule of an offer body', async () => {
    const mock = createMockPartnerApi();
    const { hash, offerCode } = mock.products.course;
    const res = await call(mock, 'PUT', `/products/${hash}/offers/${offerCode}`, {
      price: 100_000_000,
      credit_card_installments_options: [1, 37],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual([
      'credit_card_installments_options.1',
      'price',
    ]);
    expect(res.body.message).toMatch(/\(and 1 more error\)$/);
  });

  it('applies the state rules the SDK leaves to the service', async () => {
    const mock = createMockPartnerApi();
    const course = mock.products.course;
    const oneTime = await call(mock, 'PUT', `/products/${course.hash}/offers/${course.offerCode}`, {
      commission_only_first_installment: true,
    });
    expect(oneTime.status).toBe(422);
    expect(oneTime.body.errors).toHaveProperty('commission_only_first_installment');
  });

  it('reads a repeated query parameter as PHP does: the last one wins', async () => {
    const mock = createMockPartnerApi();
    const res = await call(mock, 'GET', '/products?page=1&page=2&per_page=5');
    expect(res.body.meta).toMatchObject({ current_page: 2, per_page: 5 });
  });

  it('refuses a page sent as a list (page[]=1) with a 422, as PHP reads it as an array', async () => {
    const mock = createMockPartnerApi();
    const res = await call(mock, 'GET', '/products?page[]=1');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ page: ['The page must be an integer.'] });
    const anticipations = await call(mock, 'GET', '/financial/anticipation?per_page[x]=5');
    expect(anticipations.body.errors).toEqual({ per_page: ['The per page must be an integer.'] });
  });

  it("reads query values trimmed, as Laravel's TrimStrings does", async () => {
    const mock = createMockPartnerApi();
    const res = await call(mock, 'GET', '/products?page=%202%20&per_page=5');
    expect(res.status).toBe(200);
    expect(res.body.meta.current_page).toBe(2);
  });

  it("stamps an updated offer with the kit's clock, in São Paulo time", async () => {
    const mock = createMockPartnerApi();
    mock.advanceClock(400 * 86_400_000);
    const { course } = mock.products;
    const res = await call(mock, 'PUT', `/products/${course.hash}/offers/${course.offerCode}`, {
      price: 100,
    });
    const saoPaulo = new Date(mock.now().getTime() - 3 * 3_600_000).toISOString();
    expect(res.body.updated_at.slice(0, 13)).toBe(saoPaulo.slice(0, 13).replace('T', ' '));
  });

  it('reads a JSON body that is a bare value as Laravel does (as a list), never failing with 500', async () => {
    const mock = createMockPartnerApi();
    const { course } = mock.products;
    for (const body of ['hello', 5, true]) {
      const res = await call(
        mock,
        'PUT',
        `/products/${course.hash}/offers/${course.offerCode}`,
        body,
      );
      expect(res.status).toBe(200);
    }
  });
});
