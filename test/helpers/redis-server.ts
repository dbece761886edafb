/**
 * A real `redis-server` for the Redis store tests: started on a free loopback port with nothing
 * persisted (its own temporary directory), stoppable and restartable on the same port (to test a
 * Redis that goes away mid-run), and removed after. Never a system service.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /**
   * Stops the server (SIGTERM, then SIGKILL); its data are gone, unless `keepData`: then it saves
   * them first (SHUTDOWN SAVE) and the next `start` loads them, as a persistent Redis would.
   */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

const READY_WITHIN_MS = 10_000;
const STOP_WITHIN_MS = 5_000;

/**
 * A free loopback port. Its own, not http-servers' `freePort`: the bench loads this file with plain
 * Node, outside vitest, where http-servers' imports do not resolve.
 */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start within ${READY_WITHIN_MS} ms:\n${output}`));
    }, READY_WITHIN_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error(
          `could not run redis-server (${error.message}): install it (Debian: apt-get install redis-server)`,
        ),
      );
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`));
    });
  });
}

function halt(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_WITHIN_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Starts a fresh `redis-server` on a free loopback port. */
export async function startRedisServer(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'partner-sdk-redis-'));
  // A port found free may be taken before redis-server binds it: try a few.
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 0; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await launch(port, dir);
    } catch (error) {
      if (attempt >= 2) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  let running: ChildProcess | undefined = child;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop(options) {
      if (running && options?.keepData) {
        const exited = new Promise<void>((resolve) => running?.once('exit', () => resolve()));
        const socket = connect(port, '127.0.0.1', () => socket.write('SHUTDOWN SAVE\r\n'));
        socket.on('error', () => undefined);
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, STOP_WITHIN_MS))]);
        socket.destroy();
      }
      if (running) await halt(running);
      running = undefined;
    },
    async start() {
      if (!running) running = await launch(port, dir);
    },
    async close() {
      if (running) await halt(running);
      running = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A `redis-server` for the test file that calls this: started before its tests, closed after them.
 * The handle answers for the running server, so the file reads `redis.url` in its tests as it would
 * a server it started itself.
 */
export function useRedisServer(): RedisServer {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  }, 20_000);
  afterAll(() => server?.close());
  const started = (): RedisServer => {
    if (!server) throw new Error('the redis-server is started in beforeAll: read it in a test');
    return server;
  };
  return {
    get port() {
      return started().port;
    },
    get url() {
      return started().url;
    },
    stop: (options) => started().stop(options),
    start: () => started().start(),
    close: () => started().close(),
  };
}
