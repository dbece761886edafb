// What a Node backend does with the SDK and Node's own modules: a receiver on `node:http`, a
// seller's files uploaded from disk, an export's download written to disk. Checked in the projects
// with `@types/node`, with the DOM lib and without it: `Blob`, `ReadableStream`, `Response` in the
// SDK's declarations are the globals `@types/node` declares, so Node's own values fit them.
import { createReadStream, createWriteStream, openAsBlob } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { SellerClient, User } from 'partner-sdk';
import { createWebhookHandler } from 'partner-sdk/webhooks';

/** A receiver mounted on Node's own server, as the handler itself and wrapped. */
export function webhookServers(): Server[] {
  const handler = createWebhookHandler({ on: {} });
  return [createServer(handler.node), createServer((req, res) => handler.node(req, res))];
}

/** A photo read from disk as a `Blob`, a `Buffer` and a web stream. */
export async function uploadsFromDisk(seller: SellerClient, path: string): Promise<User[]> {
  const profile = {
    name: 'Ana Souza',
    cpf: '123.456.789-09',
    birth: '1990-04-01',
    address: {
      zip_code: '01310-100',
      city: 'São Paulo',
      state: 'SP',
      country: 'Brasil',
      street: 'Avenida Paulista',
      street_number: '1000',
      neighborhood: 'Bela Vista',
    },
  };
  return [
    await seller.users.update({ ...profile, avatar: await openAsBlob(path) }),
    await seller.users.update({ ...profile, avatar: await readFile(path) }),
    await seller.users.update({ ...profile, avatar: Readable.toWeb(createReadStream(path)) }),
  ];
}

/**
 * A finished export's file streamed to disk, as the waiting guide writes it: `response.body` named
 * as `node:stream/web`'s stream, which `Readable.fromWeb` takes, also where the DOM lib gives
 * `Response` its own.
 */
export async function downloadToDisk(seller: SellerClient, url: string, path: string) {
  const response = await seller.statements.download({ url });
  await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(path));
}
