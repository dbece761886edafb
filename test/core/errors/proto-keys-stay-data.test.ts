/**
 * `__proto__` keys in an error body must stay data. The old redaction copied
 * with `result[key] =`, so the key became the prototype of `err.body`, and `fieldErrors` came from
 * attacker-controlled inherited properties.
 */

import { describe, expect, it } from 'vitest';
import { PartnerClient, UnprocessableEntityError } from '../../../src/index';
import { stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

describe('an error body with __proto__ keys', () => {
  it('keeps them as plain fields: no inherited message or fieldErrors, no global pollution', async () => {
    // Written by hand: JSON.stringify of an object literal would drop a `__proto__` key.
    const raw =
      '{"__proto__":{"errors":{"injected":["from the prototype"]},"message":"forged","polluted":"yes"},' +
      '"errors":{"__proto__":{"polluted":["yes"]},"name":["The name is too short."]}}';
    const server = await stub((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(raw);
    });
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'proto-token-1',
      logLevel: 'off',
    });
    const error = (await client
      .request({ method: 'POST', path: '/users/update' })
      .catch((e: unknown) => e)) as UnprocessableEntityError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(Object.getPrototypeOf(error.body)).toBe(Object.prototype);
    expect((error.body as Record<string, unknown>).polluted).toBeUndefined();
    expect(error.message).not.toContain('forged');
    // The `__proto__` field is kept as data in the body; it holds no message list, so it is no field error.
    const errors = (error.body as { errors: object }).errors;
    expect(Object.hasOwn(errors, '__proto__')).toBe(true);
    expect(Object.keys(error.fieldErrors)).toEqual(['name']);
    expect(error.fieldErrors.name).toEqual(['The name is too short.']);
    expect(error.fieldErrors.injected).toBeUndefined();
    expect(Object.getPrototypeOf(error.fieldErrors)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
