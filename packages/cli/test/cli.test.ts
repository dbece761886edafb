import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_ARGS, cli, jsonLines, useCliKit } from './run-cli';

const { mock, env, dir, run } = useCliKit('main', { refundPolls: 0, exportPolls: 0 });

// Each test starts several processes: on a loaded 2-core machine that takes seconds each.
describe('partner-sdk (the CLI)', { timeout: 120_000 }, () => {
  it('prints help naming every command, the environment and the exit codes', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const command of [
      'users',
      'bank-accounts',
      'products',
      'offers',
      'refunds',
      'statements',
      'anticipations',
      'fee-tiers',
      'mock',
    ]) {
      expect(help.stdout).toContain(command);
    }
    expect(help.stdout).toContain('PARTNER_API_BASE_URL');
    expect(help.stdout).toMatch(/2 usage error/);
    const sub = await run(['refunds', 'request', '--help']);
    expect(sub.stdout).toContain('--journal');
    expect(sub.stdout).toContain('--dry-run');
  });

  it('exits 2 on a usage error, sending nothing', async () => {
    const before = mock.stats.requests;
    expect((await run(['refunds', 'nope'])).code).toBe(2);
    expect((await run(['products', 'list', '--per-page', 'many'])).code).toBe(2);
    const noBase = await cli(['fee-tiers', 'history'], {
      env: { ...env, PARTNER_API_BASE_URL: '' },
    });
    expect(noBase.code).toBe(2);
    expect(noBase.stderr).toContain('PARTNER_API_BASE_URL');
    const noSeller = await cli(['users', 'update', '--data', '{}'], {
      env: { ...env, PARTNER_API_SELLER_TOKEN: '' },
    });
    expect(noSeller.code).toBe(2);
    expect(noSeller.stderr).toContain('--seller-token');
    expect(mock.stats.requests).toBe(before);
  });

  it('runs the product, offer, fee-tier and anticipation commands, --json parsed back', async () => {
    const { course } = mock.products;
    const product = jsonLines((await run(['--json', 'products', 'get', course.hash])).stdout);
    expect(product).toEqual([expect.objectContaining({ hash: course.hash })]);
    const list = await run(['--json', 'products', 'list', '--per-page', '5']);
    expect(jsonLines(list.stdout)).toHaveLength(5);
    const human = await run(['--format', 'table', 'products', 'list', '--per-page', '2']);
    expect(human.stdout.split('\n')[0]).toMatch(/^HASH\s+NAME\s+TYPE\s+STATUS/);
    const offer = await run([
      '--json',
      'offers',
      'update',
      course.hash,
      course.offerCode,
      '--data',
      '{"price":4990}',
    ]);
    expect(offer.code).toBe(0);
    expect(jsonLines(offer.stdout)[0]).toMatchObject({ price: 4990 });
    expect(mock.getOffer(course.hash, course.offerCode)?.price).toBe(4990);
    const history = await run(['--json', 'fee-tiers', 'history']);
    expect(jsonLines(history.stdout).length).toBeGreaterThan(0);
    const anticipations = await run(['--json', 'anticipations', 'list', '--all']);
    expect(jsonLines(anticipations.stdout).length).toBeGreaterThan(1);
    const confirmed = await run([
      '--json',
      'anticipations',
      'confirm',
      mock.anticipations.confirmable[0]!,
      '--scenario',
      'above',
    ]);
    expect(confirmed.code).toBe(0);
    expect(jsonLines(confirmed.stdout)[0]).toHaveProperty('amount');
  });

  it('runs the users and bank-accounts updates', async () => {
    const profile = {
      name: 'Maria Aparecida Souza',
      cpf: '529.982.247-25',
      birth: '1988-04-12',
      address: {
        zip_code: '01310-100',
        street: 'Avenida Paulista',
        street_number: '1578',
        neighborhood: 'Bela Vista',
        city: 'São Paulo',
        state: 'SP',
        country: 'Brasil',
      },
    };
    await writeFile(join(dir, 'profile.json'), JSON.stringify(profile));
    await writeFile(join(dir, 'avatar.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const user = await run([
      '--json',
      'users',
      'update',
      '--data',
      `@${join(dir, 'profile.json')}`,
      '--avatar',
      join(dir, 'avatar.png'),
    ]);
    expect(user.code).toBe(0);
    expect(jsonLines(user.stdout)[0]).toMatchObject({ name: 'Maria Aparecida Souza' });
    const account = await run(
      ['--json', 'bank-accounts', 'update', mock.bankAccounts.pix, '--data', '@-'],
      JSON.stringify({
        holder_name: 'Maria Souza',
        receiver_type: 'pix',
        pix_key: 'maria@example.com',
        bank_code: '341',
      }),
    );
    expect(account.code).toBe(0);
    expect(jsonLines(account.stdout)[0]).toMatchObject({ holder_name: 'Maria Souza' });
  });

  it('requests refunds in bulk, lists them, reads a status and waits; exit 1 when one item fails', async () => {
    const hashes = [mock.addTransaction(), mock.addTransaction()];
    const requested = await run([
      '--json',
      'refunds',
      'request',
      ...hashes,
      'trx_unknown',
      '--reason',
      'Cohort cancelled',
    ]);
    expect(requested.code).toBe(1);
    const outcomes = jsonLines(requested.stdout).filter((line) => !('summary' in line));
    expect(outcomes.map((o) => o.status).sort()).toEqual(['failed', 'succeeded', 'succeeded']);
    expect(outcomes.find((o) => o.key === 'trx_unknown')).toMatchObject({
      error: { name: 'NotFoundError', status: 404 },
    });
    const list = jsonLines((await run(['--json', 'refunds', 'list', hashes[0]!])).stdout);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ transaction_hash: hashes[0] });
    const status = await run(['--json', 'refunds', 'status', hashes[0]!]);
    expect(status.code).toBe(0);
    const waited = await run(['--json', 'refunds', 'wait', ...hashes]);
    expect(waited.code).toBe(0);
    const waits = jsonLines(waited.stdout).filter((line) => !('summary' in line));
    expect(waits.map((o) => (o.result as { status: string }).status)).toEqual([
      'completed',
      'completed',
    ]);
  });

  it('reads hashes from a CSV on stdin and waits with --wait; human output and a summary', async () => {
    const hashes = [mock.addTransaction(), mock.addTransaction()];
    const csv = `transaction_hash,amount\n${hashes.map((h) => `${h},9900`).join('\n')}\n`;
    const result = await run(['--format', 'table', 'refunds', 'request', '--wait'], csv);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`ok   ${hashes[0]}  refund requested`);
    expect(result.stdout).toContain('refund completed');
    expect(result.stderr).toMatch(/2 items: 2 succeeded/);
  });

  it('validates every item and sends nothing with --dry-run', async () => {
    const before = mock.stats.requests;
    const good = await run(['--json', 'refunds', 'request', '--dry-run', mock.addTransaction()]);
    expect(good.code).toBe(0);
    expect(jsonLines(good.stdout)[0]).toMatchObject({ status: 'valid' });
    const bad = await run(['--json', 'refunds', 'request', '--dry-run', '..', '--reason', 'ok']);
    expect(bad.code).toBe(1);
    expect(jsonLines(bad.stdout)[0]).toMatchObject({
      status: 'failed',
      error: { name: 'RequestValidationError' },
    });
    // A bad flag is not an item's failure: a usage error before any item is judged.
    const badFlag = await run([
      '--json',
      'refunds',
      'request',
      '--dry-run',
      mock.addTransaction(),
      '--reason',
      'x'.repeat(1001),
    ]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stdout).toBe('');
    await writeFile(
      join(dir, 'offers.csv'),
      `product_hash,offer_code,price\n${mock.products.course.hash},${mock.products.course.offerCode},100000000\n`,
    );
    const offers = await run([
      '--json',
      'offers',
      'update',
      '--dry-run',
      '--file',
      join(dir, 'offers.csv'),
    ]);
    expect(offers.code).toBe(1);
    expect(mock.stats.requests).toBe(before);
  });

  it('resumes a bulk job from its journal: finished items skipped, each transaction refunded once', async () => {
    const journal = join(dir, 'refunds.jsonl');
    const first = Array.from({ length: 5 }, () => mock.addTransaction());
    await writeFile(join(dir, 'first.txt'), `${first.join('\n')}\n`);
    const run1 = await run([
      '--json',
      'refunds',
      'request',
      '--file',
      join(dir, 'first.txt'),
      '--journal',
      journal,
    ]);
    expect(run1.code).toBe(0);
    const all = [...first, mock.addTransaction(), mock.addTransaction()];
    await writeFile(join(dir, 'all.txt'), `${all.join('\n')}\n`);
    const run2 = await run([
      '--json',
      'refunds',
      'request',
      '--file',
      join(dir, 'all.txt'),
      '--journal',
      journal,
    ]);
    expect(run2.code).toBe(0);
    const statuses = jsonLines(run2.stdout).map((o) => o.status);
    expect(statuses.filter((s) => s === 'skipped')).toHaveLength(5);
    expect(statuses.filter((s) => s === 'succeeded')).toHaveLength(2);
    const posts = (hash: string) =>
      mock.requests.filter((r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`)
        .length;
    for (const hash of all) expect(posts(hash)).toBe(1);
    expect((await readFile(journal, 'utf8')).split('\n').filter(Boolean)).toHaveLength(14);
    // The journal of another job is refused: a usage error, nothing sent.
    const { hash, offerCode } = mock.products.ebook;
    await writeFile(
      join(dir, 'prices.csv'),
      `product_hash,offer_code,price\n${hash},${offerCode},1990\n`,
    );
    const before = mock.stats.requests;
    const other = await run([
      'offers',
      'update',
      '--file',
      join(dir, 'prices.csv'),
      '--journal',
      journal,
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('refunds.request');
    expect(mock.stats.requests).toBe(before);
  });

  it('exports a statement, waits for it, reads its status and downloads it', async () => {
    const exported = await run([
      '--json',
      'statements',
      'export',
      '--from',
      '2026-01-01',
      '--to',
      '2026-01-31',
      '--wait',
    ]);
    expect(exported.code).toBe(0);
    const finished = jsonLines(exported.stdout)[0] as { hash: string; url: string };
    expect(finished.url).toMatch(/^http/);
    expect((await run(['--json', 'statements', 'status', finished.hash])).code).toBe(0);
    expect((await run(['--json', 'statements', 'wait', finished.hash])).code).toBe(0);
    const output = join(dir, 'statement.csv');
    const downloaded = await run([
      '--json',
      'statements',
      'download',
      finished.hash,
      '--output',
      output,
    ]);
    expect(downloaded.code).toBe(0);
    expect((await readFile(output)).length).toBeGreaterThan(0);
  });

  it('mock starts the kit and prints the environment that points the CLI at it', async () => {
    const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
    const child = spawn(process.execPath, [...CLI_ARGS, '--format', 'table', 'mock'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let text = '';
      child.stdout.setEncoding('utf8');
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`mock printed: ${text}`)), 30_000);
        child.stdout.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('Ctrl-C')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const exported = Object.fromEntries(
        [...text.matchAll(/^export (\w+)='([^']*)'$/gm)].map((m) => [m[1]!, m[2]!]),
      );
      expect(Object.keys(exported).sort()).toEqual([
        'PARTNER_API_BASE_URL',
        'PARTNER_API_CLIENT_ID',
        'PARTNER_API_CLIENT_SECRET',
        'PARTNER_API_SELLER_TOKEN',
      ]);
      const hash = text.match(/refundable transactions: (\S+)/)![1]!;
      const refund = await cli(['--json', 'refunds', 'request', hash], {
        env: { ...exported, PARTNER_API_CLIENT_TOKEN: undefined },
      });
      expect(refund.code).toBe(0);
      expect(jsonLines(refund.stdout)[0]).toMatchObject({
        kind: 'accepted',
        transactionHash: hash,
      });
    } finally {
      child.kill('SIGTERM');
    }
  });
});
