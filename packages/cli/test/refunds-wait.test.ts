/**
 * `refunds wait`: how many refunds it waits on at once unless `--concurrency` says, read from the
 * polls in flight at a loopback server that holds every status poll until no more arrive, and
 * from `--help`, which must name the same value.
 */

import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type StubServer, startStub, withLogin } from '../../../test/helpers/stub-server';
import { cli } from './run-cli';

const HASHES = Array.from({ length: 24 }, (_, i) => `trx_wait${String(i).padStart(2, '0')}`);
// Once as many polls as the test expects are held, none arriving for this long means the job has
// sent all it will before an answer.
const QUIET_MS = 800;
// Short of that, only a silence this long does: a loaded machine can pause longer than QUIET_MS
// between two polls, and releasing them early would count too few.
const SHORT_QUIET_MS = 10_000;

let stub: StubServer;
let held: ServerResponse[] = [];
let mostHeld = 0;
let expected = 0;
let releasing = false;
let quiet: NodeJS.Timeout | undefined;

const completed = (res: ServerResponse) =>
  json(res, 200, { status: 'success', data: { status: 'completed' } });

function release(): void {
  releasing = true;
  for (const res of held) completed(res);
  held = [];
}

beforeAll(async () => {
  stub = await startStub(
    withLogin((request, res) => {
      if (!/^\/financial\/refund\/trx_wait\d+\/status$/.test(request.path)) {
        return json(res, 404, { message: 'not found' });
      }
      if (releasing) return completed(res);
      held.push(res);
      mostHeld = Math.max(mostHeld, held.length);
      clearTimeout(quiet);
      quiet = setTimeout(release, held.length >= expected ? QUIET_MS : SHORT_QUIET_MS);
    }),
  );
});
afterAll(async () => {
  clearTimeout(quiet);
  await stub?.close();
});

const env = () => ({
  PARTNER_API_BASE_URL: stub.baseUrl,
  PARTNER_API_CLIENT_ID: 'cli_wait',
  PARTNER_API_CLIENT_SECRET: 'sk_wait',
  PARTNER_API_CLIENT_TOKEN: undefined,
  PARTNER_API_SELLER_TOKEN: 'seller_wait_token',
  PARTNER_SDK_PROFILE: undefined,
});

/**
 * Runs `refunds wait` on every hash and returns how many polls were in flight at most, holding
 * them until `awaited` have arrived (or a long silence says no more will).
 */
async function mostInFlight(extra: string[], awaited: number): Promise<number> {
  held = [];
  mostHeld = 0;
  releasing = false;
  expected = awaited;
  const result = await cli(['--json', 'refunds', 'wait', ...extra, ...HASHES], { env: env() });
  expect(result.code, result.stderr).toBe(0);
  return mostHeld;
}

describe('partner-sdk refunds wait concurrency', { timeout: 60_000 }, () => {
  it('waits on 16 refunds at once by default, as --help says', async () => {
    const help = await cli(['refunds', 'wait', '--help'], { env: env() });
    expect(help.stdout).toMatch(/--concurrency <n>[\s\S]*\(default: "16"\)/);
    expect(await mostInFlight([], 16)).toBe(16);
  });

  it('waits on as many as --concurrency says', async () => {
    expect(await mostInFlight(['--concurrency', '3'], 3)).toBe(3);
  });

  it('refunds request still starts at 4, as its --help says', async () => {
    const help = await cli(['refunds', 'request', '--help'], { env: env() });
    expect(help.stdout).toMatch(/--concurrency <n>[\s\S]*\(default: "4"\)/);
  });
});
