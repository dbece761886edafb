import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

describe('mswHandlers over a mock from another copy of the kit', () => {
  it('serves, fails and drops for a mock created by a separately loaded copy of partner-sdk/testing', async () => {
    // The CJS build gives `/testing` and `/testing/msw` a copy of the kit each, and a partner's
    // suite may load one entry as ESM and the other as CommonJS: with the module registry reset,
    // this import evaluates the msw face again, as such a second copy.
    vi.resetModules();
    const copy = await import('../../src/testing/msw');
    expect(copy.mswHandlers).not.toBe(mswHandlers);
    const other = createMockPartnerApi();
    const otherServer = setupServer(...copy.mswHandlers(other));
    server.close();
    otherServer.listen({ onUnhandledFrame: 'error' });
    try {
      const url = `${other.baseUrl}/products/${other.products.ebook.hash}`;
      expect((await fetch(url, { headers: clientHeaders(other) })).status).toBe(200);
      other.dropNext();
      await expect(fetch(url, { headers: clientHeaders(other) })).rejects.toThrow(TypeError);
    } finally {
      otherServer.close();
      server.listen({ onUnhandledFrame: 'error' });
    }
  });
});
