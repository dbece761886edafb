/**
 * `partner-sdk mock`: the testing kit's service on loopback, and the environment that points
 * the CLI (or any script using the SDK) at it.
 *
 * @module
 */

import { Command } from 'commander';
import { createMockPartnerApi, type MockPartnerApi, type MockServer } from 'partner-sdk/testing';
import { type Context, UsageError } from '../context';
import { onInterrupt } from '../interrupt';
import { type Action, examples } from './action';
import { printEnvironment, writeEnvFile, writeFlagFile } from './mock-print';

interface MockFlags {
  rateLimit?: string;
  latency?: string;
  refundPolls?: string;
  exportPolls?: string;
  transactions: string;
  seller: string[];
  port: string;
  hashesFile?: string;
  writeEnv?: string;
}

/** A numeric flag's value, `undefined` when not given; a usage error naming it when it is not `wanted`. */
function numberFlag(
  flag: string,
  value: string | undefined,
  wanted: string,
  accepts: (n: number) => boolean,
): number | undefined {
  if (value === undefined) return undefined;
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n) || !accepts(n)) {
    throw new UsageError(`${flag} must be ${wanted}, got "${value}"`);
  }
  return n;
}

const whole = (max: number) => (n: number) => Number.isInteger(n) && n >= 0 && n <= max;

/** Every flag checked before anything starts: the kit's seed, the sellers to add, the port. */
function settingsOf(options: MockFlags) {
  const count = numberFlag(
    '--transactions',
    options.transactions,
    'a whole number from 0 to 100000',
    whole(100_000),
  );
  const polls = (flag: string, value?: string) =>
    numberFlag(flag, value, 'a whole number from 0 to 1000', whole(1_000));
  for (const type of options.seller) {
    if (type !== 'person' && type !== 'company') {
      throw new UsageError(`--seller must be person or company, got "${type}"`);
    }
  }
  return {
    seed: {
      rateLimit: numberFlag('--rate-limit', options.rateLimit, 'a positive number', (n) => n > 0),
      latencyMs: numberFlag('--latency', options.latency, 'a number ≥ 0', (n) => n >= 0),
      refundPolls: polls('--refund-polls', options.refundPolls),
      exportPolls: polls('--export-polls', options.exportPolls),
    },
    transactions: count ?? 0,
    sellers: options.seller as Array<'person' | 'company'>,
    port: numberFlag('--port', options.port, 'a whole number from 0 to 65535', whole(65_535)) ?? 0,
  };
}

/** Listens on `port`, a port that cannot be had a usage error naming it and why. */
async function listenOn(mock: MockPartnerApi, port: number): Promise<MockServer> {
  try {
    return await mock.listen({ port });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    if (code === 'EADDRINUSE') {
      throw new UsageError(
        `--port ${port} is in use (EADDRINUSE): choose another, or --port 0 for a free one`,
      );
    }
    if (code === 'EACCES') {
      throw new UsageError(`--port ${port} needs privileges (EACCES): choose one from 1024`);
    }
    throw error;
  }
}

async function mockAction(context: Context, options: MockFlags) {
  const settings = settingsOf(options);
  const mock = createMockPartnerApi(settings.seed);
  const sellers = [
    ...mock.sellers,
    ...settings.sellers.map((type) => mock.addSeller({ type })),
  ].map(({ type, code, publicToken }) => ({ type, code, publicToken }));
  const transactions = [
    ...mock.transactions.refundable,
    ...Array.from({ length: settings.transactions }, () => mock.addTransaction()),
  ];
  if (options.hashesFile) {
    await writeFlagFile('--hashes-file', options.hashesFile, `${transactions.join('\n')}\n`);
  }
  const server = await listenOn(mock, settings.port);
  let removeEnvFile: (() => Promise<void>) | undefined;
  try {
    const env = {
      PARTNER_API_BASE_URL: server.url,
      PARTNER_API_CLIENT_ID: mock.credentials.clientId,
      PARTNER_API_CLIENT_SECRET: mock.credentials.clientSecret,
      PARTNER_API_SELLER_TOKEN: mock.sellers.person.publicToken,
    };
    if (options.writeEnv) removeEnvFile = await writeEnvFile(options.writeEnv, env);
    printEnvironment(context, mock, { env, transactions, sellers });
    // A signal is how the mock ends (a closed stdin is not: a CI step runs it in the background).
    await new Promise<void>((resolve) => onInterrupt(resolve));
  } finally {
    await server.close();
    await removeEnvFile?.();
  }
}

const collect = (value: string, all: string[]) => [...all, value];

export function mockCommand(run: Action): Command {
  return (
    new Command('mock')
      .description(
        "start the testing kit's offline service and print the environment to use it (JSON when piped); Ctrl-C or SIGTERM stops it",
      )
      .option('--port <n>', 'listen on this port of 127.0.0.1 (0: a free one)', '0')
      // Not `--env-file`: Node takes that flag from anywhere on its command line, the script's
      // arguments included, and would read the file as its own before the CLI starts.
      .option(
        '--write-env <file>',
        'once listening, write NAME=value lines there (removed on stop)',
      )
      .option('--seller <type>', 'add a person or company seller (repeat for more)', collect, [])
      .option('--transactions <n>', 'refundable transactions to seed', '20')
      .option('--hashes-file <file>', 'write the refundable transaction hashes there, one per line')
      .option('--rate-limit <n>', 'answer 429 beyond N requests per second')
      .option('--latency <ms>', 'wait this long before each answer')
      .option(
        '--refund-polls <n>',
        'polls a refund stays requested before it completes (default 1)',
      )
      .option(
        '--export-polls <n>',
        'polls an export stays processing before it completes (default 1)',
      )
      .addHelpText(
        'after',
        examples([
          'partner-sdk mock --format table        # prints export lines to paste in another shell',
          'partner-sdk mock --rate-limit 50 --hashes-file hashes.txt',
          'partner-sdk mock --port 4010 --write-env mock.env --seller company &   # then: set -a; . ./mock.env',
        ]),
      )
      .action(run(mockAction))
  );
}
