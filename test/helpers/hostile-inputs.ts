/**
 * Calling the SDK wrongly, as plain JavaScript can: the values a caller with `any`, or with JSON
 * read from a file, may hand any argument, and a loopback service that records whatever reaches it,
 * so a test can tell "refused before sending" from "sent" and read what was sent.
 */

import fc from 'fast-check';
import { PartnerClient, PartnerError } from 'partner-sdk';
import { afterEach } from 'vitest';
import { json, type StubServer, startStub } from './stub-server';

/** Secrets of the clients built here: no refusal may quote them. */
export const HOSTILE_SECRETS = {
  clientToken: 'client-token-never-quoted',
  publicToken: 'public-token-never-quoted',
} as const;

class Instance {
  colour = 'red';
}

/**
 * Each wrong value by name: wrong types, a JSON object with prototype keys, objects whose reading
 * runs the caller's code (a throwing getter, a Proxy, `toJSON`), a frozen object, a class instance,
 * an invalid `Date`.
 */
export function hostileValues(): [string, unknown][] {
  return [
    ['null', null],
    ['a number', 5],
    ['an array', []],
    ['a symbol', Symbol('s')],
    ['a bigint', 10n],
    ['a function', () => 'x'],
    ['an invalid Date', new Date('not a date')],
    ['a JSON __proto__ key', JSON.parse('{"__proto__":{"polluted":true}}')],
    ['a JSON constructor key', JSON.parse('{"constructor":{"prototype":{"polluted":true}}}')],
    [
      'a throwing getter',
      Object.defineProperty({}, 'page', { enumerable: true, get: () => fail('getter') }),
    ],
    ['a Proxy', new Proxy({}, { ownKeys: () => fail('ownKeys'), get: () => fail('get') })],
    ['a frozen object', Object.freeze({ unknown_key: 1 })],
    ['a class instance', new Instance()],
    ['an object with toJSON', { toJSON: () => ({}) }],
  ];
}

function fail(trap: string): never {
  throw new Error(`the caller's own ${trap} threw`);
}

/** `fc.anything()` with every kind of value it can make, bigints and null prototypes included. */
export const anyValue = fc.anything({
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withNullPrototype: true,
  withBoxedValues: true,
  withSparseArray: true,
});

/** What became of a call: refused (with the error), sent and answered, or broken inside the SDK. */
export type Outcome =
  | { kind: 'refused'; error: PartnerError }
  | { kind: 'settled' }
  | { kind: 'broken'; error: unknown };

/**
 * Runs `call` (which may throw at once or return a promise) and says how it ended. An SDK error is
 * `refused`, as is an error the caller's own getter or Proxy threw (their code, not the SDK's);
 * anything else thrown is `broken`.
 */
export async function outcomeOf(call: () => unknown): Promise<Outcome> {
  try {
    await call();
    return { kind: 'settled' };
  } catch (error) {
    if (error instanceof PartnerError) return { kind: 'refused', error };
    if (error instanceof Error && error.message.startsWith("the caller's own ")) {
      return { kind: 'refused', error: new PartnerError(error.message) };
    }
    return { kind: 'broken', error };
  }
}

/**
 * For one test file: a loopback service answering every request 418 (each an `APIError`), and a
 * client and seller client on it with no retries. `sent()` lists what reached it, each request line
 * and body.
 */
export function hostileService(): () => Promise<{
  client: PartnerClient;
  seller: ReturnType<PartnerClient['forUser']>;
  server: StubServer;
  sent: () => string[];
}> {
  const started: StubServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
  return async () => {
    const server = await startStub((_, res) => json(res, 418, { message: 'teapot' }));
    started.push(server);
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: HOSTILE_SECRETS.clientToken,
      maxRetries: 0,
      logLevel: 'off',
    });
    const seller = client.forUser(HOSTILE_SECRETS.publicToken);
    const sent = () => server.requests.map((r) => `${r.method} ${r.path} ${r.body}`);
    return { client, seller, server, sent };
  };
}

/** What no request may carry: a value JavaScript wrote for something that is no text. */
const NOT_TEXT = /undefined|\[object |Symbol\(/;

/** The requests of `sent` that carry {@link NOT_TEXT}, read with their percent-escapes decoded. */
export function sentAsText(sent: string[]): string[] {
  return sent.filter((line) => {
    let text = line;
    try {
      text = decodeURIComponent(line);
    } catch {
      // A lone escape stays as it came: still searchable.
    }
    return NOT_TEXT.test(text);
  });
}

/** A runtime's own message for a value the code read as another type: the SDK never let it out. */
export const FROM_INSIDE =
  /Cannot read propert|is not a function|Cannot destructure|Cannot convert|is not iterable|Cannot use 'in'/;

/** The error `make()` throws (it must throw): an `Error` of the SDK's own words, not the runtime's. */
export function thrownBy(make: () => unknown): Error {
  let thrown: unknown;
  try {
    make();
  } catch (error) {
    thrown = error;
  }
  if (!(thrown instanceof Error))
    throw new Error(`expected an Error to be thrown, got ${String(thrown)}`);
  if (FROM_INSIDE.test(thrown.message)) throw new Error(`thrown from inside: ${thrown.message}`);
  return thrown;
}
