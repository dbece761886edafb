import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing';
import { mswHandlers } from '../../src/testing/msw';
import { clientHeaders, sellerHeaders } from './helpers';

const mock = createMockPartnerApi();
const server = setupServer(...mswHandlers(mock));

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

describe('mock API through msw', () => {
  it('answers plain fetch calls to mock.baseUrl', async () => {
    const res = await fetch(`${mock.baseUrl}/products/${mock.products.ebook.hash}`, {
      headers: clientHeaders(mock),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ hash: mock.products.ebook.hash, type: 'ebook' });
  });

  it('runs the refund flow with Location on the mock host', async () => {
    const trx = mock.transactions.refundable[2]!;
    const res = await fetch(`${mock.baseUrl}/financial/refund/${trx}`, {
      method: 'POST',
      headers: sellerHeaders(mock),
    });
    expect(res.status).toBe(202);
    const location = res.headers.get('location')!;
    expect(location.startsWith(mock.baseUrl)).toBe(true);
    const poll = async () =>
      (
        (await (await fetch(location, { headers: sellerHeaders(mock) })).json()) as {
          data: { status: string };
        }
      ).data.status;
    expect(await poll()).toBe('requested');
    expect(await poll()).toBe('success');
    expect(await poll()).toBe('completed');
  });

  it('turns injected faults and drops into msw answers', async () => {
    mock.failNext({ status: 502 });
    expect((await fetch(`${mock.baseUrl}/products`, { headers: clientHeaders(mock) })).status).toBe(
      502,
    );
    mock.dropNext();
    await expect(
      fetch(`${mock.baseUrl}/products`, { headers: clientHeaders(mock) }),
    ).rejects.toThrow(TypeError);
  });
});
