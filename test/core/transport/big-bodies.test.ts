/**
 * The SDK at a big partner's sizes, through the public API by name against a loopback service in
 * this process, the SDK in a child started with `--expose-gc` (big-bodies.child.ts) where its
 * memory is measured, so that the memory it reports is the SDK's own: a 200 MiB upload (a file from disk, a stream), a 500 MiB
 * download streamed past the attempt's time-out, an endless body the SDK reads, a walk of 2,000
 * pages of 100, and 5,000 calls at once sharing one signal, answered or aborted together.
 *
 * What an upload holds is what the guides say: the file, once, while it is sent (Node's fetch keeps
 * a request's body until the answer comes), and a stream read whole before it as well.
 */

import { getEventListeners } from 'node:events';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APIUserAbortError, PartnerClient, RequestValidationError } from 'partner-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paulistaAddress } from '../../helpers/addresses';
import { runToExit } from '../../helpers/children';
import {
  type LargeService,
  type LargeServiceOptions,
  startLargeService,
} from '../../helpers/large-service';
import { waitFor } from '../../helpers/waits';

const MiB = 2 ** 20;
const FILE_BYTES = 200 * MiB;

interface Measured {
  rssGrowthMb: number;
  liveGrowthMb: number;
  result: unknown;
  failure?: string;
  handles: Record<string, number>;
}

let service: LargeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

let folder: string;
let file: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'big-bodies-'));
  file = join(folder, 'avatar.png');
  // Sparse: 200 MiB to read, next to nothing on disk, made at once.
  await writeFile(file, '');
  await truncate(file, FILE_BYTES);
});
afterAll(() => rm(folder, { recursive: true, force: true }));

/** Runs `scenario` in a child against a fresh service; resolves what the child measured. */
async function measure(
  scenario: string,
  env: Record<string, string> = {},
  options: LargeServiceOptions = {},
): Promise<Measured> {
  service = await startLargeService(options);
  const { printed } = await runToExit<Measured>(
    'test/core/transport/big-bodies.child.ts',
    { SCENARIO: scenario, BASE_URL: service.baseUrl, SAMPLE_MS: '100', ...env },
    // Seconds on a quiet machine; a machine shared with other work can take several times that.
    55_000,
    ['--expose-gc'],
  );
  return printed;
}

const person = {
  name: 'Ana Souza',
  cpf: '123.456.789-09',
  birth: '1990-04-01',
  address: paulistaAddress,
};

describe('a 200 MiB upload', () => {
  it('is refused under the default maxUploadBytes before anything is sent, naming the field and the bound', async () => {
    service = await startLargeService();
    const seller = new PartnerClient({
      baseUrl: service.baseUrl,
      clientToken: 'big-client-token-0001',
      logLevel: 'off',
    }).forUser('big-seller-public-token');
    const avatar = await openAsBlob(file);
    const error = await seller.users.update({ ...person, avatar }).catch((caught) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      expect.objectContaining({
        path: ['avatar'],
        message: `expected a file of at most ${32 * MiB} bytes (maxUploadBytes); this one is larger`,
      }),
    ]);
    expect(service.connections().opened).toBe(0);
  });

  it('from disk (openAsBlob) is sent whole, holding about the file once', async () => {
    const measured = await measure('upload a file from disk', { FILE: file });
    expect(measured.result, JSON.stringify(measured)).toBe('sent');
    expect(service!.uploads).toHaveLength(1);
    expect(service!.uploads[0]).toBeGreaterThan(FILE_BYTES);
    expect(measured.rssGrowthMb, JSON.stringify(measured)).toBeLessThan(1.25 * 200);
  }, 60_000);

  it('from a stream is sent whole, holding about the file twice (read whole first)', async () => {
    const measured = await measure('upload a stream', { BYTES: String(FILE_BYTES) });
    expect(measured.result, JSON.stringify(measured)).toBe('sent');
    expect(service!.uploads).toHaveLength(1);
    expect(service!.uploads[0]).toBeGreaterThan(FILE_BYTES);
    expect(measured.rssGrowthMb, JSON.stringify(measured)).toBeLessThan(2.5 * 200);
  }, 60_000);
});

describe('a 500 MiB download', () => {
  it('streams through a body longer than the attempt time-out, in flat memory', async () => {
    const measured = await measure('stream a download', {}, { downloadPauseMs: 1_000 });
    expect(measured.result, JSON.stringify(measured)).toBe(500 * MiB);
    // What is in flight between the socket and the loop, whatever the file's size: a fraction of it.
    expect(measured.liveGrowthMb, JSON.stringify(measured)).toBeLessThan(128);
  }, 60_000);

  it('a body the SDK reads itself is cut at maxResponseBytes, however long it would go on', async () => {
    const measured = await measure('an endless body the SDK reads');
    expect(measured.failure, JSON.stringify(measured)).toBe('ResponseTooLargeError');
    expect(measured.rssGrowthMb, JSON.stringify(measured)).toBeLessThan(4 * 32);
    await waitFor(() => service!.connections().open === 0, 'the endless body to be hung up on');
  }, 60_000);
});

describe('a walk of 2,000 pages of 100 items', () => {
  it('fetches each page once and holds no page it has handed on', async () => {
    const measured = await measure('walk every page', {}, { lastPage: 2_000 });
    expect(measured.result, JSON.stringify(measured)).toBe(200_000);
    expect(service!.pages).toHaveLength(2_000);
    expect(new Set(service!.pages).size).toBe(2_000);
    expect(measured.liveGrowthMb, JSON.stringify(measured)).toBeLessThan(16);
  }, 60_000);
});

describe('5,000 calls at once on one client, one signal for all', () => {
  it('settles every call, warns of nothing, leaves nothing on the signal, and opens a connection per call at most', async () => {
    const count = 5_000;
    const measured = await measure(
      'many calls at once',
      { COUNT: String(count), SAMPLE_MS: '500' },
      { productDelayMs: 50 },
    );
    expect(measured.result, JSON.stringify(measured)).toEqual({
      fulfilled: count,
      warnings: [],
      listeners: 0,
    });
    // One connection per call in flight (the runtime's fetch caps none), none opened again by a
    // retry; the child then ended by itself, so none of them, and no timer, kept it alive.
    const { opened, peak } = service!.connections();
    expect(opened, JSON.stringify({ opened, peak })).toBeLessThanOrEqual(count);
    expect(measured.handles.Timeout ?? 0, JSON.stringify(measured)).toBe(0);
  }, 60_000);

  it('ends every call with APIUserAbortError when the shared signal aborts while all are in flight, and closes their connections', async () => {
    const count = 5_000;
    service = await startLargeService({ stallProducts: true });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const client = new PartnerClient({
        baseUrl: service.baseUrl,
        clientToken: 'big-client-token-0001',
        logLevel: 'off',
      });
      const controller = new AbortController();
      const calls = Array.from({ length: count }, (_, i) =>
        client.products.retrieve(`prd_${i}`, { signal: controller.signal }).catch((error) => error),
      );
      await waitFor(
        () => service!.connections().open === count,
        'every call to be in flight',
        40_000,
      );
      controller.abort();
      const ends = await Promise.all(calls);
      expect(ends.filter((end) => end instanceof APIUserAbortError)).toHaveLength(count);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      await waitFor(() => service!.connections().open === 0, 'every connection to close', 10_000);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  }, 60_000);
});
