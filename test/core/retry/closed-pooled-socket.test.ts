/**
 * A kept-alive socket the server closed: it answers one request and then closes the idle socket,
 * resets its idle sockets (a load balancer's idle time-out), answers with `Connection: close`, or
 * resets the socket as the next request arrives on it, before or after acting on it, the way load
 * balancers and servers with short idle time-outs do. The next call on the client's pool
 * succeeds, or is replayed or reconciled as DESIGN says: a read is retried; a refund whose
 * request may have reached the service is never sent twice.
 */

import http from 'node:http';
import type { Socket } from 'node:net';
import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../helpers/http-servers';

/**
 * What the server does: after every answer, close the socket once it is idle, or say
 * `Connection: close`; or, once, reset a socket the pool reuses, as the request arrives or after
 * the service acted on it.
 */
type Hostility = 'close-when-idle' | 'connection-close' | 'reset-before' | 'reset-after';

interface Front {
  server: RunningServer;
  mock: MockPartnerApi;
  /** From now on the server makes its move (the closes are made from the start). */
  arm(): void;
  /** Whether it made its move. */
  struck(): boolean;
  /** Resets every socket it holds, as a load balancer does to a connection idle past its limit. */
  resetIdle(): void;
}

let front: Front | undefined;
afterEach(async () => {
  await front?.server.close();
  front = undefined;
});

/** Reads a node:http request as a Fetch `Request` for the kit. */
async function asRequest(req: http.IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string' && name !== 'connection') headers.set(name, value);
  }
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
  return new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body });
}

/** The kit over loopback HTTP, behind a server that makes its hostile move. */
async function startFront(hostility: Hostility): Promise<Front> {
  const mock = createMockPartnerApi();
  const served = new WeakMap<Socket, number>();
  let armed = hostility === 'close-when-idle' || hostility === 'connection-close';
  let struck = false;
  const server = http.createServer(async (req, res) => {
    const socket = req.socket;
    const reused = (served.get(socket) ?? 0) > 0;
    served.set(socket, (served.get(socket) ?? 0) + 1);
    const reset = armed && !struck && reused;
    if (reset && hostility === 'reset-before') {
      struck = true;
      return void socket.resetAndDestroy();
    }
    const answer = await mock.fetch(await asRequest(req));
    if (reset && hostility === 'reset-after') {
      struck = true;
      return void socket.resetAndDestroy();
    }
    const headers = Object.fromEntries(answer.headers);
    const closing = armed && (hostility === 'close-when-idle' || hostility === 'connection-close');
    if (closing) struck = true;
    if (closing && hostility === 'connection-close') headers.connection = 'close';
    res.writeHead(answer.status, headers);
    res.end(Buffer.from(await answer.arrayBuffer()));
    if (closing && hostility === 'close-when-idle') res.once('finish', () => socket.end());
  });
  const arm = () => {
    armed = true;
  };
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const resetIdle = () => {
    for (const socket of sockets) socket.resetAndDestroy();
  };
  front = { server: await listen(server), mock, arm, struck: () => struck, resetIdle };
  return front;
}

/**
 * Calls until the client's pool holds idle sockets (it may open a second one for a second call
 * made as the first one's socket is being released), then arms the server: the next call goes on
 * a socket that has served before.
 */
async function warmThenArm(seller: ReturnType<typeof sellerOf>, trx: string): Promise<void> {
  await seller.refunds.list(trx);
  await seller.refunds.list(trx);
  front!.arm();
}

function sellerOf({ server, mock }: Front, maxRetries = 2) {
  return new PartnerClient({
    baseUrl: `${server.url}/api/v1`,
    clientToken: mock.credentials.clientToken,
    logLevel: 'off',
    maxRetries,
  }).forUser(mock.sellers.person.publicToken);
}

/** The refund requests the kit received for `transaction`. */
const refundPosts = (mock: MockPartnerApi, transaction: string) =>
  mock.requests.filter((r) => r.method === 'POST' && r.path === `/financial/refund/${transaction}`);

