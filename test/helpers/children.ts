/**
 * Runs test fixtures as real child processes (TypeScript through the examples' register hook, on
 * the same Node as the tests) and talks to them in JSON lines: one command on stdin, one answer on
 * stdout. Every wait is bounded; `close` kills what is left.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const register = fileURLToPath(new URL('examples/support/register.ts', `file://${root}`));

export interface Child {
  readonly process: ChildProcess;
  /** Sends one command and resolves to the child's next answer. */
  ask<T = Record<string, unknown>>(command: unknown, timeoutMs?: number): Promise<T>;
  /** The next line the child writes (its first is `{ ready: true }`). */
  next<T = Record<string, unknown>>(timeoutMs?: number): Promise<T>;
  /** Kills the child (SIGKILL) unless it has exited, and waits for it. */
  close(): Promise<void>;
  /** What the child wrote on stderr, for failure messages. */
  stderr(): string;
}

export function startChild(fixture: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', register, fixture], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else queue.push(line);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const next = <T>(timeoutMs = 20_000): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const queued = queue.shift();
      if (queued !== undefined) return resolve(JSON.parse(queued) as T);
      const timer = setTimeout(
        () => reject(new Error(`no answer from ${fixture} within ${timeoutMs} ms:\n${errors}`)),
        timeoutMs,
      );
      const gone = () => {
        clearTimeout(timer);
        reject(new Error(`${fixture} exited (${child.exitCode ?? child.signalCode}):\n${errors}`));
      };
      child.once('exit', gone);
      waiting.push((line) => {
        clearTimeout(timer);
        child.off('exit', gone);
        resolve(JSON.parse(line) as T);
      });
    });

  return {
    process: child,
    next,
    ask(command, timeoutMs) {
      child.stdin?.write(`${JSON.stringify(command)}\n`);
      return next(timeoutMs);
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stderr: () => errors,
  };
}

/** Starts `count` children of one fixture and waits until each says it is ready. */
export async function startChildren(
  count: number,
  fixture: string,
  env: (index: number) => Record<string, string>,
): Promise<(Child & { ready: Record<string, unknown> })[]> {
  const children = Array.from({ length: count }, (_, index) => startChild(fixture, env(index)));
  try {
    // Several Node processes loading the SDK and a Redis library at once is CPU work: on a loaded
    // 2-core machine with the compile cache still cold, four of them took longer than 30 s.
    const ready = await Promise.all(children.map((child) => child.next(60_000)));
    return children.map((child, index) => ({ ...child, ready: ready[index]! }));
  } catch (error) {
    await Promise.all(children.map((child) => child.close()));
    throw error;
  }
}

/** What {@link runToExit} saw: the script's last line (parsed), its exit code and how long it took to end after that line. */
export interface RanToExit<T> {
  printed: T;
  exitCode: number | null;
  exitAfterMs: number;
}

/**
 * Runs a fixture that prints one JSON line as its last act and then must end by itself; resolves
 * once it exited, or kills it and rejects after `timeoutMs`.
 */
export function runToExit<T = Record<string, unknown>>(
  fixture: string,
  env: Record<string, string>,
  timeoutMs = 20_000,
  nodeOptions: string[] = [],
): Promise<RanToExit<T>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeOptions, '--import', register, fixture], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    let lastLineAt = 0;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.endsWith('\n')) lastLineAt = performance.now();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${fixture} still running after ${timeoutMs} ms: ${stdout}${stderr}`));
    }, timeoutMs);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      if (!lastLineAt) return reject(new Error(`${fixture} exited ${exitCode}: ${stderr}`));
      const printed = JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
      resolve({ printed, exitCode, exitAfterMs: performance.now() - lastLineAt });
    });
  });
}
