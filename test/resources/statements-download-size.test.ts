/**
 * What bounds a download's body, through the public API against a loopback file host: the
 * client's `maxResponseBytes` (a default for the bodies the SDK reads) leaves a file the partner
 * streams whole, however large; a `maxResponseBytes` given to the download itself bounds the file,
 * so a partner who reads it into memory gets a typed error from a body that never ends.
 */

import { PartnerClient, ResponseTooLargeError } from 'partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type LargeService, startLargeService } from '../helpers/large-service';
import { waitFor } from '../helpers/waits';

const MiB = 2 ** 20;

let service: LargeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

function clientOf(current: LargeService, maxResponseBytes = 32 * MiB) {
  return new PartnerClient({
    baseUrl: current.baseUrl,
    clientToken: 'big-client-token-0001',
    logLevel: 'off',
    maxResponseBytes,
  });
}

describe('the size of a download', () => {
  it("is not bounded by the client's maxResponseBytes", async () => {
    service = await startLargeService({ downloadBytes: 3 * MiB });
    const response = await clientOf(service, MiB).statements.download({
      url: `${service.baseUrl}/downloads/big.csv`,
    });
    expect((await response.arrayBuffer()).byteLength).toBe(3 * MiB);
  });

  it('is bounded by a maxResponseBytes given to the download: an endless file fails typed and is hung up on', async () => {
    service = await startLargeService();
    const url = `${service.baseUrl}/downloads/endless`;
    const response = await clientOf(service).statements.download(
      { url },
      { maxResponseBytes: 4 * MiB },
    );
    const error = await response.arrayBuffer().catch((caught) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 4 * MiB, method: 'GET' });
    expect((error as Error).message).toMatch(/exceeds maxResponseBytes \(4194304 bytes\)/);
    await waitFor(() => service!.connections().open === 0, 'the file host to be hung up on');
  });

  it('within a maxResponseBytes given to the download, a file of exactly that size comes whole', async () => {
    service = await startLargeService({ downloadBytes: 2 * MiB });
    const url = `${service.baseUrl}/downloads/big.csv`;
    const response = await clientOf(service).statements.download(
      { url },
      { maxResponseBytes: 2 * MiB },
    );
    expect((await response.arrayBuffer()).byteLength).toBe(2 * MiB);
  });

  it("bounded and given a signal, still fails with the signal's reason when it aborts first", async () => {
    service = await startLargeService();
    const controller = new AbortController();
    const url = `${service.baseUrl}/downloads/endless`;
    const response = await clientOf(service).statements.download(
      { url },
      { maxResponseBytes: 512 * MiB, signal: controller.signal },
    );
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    const error = await reader.read().catch((caught) => caught);
    expect(error).toBe(controller.signal.reason);
  });
});
