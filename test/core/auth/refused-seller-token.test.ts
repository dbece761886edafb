/**
 * A refused seller token must not log in again on every call. Re-login only
 * when the client token may be at fault, at most once per token, and say which token was refused.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, PartnerClient } from '../../../src/index';
import { createMockPartnerApi } from '../../../src/testing/index';
import { json, startStub, withLogin } from '../../helpers/stub-server';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function service() {
  const mock = createMockPartnerApi();
  const server = await mock.listen();
  closers.push(() => server.close());
  const client = new PartnerClient({
    baseUrl: server.url,
    clientId: mock.credentials.clientId,
    clientSecret: mock.credentials.clientSecret,
    logLevel: 'off',
  });
  const logins = () => mock.requests.filter((r) => r.path.endsWith('/auth')).length;
  return { mock, client, logins };
}

describe('a refused seller token', () => {
  it('costs one extra login for five calls, not five, and says the seller token was refused', async () => {
    const { client, logins, mock } = await service();
    const seller = client.forUser('not-a-real-public-token');
    const errors: unknown[] = [];
    for (let call = 0; call < 5; call++) {
      errors.push(await seller.refunds.list(mock.transactions.withPastRefund).catch((e) => e));
    }
    // One login on first need, one more to rule out the client token; none after that.
    expect(logins()).toBe(2);
    for (const error of errors) {
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as Error).message).toMatch(/seller's public token was refused/);
    }
  });

  it('still logs in again for a good seller once the client token expires', async () => {
    const { client, logins, mock } = await service();
    await client
      .forUser('not-a-real-public-token')
      .refunds.list(mock.transactions.withPastRefund)
      .catch(() => {});
    const before = logins();
    mock.expireTokens();
    const good = client.forUser(mock.sellers.person.publicToken);
    await expect(good.refunds.list(mock.transactions.withPastRefund)).resolves.toBeInstanceOf(
      Array,
    );
    expect(logins()).toBe(before + 1);
  });

  it('names the client token when no bearer was sent, and still hints forUser', async () => {
    const stub = await startStub(withLogin((_req, res) => json(res, 401, { message: 'Nope.' })));
    closers.push(() => stub.close());
    const client = new PartnerClient({
      baseUrl: stub.baseUrl,
      clientId: 'client-id-1',
      clientSecret: 'client-secret-1',
      logLevel: 'off',
    });
    const error = await client.refunds.list('tx_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(/client token was refused/);
    expect((error as Error).message).toMatch(/forUser/);
    expect((error as Error).message).not.toMatch(/seller's public token/);
  });
});
