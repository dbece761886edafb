/**
 * What `partner-sdk mock` prints once it listens, and the `--write-env` file it writes then: the
 * environment that points the CLI, the SDK or any other client at the kit, and the seeded ids.
 *
 * @module
 */

import { rename, rm, writeFile } from 'node:fs/promises';
import type { MockPartnerApi, MockSeller } from 'partner-sdk/testing';
import { type Context, UsageError } from '../context';

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** What the mock seeded and added, as printed. */
export interface MockPrinted {
  /** The variables that point a client at the kit. */
  env: Record<string, string>;
  /** Every refundable transaction: the kit's own, then those `--transactions` added. */
  transactions: string[];
  /** Every seller: the seeded two, then those `--seller` added, in order. */
  sellers: MockSeller[];
}

/** Prints what points the CLI at the kit: one JSON line, or `export` lines for a shell. */
export function printEnvironment(context: Context, mock: MockPartnerApi, printed: MockPrinted) {
  const { env, transactions, sellers } = printed;
  if (context.format !== 'table') {
    context.line(
      JSON.stringify({
        env,
        transactions,
        sellers,
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
  for (const seller of sellers) {
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

/** Writes `text` to `file` through `write`, a failure a usage error naming `flag`, the file and the cause. */
export async function writeFlagFile(
  flag: string,
  file: string,
  text: string,
  write: (file: string, text: string) => Promise<void> = writeFile,
): Promise<void> {
  try {
    await write(file, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code ?? 'unwritable';
    throw new UsageError(`cannot write ${flag} ${file}: ${code}`);
  }
}

/**
 * Writes the `--write-env` file: `NAME=value` lines, the form a shell sources (`set -a; . FILE`),
 * `docker run --env-file` and dotenv read, and GitHub Actions' `$GITHUB_ENV` appends. The kit's
 * values need no quoting. It is written beside and renamed into place, so a script waiting for
 * the file to exist never reads half of it; the function returned removes it.
 */
export async function writeEnvFile(
  file: string,
  env: Record<string, string>,
): Promise<() => Promise<void>> {
  const text = Object.entries(env)
    .map(([name, value]) => `${name}=${value}\n`)
    .join('');
  await writeFlagFile('--write-env', file, text, async (whole, content) => {
    const partial = `${whole}.${process.pid}.partial`;
    await writeFile(partial, content);
    await rename(partial, whole);
  });
  return () => rm(file, { force: true });
}
