/**
 * `partner-sdk mock` as a CI step or a script uses it: started in the background, read once it
 * listens (its JSON line, or the `--write-env` it writes then), pointed at by the CLI, the SDK or
 * anything else, and stopped by a signal. Its flags fail as usage errors (exit 2) naming
 * themselves, never with a stack trace, and never leave a server running behind the error.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, listen as listenPlain } from '../../../test/helpers/http-servers';
import { withTimeout } from '../../../test/helpers/waits';
import { cli, jsonLines, type RunningMock, startMock } from './run-cli';

const seeded = createMockPartnerApi().sellers;
const dir = mkdtempSync(join(tmpdir(), 'partner-cli-mock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Printed {
  env: Record<string, string>;
  sellers: Array<{ type: string; code: string; publicToken: string }>;
  transactions: string[];
}

/** Starts the mock with `args` (JSON output) and resolves with its first line once it listens. */
async function started(args: string[], stdin?: 'pipe') {
  const mock = startMock(['--json', 'mock', '--transactions', '0', ...args], { stdin });
  const [first] = jsonLines(await mock.printed((t) => t.includes('\n'))) as unknown as [Printed];
  return { mock, printed: first };
}

/** Runs `args` to their end: the exit code and stderr, within 30 s. */
async function failed(args: string[]) {
  const mock = startMock(['mock', '--transactions', '0', ...args]);
  try {
    return await withTimeout(mock.exited, 30_000, `partner-sdk mock ${args.join(' ')} to end`);
  } finally {
    mock.stop('SIGKILL');
  }
}

async function stopped(mock: RunningMock, signal: NodeJS.Signals = 'SIGTERM') {
  mock.stop(signal);
  return withTimeout(mock.exited, 10_000, `the mock to end on ${signal}`);
}

