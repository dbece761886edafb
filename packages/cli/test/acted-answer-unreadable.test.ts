/**
 * `refunds request` and `offers update` against a service that acted and answered 200 in a shape
 * the SDK cannot read: a number written as a decimal string (`"19.90"`), as a Laravel `decimal`
 * cast does. The command exits 1, its message says the call took effect (`inDoubt` in JSON;
 * the text spares the weaker "may have reached the service"), and the request went out once.
 */

import { describe, expect, it } from 'vitest';
import { json, type StubServer, stubsClosedAfterEach } from '../../../test/helpers/stub-server';
import { cli } from './run-cli';

const stub = stubsClosedAfterEach();

const refund = { hash: 'ref_1', transaction_hash: 'tx_1', status: 'success', amount: '19.90' };

/** A service whose reads of refunds find none, and whose every other answer is `acted`. */
function service(acted: unknown): Promise<StubServer> {
  return stub((request, res) => {
    if (request.method === 'GET')
      return json(res, 200, { status: 'success', message: 'ok', data: [] });
    return json(res, 200, acted);
  });
}

const run = (server: StubServer, args: string[]) =>
  cli(args, {
    env: {
      PARTNER_API_BASE_URL: server.baseUrl,
      PARTNER_API_CLIENT_TOKEN: 'tok',
      PARTNER_API_SELLER_TOKEN: 'pub',
      PARTNER_API_CLIENT_ID: undefined,
      PARTNER_API_CLIENT_SECRET: undefined,
      PARTNER_SDK_PROFILE: undefined,
      XDG_CONFIG_HOME: '/nonexistent-partner-cli-config',
    },
  });

const posts = (server: StubServer) => server.requests.filter((r) => r.method !== 'GET').length;

describe('a call that acts answered 200 in a shape the SDK cannot read', {
  timeout: 60_000,
}, () => {
  it('refunds request: exit 1, the call took effect (not merely "may have reached"), sent once', async () => {
    const server = await service({ status: 'success', message: 'ok', data: refund });
    const text = await run(server, ['--format', 'table', 'refunds', 'request', 'tx_1']);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain(
      'POST /financial/refund/tx_1 → 200 OK: unexpected response shape: data.amount: expected a number, received a string; the call took effect all the same: do not repeat it as a retry',
    );
    expect(text.stderr).not.toMatch(/may have reached the service/);
    const json = await run(server, ['--json', 'refunds', 'request', 'tx_1']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { name: 'ResponseValidationError', status: 200, inDoubt: true },
    });
    expect(posts(server)).toBe(2);
  });

  it('offers update: exit 1, the call took effect, in doubt, sent once', async () => {
    const server = await service({ code: 'off_1', price: '19.90' });
    const result = await run(server, [
      '--json',
      'offers',
      'update',
      'prd_1',
      'off_1',
      '--data',
      '{"price":1990}',
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toMatchObject({
      error: {
        name: 'ResponseValidationError',
        status: 200,
        inDoubt: true,
        message: expect.stringContaining(
          'price: expected a number, received a string; the call took effect all the same',
        ),
      },
    });
    expect(posts(server)).toBe(1);
  });

  it('a refund whose answer was lost and whose check failed still ends "(may have reached the service)"', async () => {
    // The POST's connection is cut before any answer; the read that checks for it fails: the
    // outcome is unknown, which the CLI says in its own words.
    let reads = 0;
    const server = await stub((request, res) => {
      if (request.method === 'POST') {
        res.socket?.destroy();
        return;
      }
      // The CLI's guard reads the refunds first (none yet); the check after the lost answer fails.
      reads += 1;
      if (reads === 1) return json(res, 200, { status: 'success', message: 'ok', data: [] });
      return json(res, 500, { message: 'Server Error' });
    });
    const text = await run(server, ['--format', 'table', 'refunds', 'request', 'tx_1']);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/\(may have reached the service\)\n$/);
    expect(posts(server)).toBe(1);
  });
});
