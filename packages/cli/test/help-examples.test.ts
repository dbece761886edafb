/**
 * A command's `--help` examples are what a new user copies first, so the examples that can run
 * against the kit as written do: each `$` line of the help runs in bash, with `partner-sdk` the
 * CLI from source and the files it names made from the kit's seeded data.
 */

import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { paulistaAddress } from '../../../test/helpers/addresses';
import { CLI_ARGS, useCliKit } from './run-cli';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const kit = useCliKit('help-examples', { refundPolls: 0, exportPolls: 0 });
const { mock, env, dir, run } = kit;

/**
 * The `$` lines of each command's `--help`, all printed by one process (print-helps.ts), without
 * blocking this one (the kit answers from it).
 */
function examplesOf(commands: string[][]): Promise<string[]> {
  const args = [
    ...CLI_ARGS.slice(0, 2),
    'packages/cli/test/print-helps.ts',
    JSON.stringify(commands),
  ];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
      (error, stdout) => {
        if (error) return reject(error);
        const helps = Object.values(JSON.parse(stdout) as Record<string, string>);
        resolve(
          helps.flatMap((help) =>
            help
              .split('\n')
              .filter((line) => line.startsWith('  $ '))
              .map((line) => line.slice('  $ '.length)),
          ),
        );
      },
    );
  });
}

/**
 * Runs one example in bash in the kit's directory, without blocking this process (the kit answers
 * from it); resolves with its exit status and output.
 */
function runExample(example: string): Promise<{ code: number | null; output: string }> {
  const cli = [
    process.execPath,
    ...CLI_ARGS.map((arg) => (arg.startsWith('-') ? arg : ROOT + arg)),
  ];
  const script = `partner-sdk() { ${cli.join(' ')} "$@"; }\ncd '${dir}'\n${example}`;
  const variables = { ...process.env, ...env, TOKEN: mock.sellers.person.publicToken };
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { env: variables as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe('partner-sdk --help examples', { timeout: 180_000 }, () => {
  it('every example of users update --help updates the kit seller profile', async () => {
    const profile = {
      name: 'Maria Souza',
      cpf: '529.982.247-25',
      birth: '1988-04-12',
      address: paulistaAddress,
    };
    await writeFile(join(dir, 'profile.json'), JSON.stringify(profile));
    await writeFile(join(dir, 'photo.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
    await writeFile(join(dir, 'seller-token.txt'), `${mock.sellers.person.publicToken}\n`);
    const examples = await examplesOf([['users', 'update']]);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const before = mock.requests.filter((r) => r.path === '/users/update').length;
      const result = await runExample(example);
      expect(result, example).toMatchObject({ code: 0 });
      expect(
        mock.requests.filter((r) => r.path === '/users/update'),
        example,
      ).toHaveLength(before + 1);
    }
  });

  it('the examples of every command that need no export, receiver, Redis, prompt or server of their own run as written against the kit', async () => {
    const refundable = mock.transactions.refundable;
    await writeFile(join(dir, 'cohort.csv'), `transaction\n${refundable.slice(4, 7).join('\n')}\n`);
    await writeFile(
      join(dir, 'sales.csv'),
      `${refundable
        .slice(7, 9)
        .map((h) => `${h},29700`)
        .join('\n')}\n`,
    );
    const { hash, offerCode } = mock.products.course;
    await writeFile(
      join(dir, 'prices.csv'),
      `product_hash,offer_code,price\n${hash},${offerCode},4990\n`,
    );
    // The refund the status and wait examples look at, as their reader would have requested it.
    expect((await run(['refunds', 'request', 'trx_9Fh2Kd81'])).code).toBe(0);
    // An export the kit has not made, a receiver or Redis to reach, a prompt, a server to stop.
    const elsewhere = /exp_8Gx2|--queue|login|trigger|replay|mock|~\//;
    const commands = [
      ['products'],
      ['products', 'get'],
      ['products', 'list'],
      ['bank-accounts'],
      ['bank-accounts', 'update'],
      ['refunds', 'request'],
      ['refunds'],
      ['refunds', 'wait'],
      ['statements'],
      ['statements', 'export'],
      ['anticipations'],
      ['anticipations', 'confirm'],
      ['anticipations', 'list'],
      ['fee-tiers'],
      ['fee-tiers', 'history'],
      ['offers'],
      ['offers', 'update'],
      ['completion'],
    ];
    const ran: string[] = [];
    // A group's help repeats some of its commands' examples: each runs once.
    for (const example of new Set(await examplesOf(commands))) {
      if (elsewhere.test(example)) continue;
      const result = await runExample(example);
      expect(result.code, `${example}\n${result.output}`).toBe(0);
      ran.push(example);
    }
    expect(ran.length).toBeGreaterThan(8);
  });
});
