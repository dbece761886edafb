/**
 * An upload whose connection drops part way, against a loopback service that cuts the first
 * attempt after 1 MiB: a stream (which cannot be read twice) and a file from disk alike are sent
 * again whole, from the bytes read once, where the call may be repeated; where it may not (a
 * profile carrying `company_partner`), the call fails typed, with nothing sent again.
 */

import { createHash } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APIConnectionError, PartnerClient, type UpdateUserParams } from 'partner-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paulistaAddress } from '../../helpers/addresses';
import { type LargeService, startLargeService } from '../../helpers/large-service';

const MiB = 2 ** 20;
const BYTES = 8 * MiB;

/** `BYTES` bytes that differ from chunk to chunk, so a part sent twice or out of order shows. */
const content = new Uint8Array(BYTES).map((_, index) => (index * 7 + (index >> 16)) & 0xff);
const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let service: LargeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

let folder: string;
let file: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'upload-replay-'));
  file = join(folder, 'document.pdf');
  await writeFile(file, content);
});
afterAll(() => rm(folder, { recursive: true, force: true }));

const person = {
  name: 'Ana Souza',
  cpf: '123.456.789-09',
  birth: '1990-04-01',
  address: paulistaAddress,
};
const company = {
  name: 'Pães da Ana',
  cnpj: '12.345.678/0001-90',
  company_type: 'mei',
  social_name: 'Pães da Ana LTDA',
  address: paulistaAddress,
  company_partner: { name: 'Ana Souza', cpf: '123.456.789-09', birth: '1990-04-01' },
} as const;

/** A stream of `content` in 64 KiB chunks, counting the bytes it gave. */
function counted(): { stream: ReadableStream<Uint8Array>; given(): number } {
  let given = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = content.slice(given, given + 64 * 1024);
      given += chunk.byteLength;
      controller.enqueue(chunk);
      if (given === BYTES) controller.close();
    },
  });
  return { stream, given: () => given };
}

async function sellerOf(current: LargeService) {
  return new PartnerClient({
    baseUrl: current.baseUrl,
    clientToken: 'big-client-token-0001',
    logLevel: 'off',
    maxRetries: 2,
  }).forUser('big-seller-public-token');
}

/** The avatar part of the one upload that arrived whole. */
async function arrivedAvatar(current: LargeService): Promise<Uint8Array> {
  expect(current.uploadBodies).toHaveLength(1);
  const part = (await current.uploadBodies[0]!.formData()).get('avatar');
  expect(part).toBeInstanceOf(File);
  return new Uint8Array(await (part as File).arrayBuffer());
}

describe('an upload whose connection drops part way', () => {
  it('sends a stream again whole, from the bytes read once', async () => {
    service = await startLargeService({ keepUploads: true, dropUploads: { count: 1, bytes: MiB } });
    const avatar = counted();
    const seller = await sellerOf(service);
    await seller.users.update({ ...person, avatar: avatar.stream });
    expect(service.dropped).toBe(1);
    expect(digest(await arrivedAvatar(service))).toBe(digest(content));
    expect(avatar.given()).toBe(BYTES);
  });

  it('sends a file from disk again whole', async () => {
    service = await startLargeService({ keepUploads: true, dropUploads: { count: 1, bytes: MiB } });
    const seller = await sellerOf(service);
    await seller.users.update({ ...person, avatar: await openAsBlob(file) });
    expect(service.dropped).toBe(1);
    expect(digest(await arrivedAvatar(service))).toBe(digest(content));
  });

  it('fails with APIConnectionError and sends nothing again when the update may not be repeated', async () => {
    service = await startLargeService({ keepUploads: true, dropUploads: { count: 1, bytes: MiB } });
    const seller = await sellerOf(service);
    const params = { ...company, avatar: counted().stream } as UpdateUserParams;
    const error = await seller.users.update(params).catch((caught) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).message).toMatch(/POST \/users\/update/);
    expect(service.dropped).toBe(1);
    expect(service.uploads).toEqual([]);
    expect(service.connections().opened).toBe(1);
  });
});
