/** Runs the CLI as a user does: a child process (from source, through the repo's loader). */

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command line to run the CLI from source: `node --import <loader> <bin>`. */
export const CLI_ARGS = ['--import', './packages/cli/test/register.ts', 'packages/cli/src/bin.ts'];

export function cli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, ...options.env };
    for (const name of Object.keys(env)) if (env[name] === undefined) delete env[name];
    const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
      cwd: ROOT,
      env: env as NodeJS.ProcessEnv,
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

/** The JSON lines of a `--json` run's stdout. */
export const jsonLines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
