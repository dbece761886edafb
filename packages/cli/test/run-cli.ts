/** Runs the CLI as a user does: a child process (from source, through the repo's loader). */

import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createMockPartnerApi,
  type MockPartnerApi,
  type MockPartnerApiSeed,
  type MockServer,
} from 'partner-sdk/testing';
import { afterAll, beforeAll } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command line to run the CLI from source: `node --import <loader> <bin>`. */
export const CLI_ARGS = ['--import', './packages/cli/test/register.ts', 'packages/cli/src/bin.ts'];

/** This process's environment with `extra` on top, a variable set to `undefined` left out. */
function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { ...process.env, ...extra };
  for (const name of Object.keys(env)) if (env[name] === undefined) delete env[name];
  return env as NodeJS.ProcessEnv;
}

export function cli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string | Buffer } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
      cwd: ROOT,
      env: childEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

const PTY = fileURLToPath(new URL('./on-terminal.py', import.meta.url));

/**
 * Runs the CLI on a pseudo-terminal (python3's pty module, `on-terminal.py`) and resolves with
 * what the terminal showed (its line ends as `\r\n`). In `tty` mode stdin is the terminal too; in
 * `pipe` mode it is `input`. With `hangUpAt`, the terminal goes away once it has shown that text
 * (the CLI's writes fail, and it gets SIGHUP). Asynchronous: a kit answering the CLI may live in
 * this process.
 */
export function onTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  options: { mode?: 'tty' | 'pipe'; input?: string; answer?: string; hangUpAt?: string } = {},
): Promise<{ code: number | null; shown: string }> {
  const child = spawn(
    'python3',
    [PTY, options.mode ?? 'tty', '--', process.execPath, ...CLI_ARGS, ...args],
    {
      cwd: ROOT,
      env: childEnv({ ...env, PTY_ANSWER: options.answer, PTY_HANGUP: options.hangUpAt }),
    },
  );
  let shown = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    shown += chunk;
  });
  child.stdin.end(options.input ?? '');
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, shown });
    });
  });
}

/** The JSON lines of a `--json` run's stdout. */
export const jsonLines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** A test file's testing kit on loopback, the environment that reaches it as its seller, and a scratch directory. */
export interface CliKit {
  readonly mock: MockPartnerApi;
  /** The environment of a CLI run: the kit's URL (once listening), credentials and seller token, no profile. */
  readonly env: Record<string, string | undefined>;
  /** A directory of the file's own, removed after it (`XDG_CONFIG_HOME` points inside it). */
  readonly dir: string;
  /** The kit's base URL (from `beforeAll` on). */
  readonly url: string;
  /** Runs the CLI against the kit, `extra` variables on top of {@link CliKit.env}. */
  run(
    args: string[],
    input?: string,
    extra?: Record<string, string | undefined>,
  ): Promise<CliResult>;
}

/**
 * The kit a CLI test file runs against: listening before its tests, closed after them with its
 * directory. Profiles and the caller's own `PARTNER_API_CLIENT_TOKEN` are kept out, so a
 * developer's configuration never decides a test.
 */
export function useCliKit(name: string, options?: MockPartnerApiSeed): CliKit {
  const mock = createMockPartnerApi(options);
  const dir = mkdtempSync(join(tmpdir(), `partner-cli-${name}-`));
  let server: MockServer | undefined;
  const env: Record<string, string | undefined> = {
    PARTNER_API_CLIENT_ID: mock.credentials.clientId,
    PARTNER_API_CLIENT_SECRET: mock.credentials.clientSecret,
    PARTNER_API_CLIENT_TOKEN: undefined,
    PARTNER_API_SELLER_TOKEN: mock.sellers.person.publicToken,
    PARTNER_SDK_PROFILE: undefined,
    XDG_CONFIG_HOME: join(dir, 'config'),
  };
  beforeAll(async () => {
    server = await mock.listen();
    env.PARTNER_API_BASE_URL = server.url;
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    mock,
    env,
    dir,
    get url() {
      if (!server) throw new Error('the kit listens from beforeAll on');
      return server.url;
    },
    run: (args, input, extra = {}) => cli(args, { env: { ...env, ...extra }, input }),
  };
}

/** A `partner-sdk mock` started by {@link startMock}, or a command by {@link startCli}. */
export interface RunningMock {
  /** Resolves with its stdout so far once `until` holds for it (rejects after 30 s). */
  printed(until: (text: string) => boolean): Promise<string>;
  /** Settles when the process ends: its exit code (or the signal that killed it) and output. */
  readonly exited: Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>;
  /** Resolves with its stderr so far once `until` holds for it (rejects after 30 s). */
  noted(until: (text: string) => boolean): Promise<string>;
  /** Sends `signal` (SIGTERM by default) unless it has ended. */
  stop(signal?: NodeJS.Signals): void;
}

/**
 * Starts `partner-sdk <args>` (a `mock` command line) as a child process, from source, as a CI
 * step starts it in the background. stdin is `ignore`d, or a pipe the caller may end.
 */
export function startMock(
  args: string[],
  options: { stdin?: 'ignore' | 'pipe' } = {},
): RunningMock & { stdin: NodeJS.WritableStream | null } {
  return startCli(args, options);
}

/**
 * Starts `partner-sdk <args>` as a child process, from source, `env` on top of this process's
 * environment, for a test that acts on it while it runs (signals it, feeds its stdin slowly).
 */
export function startCli(
  args: string[],
  options: { stdin?: 'ignore' | 'pipe'; env?: Record<string, string | undefined> } = {},
): RunningMock & { stdin: NodeJS.WritableStream | null } {
  const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
    cwd: ROOT,
    env: childEnv(options.env),
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const seen: Array<() => void> = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const check of seen) check();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const check of seen) check();
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  const waitUntil = (stream: () => string, until: (text: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`it printed: ${stdout}${stderr}`)), 30_000);
      const check = () => {
        if (!until(stream())) return;
        clearTimeout(timer);
        resolve(stream());
      };
      seen.push(check);
      check();
      void exited.then(() => reject(new Error(`it ended, having printed: ${stdout}${stderr}`)));
    });
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  return {
    printed: (until) => waitUntil(() => stdout, until),
    noted: (until) => waitUntil(() => stderr, until),
    exited,
    stop,
    stdin: child.stdin,
  };
}

/**
 * The variables of a traced run against `server` of `mock`, signed in as its person seller, with
 * every OpenTelemetry exporter variable of this process left out (a test sets the ones it means).
 */
export function tracedRunEnv(
  mock: MockPartnerApi,
  server: MockServer,
): Record<string, string | undefined> {
  return {
    PARTNER_API_BASE_URL: server.url,
    PARTNER_API_CLIENT_ID: mock.credentials.clientId,
    PARTNER_API_CLIENT_SECRET: mock.credentials.clientSecret,
    PARTNER_API_CLIENT_TOKEN: undefined,
    PARTNER_API_SELLER_TOKEN: mock.sellers.person.publicToken,
    OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
    OTEL_EXPORTER_OTLP_HEADERS: undefined,
    OTEL_EXPORTER_OTLP_PROTOCOL: undefined,
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: undefined,
    OTEL_SERVICE_NAME: undefined,
    OTEL_RESOURCE_ATTRIBUTES: undefined,
  };
}
