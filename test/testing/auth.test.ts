import { describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing';
import { call } from './helpers';

describe('mock API authentication', () => {
  it('issues a fresh client token for the right credentials', async () => {
    const mock = createMockPartnerApi();
    const res = await mock.fetch(`${mock.baseUrl}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: mock.credentials.clientId,
        client_secret: mock.credentials.clientSecret,
      }),
    });
    expect(res.status).toBe(200);
    const { client_token } = (await res.json()) as { client_token: string };
    expect(client_token).toMatch(/^ct_/);
    expect(client_token).not.toBe(mock.credentials.clientToken);
    const products = await mock.fetch(`${mock.baseUrl}/products`, {
      headers: { 'X-Api-Client-Token': client_token },
    });
    expect(products.status).toBe(200);
    expect(mock.stats.logins).toBe(1);
    expect(mock.requests[0]).toMatchObject({ method: 'POST', path: '/auth' });
  });

  it('refuses a wrong secret with 401 and a message', async () => {
    const mock = createMockPartnerApi();
    const res = await mock.fetch(`${mock.baseUrl}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: mock.credentials.clientId, client_secret: 'nope' }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: expect.any(String) });
  });

  it('answers 422 when the login body lacks its fields', async () => {
    const mock = createMockPartnerApi();
    const res = await call(mock, 'POST', '/auth', {});
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['client_id', 'client_secret']);
  });

  it('refuses calls without a valid client token', async () => {
    const mock = createMockPartnerApi();
    expect((await mock.fetch(`${mock.baseUrl}/products`)).status).toBe(401);
    const res = await mock.fetch(`${mock.baseUrl}/products`, {
      headers: { 'X-Api-Client-Token': 'ct_forged' },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('refuses every token issued so far after expireTokens, and new logins still work', async () => {
    const mock = createMockPartnerApi();
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
    mock.expireTokens();
    expect((await call(mock, 'GET', '/products')).status).toBe(401);
    const login = await call(mock, 'POST', '/auth', {
      client_id: mock.credentials.clientId,
      client_secret: mock.credentials.clientSecret,
    });
    const res = await mock.fetch(`${mock.baseUrl}/products`, {
      headers: { 'X-Api-Client-Token': login.body.client_token },
    });
    expect(res.status).toBe(200);
  });

  it('requires a known seller bearer on /users/update and refuses unknown bearers anywhere', async () => {
    const mock = createMockPartnerApi();
    const form = new FormData();
    form.set('name', 'Maria Souza');
    const noBearer = await mock.fetch(`${mock.baseUrl}/users/update`, {
      method: 'POST',
      headers: { 'X-Api-Client-Token': mock.credentials.clientToken },
      body: form,
    });
    expect(noBearer.status).toBe(401);
    const unknown = await call(mock, 'GET', '/products', undefined, {
      Authorization: 'Bearer not-a-seller',
    });
    expect(unknown.status).toBe(401);
    const seller = await call(mock, 'GET', '/products', undefined, {
      Authorization: `Bearer ${mock.sellers.company.publicToken}`,
    });
    expect(seller.status).toBe(200);
  });

  it('refuses every call with 403 naming the origin when the origin rule is off', async () => {
    const mock = createMockPartnerApi();
    mock.setOriginAllowed(false);
    const res = await call(mock, 'GET', '/products');
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('127.0.0.1');
    expect(res.body.message).toMatch(/not registered/);
    mock.setOriginAllowed(true);
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
  });

  it('answers unknown routes with 404 JSON and wrong methods with 405', async () => {
    const mock = createMockPartnerApi();
    const missing = await call(mock, 'GET', '/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: expect.any(String) });
    expect((await call(mock, 'DELETE', '/products')).status).toBe(405);
  });

  it('exposes sellers with code, type and public token', () => {
    const { person, company } = createMockPartnerApi().sellers;
    expect(person).toMatchObject({ type: 'person', code: expect.any(String) });
    expect(company).toMatchObject({ type: 'company', code: expect.any(String) });
    expect(person.publicToken.split('.')).toHaveLength(3);
  });
});
