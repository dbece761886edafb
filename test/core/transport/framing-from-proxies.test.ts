/**
 * How a proxy in front of the service may frame an answer, written byte for byte on a loopback
 * socket: an HTTP/1.0 body that ends when the connection closes, a chunked body with trailers,
 * 1xx answers before the final one. The framing is the runtime's business; what the SDK owes is
 * the answer read whole, and where the runtime refuses the framing, a connection error handled as
 * any other: a read repeated, a refund reconciled and never sent twice.
 */

import { createServer, type Server, type Socket } from 'node:net';
import { APIConnectionError, OutcomeUnknownError, PartnerClient } from 'partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';

interface RawServer {
  baseUrl: string;
  /** The request line of every request that arrived. */
  requests: string[];
  close(): Promise<void>;
}

let raw: RawServer | undefined;
afterEach(async () => {
  await raw?.close();
  raw = undefined;
});

/** A server that answers each request's head with `answer(socket)`, the bytes it writes itself. */
async function rawServer(answer: (socket: Socket) => void): Promise<RawServer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      // The requests here carry small bodies that arrive with their heads.
      if (!head.includes('\r\n\r\n')) return;
      requests.push(head.slice(0, head.indexOf('\r\n')));
      head = '';
      answer(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const PRODUCT = '{"hash":"prd_1","name":"Curso de ação"}';

async function clientOf(answer: (socket: Socket) => void, maxRetries = 1) {
  raw = await rawServer(answer);
  return new PartnerClient({
    baseUrl: raw.baseUrl,
    clientToken: 'framing-token-1',
    logLevel: 'off',
    maxRetries,
  }).forUser('framing-seller-1');
}

/** One chunk of a chunked body. */
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

/** A whole answer with a Content-Length. */
const sized = (status: string, body: string) =>
  `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('answers framed as a proxy may frame them', () => {
  it('reads an HTTP/1.0 body that ends when the connection closes', async () => {
    const client = await clientOf((socket) =>
      socket.end(`HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n${PRODUCT}`),
    );
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(JSON.parse(PRODUCT));
  });

  it('reads an HTTP/1.1 body without a length that ends with Connection: close', async () => {
    const client = await clientOf((socket) =>
      socket.end(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${PRODUCT}`,
      ),
    );
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(JSON.parse(PRODUCT));
  });

  it('reads a chunked body whose trailers follow its last chunk', async () => {
    const client = await clientOf((socket) =>
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n${chunk(PRODUCT.slice(0, 9))}${chunk(PRODUCT.slice(9))}0\r\nX-Checksum: 5d41402a\r\n\r\n`,
      ),
    );
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(JSON.parse(PRODUCT));
    // The connection stays usable: a second call on it reads as the first.
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(JSON.parse(PRODUCT));
  });

  it('reads the answer after a 103 Early Hints', async () => {
    const client = await clientOf((socket) =>
      socket.write(
        `HTTP/1.1 103 Early Hints\r\nLink: </styles.css>; rel=preload\r\n\r\n${sized('200 OK', PRODUCT)}`,
      ),
    );
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(JSON.parse(PRODUCT));
    expect(raw!.requests).toHaveLength(1);
  });
});

describe('a 100 Continue the client never asked for', () => {
  // The SDK never sends `Expect: 100-continue`; undici then takes a 100 for a broken answer and
  // closes the connection (UND_ERR_SOCKET, "bad response"), whatever follows it.
  const continued = (socket: Socket) =>
    socket.write(`HTTP/1.1 100 Continue\r\n\r\n${sized('200 OK', PRODUCT)}`);

  it('fails a read as a connection error, after repeating it', async () => {
    const client = await clientOf(continued);
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/^GET \/products\/prd_1 → connection failed: /);
    expect(raw!.requests).toHaveLength(2);
  });

  it('never sends a refund twice: it reads the refunds, and says the outcome is unknown', async () => {
    const client = await clientOf(continued);
    const error = await client.refunds.request('trx_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(raw!.requests.filter((line) => line.startsWith('POST'))).toEqual([
      'POST /api/v1/financial/refund/trx_1 HTTP/1.1',
    ]);
    expect(raw!.requests.filter((line) => line.startsWith('GET')).length).toBeGreaterThan(0);
  });
});
