/**
 * `partner-sdk mock`: the testing kit's service on loopback, and the environment that points
 * the CLI (or any script using the SDK) at it.
 *
 * @module
 */

import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { type Context, UsageError } from '../context';
import { onInterrupt } from '../interrupt';
import { type Action, examples } from './action';

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

interface MockFlags {
  rateLimit?: string;
  latency?: string;
  transactions: string;
  hashesFile?: string;
}

/** Every seeded seller, as the testing guide's table lists them: type, code and token. */
const sellersOf = (mock: MockPartnerApi) =>
  mock.sellers.map(({ type, code, publicToken }) => ({ type, code, publicToken }));

/** Prints what points the CLI at the kit: JSON, or `export` lines for a shell. */
function printEnvironment(
  context: Context,
  mock: MockPartnerApi,
  env: Record<string, string>,
  transactions: string[],
): void {
  if (context.format !== 'table') {
    context.line(
      JSON.stringify({
        env,
        transactions,
        sellers: sellersOf(mock),
        products: mock.products,
        bankAccounts: mock.bankAccounts,
        anticipations: mock.anticipations.confirmable,
      }),
    );
    return;
  }
  context.line('# the testing kit is listening; point the CLI at it with:');
  for (const [name, value] of Object.entries(env)) context.line(`export ${name}=${quote(value)}`);
  context.line("# sellers (the token above is the person's; export another to act as it):");
  for (const seller of sellersOf(mock)) {
    context.line(`#   ${seller.type.padEnd(8)} ${seller.code}  ${seller.publicToken}`);
  }
  context.line(
    `# refundable transactions: ${transactions.slice(0, 5).join(' ')} … (${transactions.length})`,
  );
  context.line(
    `# a product and its offer: ${mock.products.course.hash} ${mock.products.course.offerCode}`,
  );
  context.line(
    `# bank account: ${mock.bankAccounts.pix}; anticipation: ${mock.anticipations.confirmable[0] ?? ''}`,
  );
  context.line('# Ctrl-C stops it.');
}

/** A numeric flag's value, `undefined` when not given; a usage error naming it when it is not `wanted`. */
function numberFlag(
  flag: string,
  value: string | undefined,
  wanted: string,
  accepts: (n: number) => boolean,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || !accepts(n)) {
    throw new UsageError(`${flag} must be ${wanted}, got "${value}"`);
  }
  return n;
}

async function mockAction(context: Context, options: MockFlags) {
  const count = Number(options.transactions);
  if (!Number.isInteger(count) || count < 0 || count > 100_000) {
    throw new UsageError('--transactions must be a whole number from 0 to 100000');
  }
  const rateLimit = numberFlag(
    '--rate-limit',
    options.rateLimit,
    'a positive number',
    (n) => n > 0,
  );
  const latencyMs = numberFlag('--latency', options.latency, 'a number ≥ 0', (n) => n >= 0);
  const mock = createMockPartnerApi({ rateLimit, latencyMs });
  const server = await mock.listen();
  const transactions = [
    ...mock.transactions.refundable,
    ...Array.from({ length: count }, () => mock.addTransaction()),
  ];
  if (options.hashesFile) await writeFile(options.hashesFile, `${transactions.join('\n')}\n`);
  const env = {
    PARTNER_API_BASE_URL: server.url,
    PARTNER_API_CLIENT_ID: mock.credentials.clientId,
    PARTNER_API_CLIENT_SECRET: mock.credentials.clientSecret,
    PARTNER_API_SELLER_TOKEN: mock.sellers.person.publicToken,
  };
  printEnvironment(context, mock, env, transactions);
  // Ctrl-C is how the mock ends: it closes its server and exits 0.
  await new Promise<void>((resolve) => onInterrupt(resolve));
  await server.close();
}

export function mockCommand(run: Action): Command {
  return new Command('mock')
    .description(
      "start the testing kit's offline service and print the environment to use it (JSON when piped)",
    )
    .option('--rate-limit <n>', 'answer 429 beyond N requests per second')
    .option('--latency <ms>', 'wait this long before each answer')
    .option('--transactions <n>', 'refundable transactions to seed', '20')
    .option('--hashes-file <file>', 'write the refundable transaction hashes there, one per line')
    .addHelpText(
      'after',
      examples([
        'partner-sdk mock --format table        # prints export lines to paste in another shell',
        'partner-sdk mock --rate-limit 50 --hashes-file hashes.txt',
      ]),
    )
    .action(run(mockAction));
}
