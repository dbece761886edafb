/**
 * The CLI's `--journal` when the file cannot serve: a directory that does not exist, the input
 * file given as the journal by mistake, a journal written by a newer version. Each is a usage
 * error (exit 2) naming the journal, nothing is sent, and the file is left as it was.
 */

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockPartnerApi, type MockPartnerApi, type MockServer } from 'partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './run-cli';

let mock: MockPartnerApi;
let server: MockServer;
let env: Record<string, string | undefined>;
let dir: string;

beforeAll(async () => {
  mock = createMockPartnerApi({ refundPolls: 0 });
  server = await mock.listen();
  env = {
    PARTNER_API_BASE_URL: server.url,
    PARTNER_API_CLIENT_ID: mock.credentials.clientId,
    PARTNER_API_CLIENT_SECRET: mock.credentials.clientSecret,
    PARTNER_API_CLIENT_TOKEN: undefined,
    PARTNER_API_SELLER_TOKEN: mock.sellers.person.publicToken,
  };
  dir = await mkdtemp(join(tmpdir(), 'partner-cli-journal-'));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const sent = () => mock.requests.filter((r) => r.path.startsWith('/financial/refund/')).length;

describe('partner-sdk --journal that cannot serve', { timeout: 90_000 }, () => {
  it('a journal in a directory that does not exist: exit 2 naming the journal, nothing sent', async () => {
    const hash = mock.addTransaction();
    const journal = join(dir, 'missing', 'cohort.jsonl');
    const before = sent();
    const run = await cli(['refunds', 'request', hash, '--journal', journal], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot open the journal ${journal}`);
    expect(run.stderr).toContain('ENOENT');
    expect(run.stderr).not.toMatch(/\.lock|\.tmp/);
    expect(sent()).toBe(before);
  });

  it('the input file given as the journal: exit 2, the file kept whole, nothing sent', async () => {
    const hash = mock.addTransaction();
    const input = join(dir, 'one-hash.txt');
    await writeFile(input, `${hash}\n`);
    const before = sent();
    const run = await cli(['refunds', 'request', '--file', input, '--journal', input], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('line 1 is not a journal record');
    expect(await readFile(input, 'utf8')).toBe(`${hash}\n`);
    expect(sent()).toBe(before);
  });

  it('a journal written by a newer version: exit 2 saying so, the journal kept whole, nothing sent', async () => {
    const hash = mock.addTransaction();
    const journal = join(dir, 'newer.jsonl');
    const text = `${JSON.stringify({
      job: 'refunds.request',
      key: hash,
      state: 'settled',
      at: new Date().toISOString(),
      version: 2,
    })}\n`;
    await writeFile(journal, text);
    const before = sent();
    const run = await cli(['refunds', 'request', hash, '--journal', journal], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/newer version of partner-sdk/);
    expect(await readFile(journal, 'utf8')).toBe(text);
    expect(sent()).toBe(before);
  });
});
