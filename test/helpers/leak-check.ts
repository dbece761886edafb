import { afterEach, beforeEach, expect } from 'vitest';
import { PartnerClient } from '../../src/index';
import { createMockPartnerApi, type MockPartnerApi, type MockServer } from '../../src/testing';
import { type StubHandler, type StubServer, startStub } from './stub-server';
import { sleep } from './waits';

/** How many timers keep the process alive right now. */
export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

/** How many timers and TCP sockets keep the process alive right now. */
export function activeHandles(): { timers: number; sockets: number } {
  const info = process.getActiveResourcesInfo();
  return {
    timers: info.filter((kind) => kind === 'Timeout').length,
    sockets: info.filter((kind) => kind.startsWith('TCP')).length,
  };
}

/**
 * Asserts that, once the servers are closed, no timer or socket beyond `before` is left. Sockets
 * close, and a server-side delay learns of its aborted request, only a few event-loop turns after
 * the server ends them: on a loaded machine that can take longer than any fixed number of turns,
 * so this waits up to two seconds of wall time (the leaks it catches last 10 s or forever).
 */
export async function expectNothingLeft(before: { timers: number; sockets: number }) {
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    const now = activeHandles();
    if (now.timers <= before.timers && now.sockets <= before.sockets) break;
    await sleep(5);
  }
  const now = activeHandles();
  expect(now.timers).toBeLessThanOrEqual(before.timers);
  expect(now.sockets).toBeLessThanOrEqual(before.sockets);
}

/**
 * The testing kit's mock on a real loopback server, and a client for it acting for the person
 * seller (`forUser`: refunds and statements are seller-scoped).
 */
export async function startMock(seed?: Parameters<typeof createMockPartnerApi>[0]): Promise<{
  mock: MockPartnerApi;
  server: MockServer;
  client: ReturnType<PartnerClient['forUser']>;
}> {
  const mock = createMockPartnerApi(seed);
  const server = await mock.listen();
  const client = new PartnerClient({
    baseUrl: server.url,
    clientToken: mock.credentials.clientToken,
    logLevel: 'off',
  }).forUser(mock.sellers.person.publicToken);
  return { mock, server, client };
}

/** Requests to a path of the mock, in order. */
export function requestsTo(mock: MockPartnerApi, method: string, path: string) {
  return mock.requests.filter((r) => r.method === method && r.path === path);
}

/**
 * Registers hooks that close every server a test started and then check that no timer or socket
 * was left behind; returns the starters that register their servers for closing.
 */
export function serversClosedAfterEach(): {
  mockApi: typeof startMock;
  stub: (handler: StubHandler) => Promise<StubServer>;
} {
  const closers: Array<{ close(): Promise<void> }> = [];
  let before: ReturnType<typeof activeHandles>;
  beforeEach(() => {
    before = activeHandles();
  });
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((server) => server.close()));
    await expectNothingLeft(before);
  });
  return {
    mockApi: async (seed) => {
      const started = await startMock(seed);
      closers.push(started.server);
      return started;
    },
    stub: async (handler) => {
      const server = await startStub(handler);
      closers.push(server);
      return server;
    },
  };
}