describe('partner-sdk mock --seller', { timeout: 120_000 }, () => {
  it('adds a seller per flag, printed after the seeded two, each token acting for its own seller', async () => {
    const { mock, printed } = await started(['--seller', 'company', '--seller', 'person']);
    try {
      expect(printed.sellers.map((s) => s.type)).toEqual([
        'person',
        'company',
        'company',
        'person',
      ]);
      const added = printed.sellers.slice(2);
      expect(new Set(printed.sellers.map((s) => s.code)).size).toBe(4);
      expect(added.map((s) => s.publicToken)).not.toContain(seeded.person.publicToken);
      // An added seller owns no fee tier, where the seeded person has a history: the token acts
      // for the added seller, not for the person whose token the environment holds.
      const history = (token: string) =>
        cli(['--json', 'fee-tiers', 'history'], {
          env: { ...printed.env, PARTNER_API_SELLER_TOKEN: token },
        });
      const [asAdded, asPerson] = await Promise.all([
        history(added[0]!.publicToken),
        history(printed.env.PARTNER_API_SELLER_TOKEN!),
      ]);
      expect([asAdded.code, asPerson.code], asAdded.stderr).toEqual([0, 0]);
      expect(jsonLines(asAdded.stdout)).toHaveLength(0);
      expect(jsonLines(asPerson.stdout).length).toBeGreaterThan(0);
    } finally {
      await stopped(mock);
    }
  });

  it('prints the added sellers on a terminal a line each, as the seeded ones', async () => {
    const mock = startMock([
      '--format',
      'table',
      'mock',
      '--transactions',
      '0',
      '--seller',
      'company',
    ]);
    try {
      const text = await mock.printed((t) => t.includes('Ctrl-C'));
      const lines = text.split('\n').filter((l) => /^#\s+(person|company)\s+usr_/.test(l));
      expect(lines.map((l) => l.split(/\s+/)[1])).toEqual(['person', 'company', 'company']);
      expect(lines[2]).toMatch(/^# {3}company {2}usr_[a-z0-9]{8} {2}\S+$/);
    } finally {
      await stopped(mock);
    }
  });

  it('refuses a type other than person or company with exit 2, naming the flag', async () => {
    const { code, stderr } = await failed(['--seller', 'robot']);
    expect(code).toBe(2);
    expect(stderr).toContain('--seller');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('partner-sdk mock for a script', { timeout: 120_000 }, () => {
  it('writes the --write-env file once listening, NAME=value lines a shell sources, removed when it stops', async () => {
    const file = join(dir, 'mock.env');
    const { mock, printed } = await started(['--write-env', file]);
    let stop = true;
    try {
      expect(existsSync(file)).toBe(true);
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      expect(lines).toEqual(Object.entries(printed.env).map(([name, value]) => `${name}=${value}`));
      const { stdout } = await promisify(execFile)('bash', [
        '-c',
        'set -a; . "$1"; set +a; node -p "process.env.PARTNER_API_BASE_URL + \' \' + process.env.PARTNER_API_SELLER_TOKEN"',
        'bash',
        file,
      ]);
      expect(stdout.trim()).toBe(
        `${printed.env.PARTNER_API_BASE_URL} ${printed.env.PARTNER_API_SELLER_TOKEN}`,
      );
      stop = false;
      expect((await stopped(mock)).code).toBe(0);
      expect(existsSync(file)).toBe(false);
    } finally {
      if (stop) await stopped(mock);
    }
  });

  it('prints a base URL a PartnerClient takes as printed, with the printed credentials', async () => {
    const { mock, printed } = await started([]);
    try {
      const client = new PartnerClient({
        baseUrl: printed.env.PARTNER_API_BASE_URL,
        clientId: printed.env.PARTNER_API_CLIENT_ID,
        clientSecret: printed.env.PARTNER_API_CLIENT_SECRET,
      });
      const page = await client.products.list({ per_page: 2 });
      expect(page.data).toHaveLength(2);
      const seller = client.forUser(printed.env.PARTNER_API_SELLER_TOKEN!);
      expect(Array.isArray(await seller.feeTiers.history())).toBe(true);
    } finally {
      await stopped(mock);
    }
  });
});

describe('partner-sdk mock --port', { timeout: 120_000 }, () => {
  it('listens on the port given, and on a free one for --port 0', async () => {
    const port = await freePort();
    const fixed = await started(['--port', String(port)]);
    const free = await started(['--port', '0']);
    try {
      expect(fixed.printed.env.PARTNER_API_BASE_URL).toBe(`http://127.0.0.1:${port}/api/v1`);
      expect(Number(new URL(free.printed.env.PARTNER_API_BASE_URL!).port)).toBeGreaterThan(0);
    } finally {
      await Promise.all([stopped(fixed.mock), stopped(free.mock)]);
    }
  });

  it('exits 2 naming the flag and the port when the port is taken, no stack trace', async () => {
    const taken = await listenPlain(createServer());
    try {
      const port = new URL(taken.url).port;
      const { code, stderr } = await failed(['--port', port]);
      expect(code).toBe(2);
      expect(stderr).toContain(`--port ${port}`);
      expect(stderr).toContain('in use');
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      await taken.close();
    }
  });

  it.each(['65536', '-1', '1.5', 'http'])(
    'exits 2 for --port %s, naming the flag',
    async (port) => {
      const { code, stderr } = await failed(['--port', port]);
      expect(code).toBe(2);
      expect(stderr).toContain('--port');
      expect(stderr).not.toMatch(/\n\s+at /);
    },
  );
});

describe('partner-sdk mock ends when it should, and only then', { timeout: 120_000 }, () => {
  it.each(['--hashes-file', '--write-env'])(
    'exits 2 naming %s when it cannot write it, leaving nothing running',
    async (flag) => {
      const { code, stderr } = await failed([flag, join(dir, 'none', 'file.txt')]);
      expect(code).toBe(2);
      expect(stderr).toContain(flag);
      expect(stderr).toContain(`${flag} ${join(dir, 'none', 'file.txt')}: ENOENT`);
      expect(stderr).not.toMatch(/\n\s+at /);
    },
  );

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
    'stops on %s at once with exit 0, a kept-alive connection open',
    async (signal) => {
      const { mock, printed } = await started([]);
      // The client's calls leave a kept-alive connection to the mock open.
      const client = new PartnerClient({
        baseUrl: printed.env.PARTNER_API_BASE_URL,
        clientId: printed.env.PARTNER_API_CLIENT_ID,
        clientSecret: printed.env.PARTNER_API_CLIENT_SECRET,
      });
      expect((await client.products.list({ per_page: 1 })).data).toHaveLength(1);
      const { code, signal: killed } = await stopped(mock, signal);
      expect({ code, killed }).toEqual({ code: 0, killed: null });
    },
  );

  it('keeps serving after its stdin is closed, as in a CI step run in the background', async () => {
    const { mock, printed } = await started([], 'pipe');
    try {
      const stdin = mock.stdin!;
      await new Promise<void>((resolve) => stdin.end(resolve));
      let answered = 0;
      const client = new PartnerClient({
        baseUrl: printed.env.PARTNER_API_BASE_URL,
        clientId: printed.env.PARTNER_API_CLIENT_ID,
        clientSecret: printed.env.PARTNER_API_CLIENT_SECRET,
      });
      // A login and calls after stdin closed: a mock that ended on it would refuse them.
      for (let i = 0; i < 3; i++) {
        await client.products.list({ per_page: 1 });
        answered++;
      }
      expect(answered).toBe(3);
      expect(
        await Promise.race([mock.exited.then(() => 'ended'), Promise.resolve('running')]),
      ).toBe('running');
    } finally {
      await stopped(mock);
    }
  });
});

describe('partner-sdk mock --refund-polls and --export-polls', { timeout: 120_000 }, () => {
  it('sets how many status polls a refund and an export take to finish', async () => {
    const { mock, printed } = await started(['--refund-polls', '0', '--export-polls', '0']);
    try {
      const hash = printed.transactions[0]!;
      const as = (args: string[]) => cli(['--json', ...args], { env: printed.env });
      expect((await as(['refunds', 'request', hash])).code).toBe(0);
      const refund = jsonLines((await as(['refunds', 'status', hash])).stdout)[0];
      const requested = await as([
        'statements',
        'export',
        '--from',
        '2026-01-01',
        '--to',
        '2026-01-31',
      ]);
      const exportHash = jsonLines(requested.stdout)[0]!.hash as string;
      const exported = jsonLines((await as(['statements', 'status', exportHash])).stdout)[0];
      // By default (1 poll) the first poll answers `requested` and `processing`.
      expect({ refund: refund?.status, exported: exported?.status }).toEqual({
        refund: 'success',
        exported: 'completed',
      });
    } finally {
      await stopped(mock);
    }
  });

  it('refuses a count that is not a whole number from 0, naming the flag', async () => {
    const { code, stderr } = await failed(['--refund-polls', '-1']);
    expect(code).toBe(2);
    expect(stderr).toContain('--refund-polls');
  });
});