describe('a kept-alive socket the server closed', () => {
  it('reads again on a fresh socket after the server closed the idle one', async () => {
    const { mock } = await startFront('close-when-idle');
    const seller = sellerOf(front!);
    const trx = mock.addTransaction();
    await expect(seller.refunds.list(trx)).resolves.toEqual([]);
    // The client has heard the close before its next call.
    await front!.server.socketsClosed();
    await expect(seller.refunds.list(trx)).resolves.toEqual([]);
    expect(front!.struck()).toBe(true);
    expect(mock.requests).toHaveLength(2);
  });

  it('sends a refund once after the server reset its idle sockets', async () => {
    const { mock } = await startFront('reset-before');
    const seller = sellerOf(front!);
    const trx = mock.addTransaction();
    await seller.refunds.list(trx);
    await seller.refunds.list(trx);
    front!.resetIdle();
    await front!.server.socketsClosed();
    await expect(seller.refunds.request(trx)).resolves.toMatchObject({ kind: 'accepted' });
    // The server has closed them, but the client's pool may not have heard of the reset yet: the
    // request then goes out on a dead socket, fails, and is sent again only after the read that
    // shows no refund. Either way one request reaches the kit.
    expect(refundPosts(mock, trx)).toHaveLength(1);
    expect(mock.requests.map((r) => r.method).join(' ')).toMatch(/^GET GET (GET )?POST$/);
  });

  it('sends a refund on a fresh socket after an answer with Connection: close, once', async () => {
    const { mock } = await startFront('connection-close');
    const seller = sellerOf(front!);
    const trx = mock.addTransaction();
    await seller.refunds.list(trx);
    await seller.refunds.list(trx);
    await expect(seller.refunds.request(trx)).resolves.toMatchObject({ kind: 'accepted' });
    expect(front!.struck()).toBe(true);
    expect(refundPosts(mock, trx)).toHaveLength(1);
  });

  it('retries a read whose reused socket was reset as it arrived', async () => {
    const { mock } = await startFront('reset-before');
    const seller = sellerOf(front!);
    const trx = mock.addTransaction();
    await warmThenArm(seller, trx);
    await expect(seller.refunds.list(trx)).resolves.toEqual([]);
    expect(front!.struck()).toBe(true);
    // The reset request never reached the kit; the retry did.
    expect(mock.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
  });

  it('sends a refund reset before the service saw it once, after reading that none was made', async () => {
    const { mock } = await startFront('reset-before');
    const seller = sellerOf(front!);
    const trx = mock.addTransaction();
    await warmThenArm(seller, trx);
    await expect(seller.refunds.request(trx)).resolves.toMatchObject({ kind: 'accepted' });
    expect(front!.struck()).toBe(true);
    expect(refundPosts(mock, trx)).toHaveLength(1);
    // Two warm-up reads, the reconciling read, the one request that reached the kit.
    expect(mock.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'POST']);
    await expect(seller.refunds.list(trx)).resolves.toHaveLength(1);
  });

  it('returns the refund a request reset after the service acted made, never sending it again', async () => {
    const { mock } = await startFront('reset-after');
    const seller = sellerOf(front!);
    const trx = mock.addTransaction();
    await warmThenArm(seller, trx);
    const result = await seller.refunds.request(trx);
    expect(result).toMatchObject({ kind: 'existing', recovered: true });
    expect(front!.struck()).toBe(true);
    expect(refundPosts(mock, trx)).toHaveLength(1);
    await expect(seller.refunds.list(trx)).resolves.toHaveLength(1);
  });

  it('with maxRetries 0 leaves the refund reset after acting to the caller, unsent again', async () => {
    const { mock } = await startFront('reset-after');
    const seller = sellerOf(front!, 0);
    const trx = mock.addTransaction();
    await warmThenArm(seller, trx);
    const error = await seller.refunds.request(trx).catch((e: unknown) => e);
    expect((error as Error).name).toBe('APIConnectionError');
    expect((error as Error).message).toMatch(
      /^POST \/financial\/refund\/\S+ → connection failed: /,
    );
    expect(refundPosts(mock, trx)).toHaveLength(1);
  });
});
