/**
 * `refunds request` against a service that made the refund and answered 202, the answer then
 * spoilt on its way (a body cut short, JSON of another shape). The refund completes meanwhile, so
 * a blind repeat would make a second one: the command says the request may have reached the
 * service, with the exit code the CLI guide gives, and a run again with the same journal and
 * `--retry-failed` finds the refund rather than make another.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Spoilt } from '../../../test/helpers/lossy-proxy';
import { type SpoiltRefunds, startSpoiltRefunds } from '../../../test/helpers/spoilt-refunds';
import { cli } from './run-cli';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serviceSpoiling(how: Spoilt, count: number): Promise<SpoiltRefunds> {
  const service = await startSpoiltRefunds(how, count);
  closers.push(() => service.close());
  return service;
}

const run = (service: SpoiltRefunds, args: string[]) =>
  cli(args, {
    env: {
      PARTNER_API_BASE_URL: service.proxy.baseUrl,
      PARTNER_API_CLIENT_TOKEN: service.mock.credentials.clientToken,
      PARTNER_API_SELLER_TOKEN: service.sellerToken,
      PARTNER_API_CLIENT_ID: undefined,
      PARTNER_API_CLIENT_SECRET: undefined,
      PARTNER_SDK_PROFILE: undefined,
      XDG_CONFIG_HOME: '/nonexistent-partner-cli-config',
    },
  });

describe('partner-sdk refunds request, a 202 spoilt on its way', { timeout: 60_000 }, () => {
  it('whose body broke off: finds the refund the service made and prints it, exit 0', async () => {
    const service = await serviceSpoiling('cut-body-after', 1);
    const hash = service.transactions[0]!;
    const result = await run(service, ['--json', 'refunds', 'request', hash]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'existing', recovered: true });
    expect(await service.refundsOf(hash)).toHaveLength(1);
    expect(service.posts()).toBe(1);
  });

  it('of another shape, one hash: exit 1 naming the 202 and saying the call took effect', async () => {
    const service = await serviceSpoiling('reshaped-after', 2);
    const [hash, other] = service.transactions as [string, string];
    const text = await run(service, ['--format', 'table', 'refunds', 'request', hash]);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/→ 202 Accepted: unexpected response shape/);
    // The SDK's own words are stronger than the CLI's "may have reached the service".
    expect(text.stderr).toMatch(/the call took effect all the same/);
    expect(text.stderr).not.toMatch(/may have reached the service/);
    const json = await run(service, ['--json', 'refunds', 'request', other]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { name: 'ResponseValidationError', status: 202, inDoubt: true },
    });
    expect(service.posts()).toBe(2);
  });

  it('of another shape, in a job with a journal: FAIL lines saying the call took effect, then --retry-failed finds the refunds, none made twice', async () => {
    const service = await serviceSpoiling('reshaped-after', 2);
    const dir = await mkdtemp(join(tmpdir(), 'partner-cli-spoilt-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'hashes.txt');
    await writeFile(file, `${service.transactions.join('\n')}\n`);
    const journal = join(dir, 'job.jsonl');
    const args = ['--format', 'table', 'refunds', 'request', '--file', file, '--journal', journal];
    const first = await run(service, args);
    expect(first.code).toBe(1);
    expect(first.stdout.match(/the call took effect all the same/g)).toHaveLength(2);
    const again = await run(service, [...args, '--retry-failed']);
    expect(again.code).toBe(0);
    expect(again.stdout.match(/found made by an earlier run/g)).toHaveLength(2);
    for (const hash of service.transactions) {
      expect(await service.refundsOf(hash)).toHaveLength(1);
    }
    expect(service.posts()).toBe(2);
  });
});
