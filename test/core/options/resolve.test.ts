/**
 * Header options are checked before anything is sent, and the error never quotes a header's value:
 * `defaultHeaders` (often a gateway's key) and a call's own `headers` alike.
 */

import { describe, expect, it } from 'vitest';
import { PartnerClient, PartnerError } from '../../../src/index';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

const SECRET_VALUE = 'gateway-key-9f8e7d6c';

function clientWith(defaultHeaders: Record<string, string>, baseUrl = 'http://127.0.0.1:9/api/v1') {
  return new PartnerClient({
    baseUrl,
    clientToken: 'hdr-token-1',
    defaultHeaders,
    logLevel: 'off',
  });
}

describe('a header value that no HTTP header can carry', () => {
  // A character past Latin-1 (a euro sign, an emoji) has no byte in a header: fetch would refuse
  // it at send time, or a lenient runtime send another character.
  for (const breaker of ['\r\n', '\n', '\r', '\0', '€', '😀']) {
    it(`in defaultHeaders (${JSON.stringify(breaker)}) fails at construction, naming the header, not quoting its value`, () => {
      const error = (() => {
        try {
          clientWith({ 'x-gateway-key': `${SECRET_VALUE}${breaker}x-injected: 1` });
        } catch (e) {
          return e;
        }
      })() as PartnerError;
      expect(error).toBeInstanceOf(PartnerError);
      expect(error.message).toContain('defaultHeaders');
      expect(error.message).toContain('x-gateway-key');
      expect(error.message).toContain('line break or NUL');
      expect(error.message).not.toContain(SECRET_VALUE);
      expect(error.message).not.toContain('injected');
    });
  }

  it('in a header name fails at construction without quoting the name', () => {
    expect(() => clientWith({ [`x-key\r\n${SECRET_VALUE}`]: 'v' })).toThrowError(
      /defaultHeaders.*not an HTTP header name/,
    );
    try {
      clientWith({ [`x-key\r\n${SECRET_VALUE}`]: 'v' });
    } catch (e) {
      expect((e as Error).message).not.toContain(SECRET_VALUE);
    }
  });

  it("in a call's own headers rejects before anything is sent, not quoting the value", async () => {
    const server = await stub((_request, res) => json(res, 200, {}));
    const client = clientWith({}, server.baseUrl);
    const error = await client
      .request(
        { method: 'GET', path: '/products' },
        { headers: { 'x-trace': `${SECRET_VALUE}\r\nx: 1` } },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerError);
    expect((error as Error).message).toContain('x-trace');
    expect((error as Error).message).not.toContain(SECRET_VALUE);
    expect(server.requests).toHaveLength(0);
  });

  it('a valid header still goes out', async () => {
    const server = await stub((_request, res) => json(res, 200, {}));
    const client = clientWith({ 'X-Gateway-Key': SECRET_VALUE }, server.baseUrl);
    await client.request({ method: 'GET', path: '/products' }, { headers: { 'x-trace': 't1' } });
    expect(server.requests[0]?.headers['x-gateway-key']).toBe(SECRET_VALUE);
    expect(server.requests[0]?.headers['x-trace']).toBe('t1');
  });
});
