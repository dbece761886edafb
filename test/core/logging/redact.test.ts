/**
 * Redaction covers a structure of any depth: an error body nesting the client secret, the client
 * token and a seller's bearer deep inside still shows none of them, a hundred thousand levels down
 * included, without a stack overflow; the work grows linearly with the structure (counted in
 * visits, not timed); and a `__proto__` key stays data at every depth.
 */

import { describe, expect, it } from 'vitest';
import { redactDeep } from '../../../src/core/logging/redact';
import { PartnerClient, UnprocessableEntityError } from '../../../src/index';
import { stubsClosedAfterEach, withLogin } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

const CLIENT_SECRET = 'deep-client-secret-value';
const LOGIN_TOKEN = 'deep-login-token-';
const BEARER = 'deep-seller-bearer-value';

/** A 422 body whose `detail` nests `depth` levels, the three secrets at the bottom, as wire text. */
function nestedBody(depth: number): string {
  const leaf = JSON.stringify({
    client_secret: CLIENT_SECRET,
    echoed: `token ${LOGIN_TOKEN}1 bearer ${BEARER}`,
    // Written by hand below: JSON.stringify of an object literal would drop a `__proto__` key.
    marker: 'bottom',
  }).replace('{', '{"__proto__":{"polluted":"yes"},');
  const open = '{"next":'.repeat(depth);
  return `{"message":"invalid","errors":{"name":["too short"]},"detail":${open}${leaf}${'}'.repeat(depth)}}`;
}

/** The bottom of a chain of `next` fields, walked without recursion. */
function bottomOf(body: unknown): { levels: number; leaf: Record<string, unknown> } {
  let node = (body as { detail: unknown }).detail as Record<string, unknown>;
  let levels = 0;
  while (Object.hasOwn(node, 'next')) {
    node = node.next as Record<string, unknown>;
    levels += 1;
  }
  return { levels, leaf: node };
}

async function deepError(depth: number): Promise<UnprocessableEntityError> {
  const wire = nestedBody(depth);
  const server = await stub(
    withLogin((_request, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(wire);
    }, LOGIN_TOKEN),
  );
  const client = new PartnerClient({
    baseUrl: server.baseUrl,
    clientId: 'deep-client',
    clientSecret: CLIENT_SECRET,
    logLevel: 'off',
    maxRetries: 0,
  });
  const error = await client
    .forUser(BEARER)
    .request({ method: 'POST', path: '/users/update' })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnprocessableEntityError);
  return error as UnprocessableEntityError;
}

describe('an error body nesting secrets deep inside', () => {
  for (const depth of [40, 100_000]) {
    it(`masks the client secret, the client token and the bearer ${depth} levels down`, async () => {
      const error = await deepError(depth);
      const { levels, leaf } = bottomOf(error.body);
      expect(levels).toBe(depth);
      expect(leaf.client_secret).toBe('[REDACTED]');
      expect(leaf.echoed).toBe('token [REDACTED] bearer [REDACTED]');
      expect(leaf.marker).toBe('bottom');
      // The `__proto__` key at the bottom is a plain field, not the copy's prototype.
      expect(Object.hasOwn(leaf, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(leaf)).toBe(Object.prototype);
      expect(leaf.polluted).toBeUndefined();
      expect(error.fieldErrors).toEqual({ name: ['too short'] });
    }, 30_000);
  }
});

/**
 * Wraps every object of a structure in a proxy that counts each operation redaction performs on
 * it (reading keys, descriptors, values, the prototype): the work done, whatever the machine.
 */
function counted<T extends object>(value: T, counter: { visits: number }): T {
  const handler = new Proxy({} as ProxyHandler<object>, {
    get:
      (_target, trap: keyof typeof Reflect) =>
      (...args: unknown[]) => {
        counter.visits += 1;
        return (Reflect[trap] as (...a: unknown[]) => unknown)(...args);
      },
  });
  return new Proxy(value, handler) as T;
}

/** A chain of `depth` objects, each holding a secret key, a text, and the next one (twice when `shared`). */
function chain(depth: number, counter: { visits: number }, shared = false): object {
  let node: object = counted({ token: 'x', note: 'end' }, counter);
  for (let level = 0; level < depth; level++) {
    const next = shared ? { left: node, right: [node] } : { next: node };
    node = counted({ token: 'secret', note: 'text', ...next }, counter);
  }
  return node;
}

function visitsFor(depth: number, shared = false): number {
  const counter = { visits: 0 };
  const value = chain(depth, counter, shared);
  counter.visits = 0;
  redactDeep(value);
  return counter.visits;
}

describe('redaction work is linear in the structure', () => {
  it('twice the depth costs twice the visits', () => {
    for (const depth of [500, 5_000]) {
      const ratio = visitsFor(2 * depth) / visitsFor(depth);
      expect(ratio).toBeGreaterThan(1.9);
      expect(ratio).toBeLessThan(2.1);
    }
  });

  it('an object reached twice is copied once, so sharing cannot make the work explode', () => {
    // Each level refers to the next twice: copied per reference, 16 levels would be 65,536 copies.
    const visits = visitsFor(16, true);
    expect(visits).toBeLessThan(16 * 40);
    expect(visitsFor(32, true) / visits).toBeGreaterThan(1.9);
    expect(visitsFor(32, true) / visits).toBeLessThan(2.2);
  });

  it("a cyclic structure (a caller's object logged) ends, its cycle kept", () => {
    const node: Record<string, unknown> = { token: 'secret', note: 'text' };
    node.self = node;
    const copy = redactDeep(node) as Record<string, unknown>;
    expect(copy.token).toBe('[REDACTED]');
    expect(copy.self).toBe(copy);
  });
});
