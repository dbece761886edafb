/**
 * One client made at a service's start and shared by every request it serves: the client token
 * expiring or revoked while hundreds of calls are in flight, a seller's token refused beside it,
 * and a login the service answers with a 429 or a 503. However many calls share it, one login
 * renews the token, each call sends a refused token at most once, a token refused again ends in a
 * typed error, never a loop, and no login is sent before the service allows.
 */

import {
  AuthenticationError,
  type ClientOptions,
  InternalServerError,
  PartnerClient,
  RateLimitError,
} from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { clientOver } from '../../../src/client';
import { resolveOptions } from '../../../src/core/options/resolve';
import { Transport } from '../../../src/core/transport/engine';
import { serversClosedAfterEach } from '../../helpers/leak-check';
import { json, type StubServer } from '../../helpers/stub-server';
import { virtualClock } from '../../helpers/virtual-clock';
import { waitFor, withTimeout } from '../../helpers/waits';

const { mockApi, stub } = serversClosedAfterEach();

const credentials = { clientId: 'shared-client-id', clientSecret: 'shared-client-secret' };
const product = { hash: 'prd_1', name: 'Curso' };
const logins = (s: StubServer) => s.requests.filter((r) => r.path === '/auth');
const calls = (s: StubServer) => s.requests.filter((r) => r.path !== '/auth');

function clientOf(s: StubServer, options: Partial<ClientOptions> = {}) {
  return new PartnerClient({ baseUrl: s.baseUrl, ...credentials, logLevel: 'off', ...options });
}

/** A client of `s` whose waits (back-offs, `Retry-After`) and minutes run on a virtual clock. */
function onVirtualClock(s: StubServer) {
  const clock = virtualClock();
  const options = { baseUrl: s.baseUrl, ...credentials, logLevel: 'off' as const };
  return {
    clock,
    client: clientOver(new Transport(resolveOptions(options), undefined, clock), options),
  };
}

/** The client tokens each call sent, in order, by the `x-call` header each call carries. */
function tokensPerCall(requests: ReadonlyArray<{ headers: Record<string, unknown> }>) {
  const sent = new Map<string, unknown[]>();
  for (const { headers } of requests) {
    const call = String(headers['x-call']);
    sent.set(call, [...(sent.get(call) ?? []), headers['x-api-client-token']]);
  }
  return sent;
}

