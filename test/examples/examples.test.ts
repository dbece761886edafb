/**
 * Every file in `examples/` runs against the embedded mock, as a child process started exactly the
 * way `npm run example` starts the quickstart, and must exit 0 on its own (a server left open would
 * hang it past the time limit) with its key lines printed and nothing on stderr.
 */

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
// npm scripts run the repository's pinned Node (node_modules/.bin comes first on their PATH).
const pinnedNode = `${root}node_modules/.bin/node`;
const node = existsSync(pinnedNode) ? pinnedNode : process.execPath;
const register = './examples/support/register.ts';
const TIME_LIMIT_MS = 30_000;

/** What each example must print (regular expressions over its whole output). */
const expectedLines: Record<string, RegExp[]> = {
  'quickstart.ts': [
    /against the embedded mock API at http:\/\/127\.0\.0\.1:\d+\/api\/v1/,
    /http POST \/auth → 200/,
    /120 products on 24 pages of 5/,
    /refund of trx_\w+ accepted \(202\)/,
    /… refund is requested\n[\s\S]*… refund is completed/,
    /refund final: completed/,
    /export exp_\w+ requested: processing/,
    /… export is processing\n[\s\S]*… export is completed/,
    /downloaded 3 entries, columns: data;descricao;tipo;valor;saldo/,
    /handled subscription_ended: sub_\w+ \(completed\)/,
    /the receiver answered 200/,
    /Done: every step ran\./,
  ],
  'update-profile.ts': [
    /avatar\.png: \d+ bytes, image\/png/,
    /Maria Aparecida Souza \(usr_\w+\), person/,
    /avatar now at https:\/\/\S+\.png/,
    /phones\.0\.number: /,
  ],
  'paginate-products.ts': [
    /page 1 of 3: 50 of 120 products/,
    /page 2: starts with /,
    /walked 120 products/,
    /prd_\w+: Matemática Financeira do Zero, approved/,
  ],
  'update-offer.ts': [
    /prd_\w+: Matemática Financeira do Zero \(course\)/,
    /offer ofr_\w+ ".+": R\$\s199,00 \(was R\$\s297,00\)/,
    /installments: 1, 3, 6, 12/,
    /credit_card_installments_options\.1: /,
  ],
  'refund-and-wait.ts': [
    /accepted \(202\)/,
    /… requested\n\s+… success\n\s+… completed\n\s+the refund completed/,
    /rfd_\w+: completed/,
    /refund of trx_\w+: completed/,
  ],
  'export-statement.ts': [
    /export exp_\w+: processing/,
    /export exp_\w+: already running/,
    /ready at \/downloads\/exports\/exp_\w+\.csv/,
    /saved 3 entries to /,
  ],
  'anticipations.ts': [
    /ant_\w+: approved, R\$/,
    /\d+ anticipations; the latest 5:/,
    /\d+ anticipations, R\$\s[\d.,]+ net/,
  ],
  'webhook-receiver.ts': [
    /subscription sub_\w+ ended \(delinquency\) after 3 charges\n\s+subscription_ended → the receiver answered 200/,
    /bank account bnk_\w+ is now reproved: Holder mismatch/,
    /bank account bnk_3Rt8Vw1K was deleted/,
    /unhandled event user_updated, acknowledged/,
    /first delivery → the receiver answered 200\n\s+redelivery → the receiver answered 200/,
    /the receiver warns: \[partner-sdk\] webhook delivery refused with 400: .*\n\s+.*→ the receiver answered 400/,
  ],
};

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `examples/<file>` against the mock: no PARTNER_API_*, EXAMPLE_* or WEBHOOK_PORT inherited. */
function runExample(file: string): Promise<Run> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(PARTNER_API_|EXAMPLE_|WEBHOOK_PORT$)/.test(name),
    ),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(node, ['--import', register, `examples/${file}`], {
      cwd: root,
      env,
      timeout: TIME_LIMIT_MS,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const twoAtATime = pLimit(2);

const exampleScript: string | undefined = JSON.parse(readFileSync(`${root}package.json`, 'utf8'))
  .scripts?.example;

const files = readdirSync(`${root}examples`)
  .filter((name) => name.endsWith('.ts'))
  .sort();

// Each test's clock starts before its example does: it first waits its turn behind the examples
// ahead of it, two at a time, each ended at TIME_LIMIT_MS. Its time-out counts those turns, so
// that only an example's own TIME_LIMIT_MS bounds it (a slow machine timed out the last ones
// before they ever ran).
const TEST_TIMEOUT_MS = Math.ceil(files.length / 2) * TIME_LIMIT_MS + 10_000;

describe('examples/', () => {
  it('has key lines listed here for every example, and an example for every listing', () => {
    expect(files).toEqual(Object.keys(expectedLines).sort());
  });

  it('npm run example runs the quickstart the way these tests run every example', () => {
    expect(exampleScript).toBe(`node --import ${register} examples/quickstart.ts`);
  });

  // Two at a time: most of an example's time is spent waiting on its polls (a second apart), but
  // each is a whole Node process, and the machines have 2 cores shared with the other test files.
  describe.concurrent.each(files)('%s against the embedded mock', (file) => {
    it(
      'exits 0 on its own, printing its key lines and nothing on stderr',
      async ({ expect }) => {
        const run = await twoAtATime(() => runExample(file));
        const output = `${run.stdout}\n--- stderr ---\n${run.stderr}`;
        expect({ code: run.code, signal: run.signal }, output).toEqual({ code: 0, signal: null });
        expect(run.stderr, output).toBe('');
        for (const line of expectedLines[file] ?? []) expect(run.stdout).toMatch(line);
      },
      TEST_TIMEOUT_MS,
    );
  });
});