describe('a client token shared by a whole service', () => {
  it('expires under 200 calls in flight: one login, every call completes, none sends the expired token twice', async () => {
    const { mock, server } = await mockApi();
    const client = new PartnerClient({ baseUrl: server.url, ...mock.credentials, logLevel: 'off' });
    await client.products.list();
    const expired = mock.requests.at(-1)!.headers['x-api-client-token'];
    // Slow enough answers that the 200 calls are all on their way when the token expires.
    mock.setLatency(500);
    const before = mock.requests.length;
    const inFlight = Array.from({ length: 200 }, (_, call) =>
      client.products.list({}, { headers: { 'x-call': String(call) } }),
    );
    await waitFor(() => mock.requests.length - before === 200, 'the 200 calls to arrive');
    mock.expireTokens();
    await withTimeout(Promise.all(inFlight), 10_000, 'the 200 calls');
    expect(mock.stats.logins).toBe(2);
    const sent = tokensPerCall(mock.requests.slice(before).filter((r) => r.path !== '/auth'));
    expect(sent.size).toBe(200);
    const fresh = [...sent.values()].flat().find((token) => token !== expired);
    // A call whose answer came before the token expired sent it once; every other call was
    // refused once and replayed with the new token.
    for (const tokens of sent.values())
      expect([[expired], [expired, fresh]]).toContainEqual(tokens);
    expect([...sent.values()].filter((tokens) => tokens.length === 2).length).toBeGreaterThan(0);
  });

  it('makes a call started while the re-login is under way wait for it, never sending the refused token', async () => {
    let valid = '';
    let loginCount = 0;
    let holdLogin: (() => void) | undefined;
    const server = await stub((request, res) => {
      if (request.path === '/auth') {
        loginCount += 1;
        const token = `shared-token-${loginCount}`;
        const answer = () => {
          valid = token;
          json(res, 200, { client_token: token });
        };
        if (loginCount === 2) holdLogin = answer;
        else answer();
        return;
      }
      if (request.headers['x-api-client-token'] === valid) return json(res, 200, product);
      json(res, 401, { message: 'Token expired.' });
    });
    const client = clientOf(server, { maxRetries: 0 });
    await client.products.retrieve('prd_1');
    valid = 'revoked';
    const refused = client.products.retrieve('prd_1', { headers: { 'x-call': 'refused' } });
    await waitFor(() => holdLogin !== undefined, 'the re-login to arrive');
    // The service refused the token and the client is logging in again: a call now waits for that.
    const later = Array.from({ length: 50 }, (_, call) =>
      client.products.retrieve('prd_1', { headers: { 'x-call': `later-${call}` } }),
    );
    holdLogin!();
    await withTimeout(Promise.all([refused, ...later]), 5_000, 'the calls');
    expect(logins(server)).toHaveLength(2);
    const sent = tokensPerCall(calls(server).slice(1));
    expect(sent.get('refused')).toEqual(['shared-token-1', 'shared-token-2']);
    for (let call = 0; call < 50; call++) {
      expect(sent.get(`later-${call}`)).toEqual(['shared-token-2']);
    }
  });

  it('after a failed re-login, logs in again on the next call instead of sending the refused token once more', async () => {
    let loginCount = 0;
    let revoked = false;
    const server = await stub((request, res) => {
      if (request.path === '/auth') {
        loginCount += 1;
        if (loginCount === 2) return json(res, 503, { message: 'Down for maintenance.' });
        return json(res, 200, { client_token: `shared-token-${loginCount}` });
      }
      const token = request.headers['x-api-client-token'];
      if (revoked && token === 'shared-token-1') {
        return json(res, 401, { message: 'Token expired.' });
      }
      json(res, 200, product);
    });
    const client = clientOf(server, { maxRetries: 0 });
    await client.products.retrieve('prd_1');
    revoked = true;
    await expect(client.products.retrieve('prd_1')).rejects.toThrow(/POST \/auth → 503/);
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(product);
    expect(calls(server).map((r) => r.headers['x-api-client-token'])).toEqual([
      'shared-token-1',
      'shared-token-1',
      'shared-token-3',
    ]);
  });

  it("holds no call back for a seller's refused token: during its re-login, and after that login failed, the others go on with the client token", async () => {
    let loginCount = 0;
    let failLogin: (() => void) | undefined;
    const server = await stub((request, res) => {
      if (request.path === '/auth') {
        loginCount += 1;
        if (loginCount === 1) return json(res, 200, { client_token: 'shared-token-1' });
        failLogin = () => json(res, 503, { message: 'Down for maintenance.' });
        return;
      }
      // The seller's token is the one at fault; the client token stays good throughout.
      if (request.headers.authorization === 'Bearer revoked-seller-token') {
        return json(res, 401, { message: 'Unauthenticated.' });
      }
      json(res, 200, product);
    });
    const client = clientOf(server, { maxRetries: 0 });
    await client.products.retrieve('prd_1');
    const refused = client
      .forUser('revoked-seller-token')
      .products.retrieve('prd_1')
      .catch((error: unknown) => error);
    await waitFor(() => failLogin !== undefined, 'the re-login to arrive');
    const good = client.forUser('good-seller-token');
    const others = Array.from({ length: 40 }, (_, call) =>
      (call % 2 ? good : client).products.retrieve('prd_1'),
    );
    await withTimeout(Promise.all(others), 5_000, 'the other calls, while the re-login hangs');
    failLogin!();
    expect(await refused).toBeInstanceOf(InternalServerError);
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(product);
    expect(logins(server)).toHaveLength(2);
    const unrefused = calls(server).filter(
      (r) => r.headers.authorization !== 'Bearer revoked-seller-token',
    );
    expect(new Set(unrefused.map((r) => r.headers['x-api-client-token']))).toEqual(
      new Set(['shared-token-1']),
    );
  });

  it('lets a seller held at fault renew the client token again a minute later, so a service whose only seller was refused during an outage recovers', async () => {
    let loginCount = 0;
    // Tokens from this login on are accepted; an outage refuses every token.
    let acceptedFrom = 1;
    const server = await stub((request, res) => {
      if (request.path === '/auth') {
        loginCount += 1;
        return json(res, 200, { client_token: `shared-token-${loginCount}` });
      }
      const issued = Number(String(request.headers['x-api-client-token']).split('-').at(-1));
      if (issued >= acceptedFrom) return json(res, 200, product);
      json(res, 401, { message: 'Unauthenticated.' });
    });
    const { client, clock } = onVirtualClock(server);
    const seller = client.forUser('only-seller-token');
    await seller.products.retrieve('prd_1');
    acceptedFrom = Number.POSITIVE_INFINITY;
    await expect(seller.products.retrieve('prd_1')).rejects.toThrow(/seller's public token/);
    expect(logins(server)).toHaveLength(2);
    // The outage is over; the token logged in during it stays refused, new logins work.
    acceptedFrom = 3;
    // Within the minute the seller stays at fault: a bad seller token costs no login per call.
    await expect(seller.products.retrieve('prd_1')).rejects.toThrow(AuthenticationError);
    expect(logins(server)).toHaveLength(2);
    clock.advance(60_000);
    await expect(seller.products.retrieve('prd_1')).resolves.toEqual(product);
    expect(logins(server)).toHaveLength(3);
  });

  it('revoked under 200 calls in flight, its renewal refused too: one new login, each call sent twice, then AuthenticationError', async () => {
    const server = await stub((request, res) => {
      if (request.path === '/auth') {
        return json(res, 200, { client_token: `shared-token-${logins(server).length}` });
      }
      json(res, 401, { message: 'Token revoked.' });
    });
    const client = clientOf(server, { clientToken: 'shared-token-0' });
    const errors = await withTimeout(
      Promise.all(
        Array.from({ length: 200 }, (_, call) =>
          client.products
            .retrieve('prd_1', { headers: { 'x-call': String(call) } })
            .catch((error: unknown) => error),
        ),
      ),
      10_000,
      'the 200 calls',
    );
    for (const error of errors) expect(error).toBeInstanceOf(AuthenticationError);
    expect(logins(server)).toHaveLength(1);
    for (const tokens of tokensPerCall(calls(server)).values()) {
      expect(tokens).toEqual(['shared-token-0', 'shared-token-1']);
    }
  });

  it.each([
    [429, RateLimitError],
    [503, InternalServerError],
  ])(
    'sends no login before the service allows after a login answered %i with a Retry-After past the 60 s it waits: every call until then fails at once with its error',
    async (status, ErrorClass) => {
      let loginCount = 0;
      const server = await stub((request, res) => {
        if (request.path !== '/auth') return json(res, 200, product);
        loginCount += 1;
        if (loginCount > 1) return json(res, 200, { client_token: 'shared-after-wait' });
        json(res, status, { message: 'Slow down.' }, { 'retry-after': '120' });
      });
      const { client, clock } = onVirtualClock(server);
      const calls = () => client.products.retrieve('prd_1').catch((error: unknown) => error);
      const first = await Promise.all(Array.from({ length: 5 }, calls));
      clock.advance(60_000);
      const later = await Promise.all(Array.from({ length: 5 }, calls));
      for (const error of [...first, ...later]) {
        expect(error).toBeInstanceOf(ErrorClass);
        expect((error as RateLimitError).retryAfterMs).toBe(120_000);
      }
      expect(logins(server)).toHaveLength(1);
      clock.advance(60_000);
      await expect(client.products.retrieve('prd_1')).resolves.toEqual(product);
      expect(logins(server)).toHaveLength(2);
    },
  );

  it.each([
    [429, 'Too Many Attempts.'],
    [503, 'Down for maintenance.'],
  ])(
    'waits the Retry-After of a login answered %i, one login again for every waiting call',
    async (status, message) => {
      let loginCount = 0;
      const server = await stub((request, res) => {
        if (request.path !== '/auth') return json(res, 200, product);
        loginCount += 1;
        if (loginCount === 1) return json(res, status, { message }, { 'retry-after': '7' });
        json(res, 200, { client_token: 'shared-after-wait' });
      });
      const { client, clock } = onVirtualClock(server);
      const results = await withTimeout(
        Promise.all(Array.from({ length: 20 }, () => client.products.retrieve('prd_1'))),
        5_000,
        'the calls waiting on the login',
      );
      expect(results).toEqual(Array(20).fill(product));
      expect(clock.waits).toEqual([7_000]);
      expect(logins(server)).toHaveLength(2);
      expect(calls(server).map((r) => r.headers['x-api-client-token'])).toEqual(
        Array(20).fill('shared-after-wait'),
      );
    },
  );
});
