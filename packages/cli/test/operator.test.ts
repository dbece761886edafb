/**
 * The CLI as an operator meets it, each behaviour through a real child process: pipe-aware
 * output, the progress bar on a pseudo-terminal, interrupts, login profiles, help examples,
 * errors in CLI terms, completion scripts, input bounds, and webhook trigger and replay.
 */

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PartnerClient } from 'partner-sdk';
import { createWebhookHandler, type WebhookEvent } from 'partner-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { CLI_ARGS, jsonLines, onTerminal as terminal, useCliKit } from './run-cli';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const kit = useCliKit('operator', { refundPolls: 0, exportPolls: 0 });
const { mock, env, dir, run } = kit;

/** The CLI on a pseudo-terminal, against this file's kit. */
const onTerminal = (args: string[], options?: Parameters<typeof terminal>[2]) =>
  terminal(args, env, options);

describe('partner-sdk for an operator', { timeout: 180_000 }, () => {
  it('writes JSON lines into a pipe, tables on --format table, CSV with nested fields kept', async () => {
    const piped = await run(['products', 'list', '--per-page', '2']);
    expect(piped.code).toBe(0);
    const products = jsonLines(piped.stdout);
    expect(products).toHaveLength(2);
    expect(products[0]).toHaveProperty('metadata');
    const tableRun = await run(['products', 'list', '--per-page', '2', '--format', 'table']);
    expect(tableRun.stdout.split('\n')[0]).toMatch(/^HASH\s+NAME\s+TYPE\s+STATUS/);
    expect(tableRun.stderr).toContain('--format json or csv shows every field');
    const csv = await run(['--format', 'csv', 'products', 'get', mock.products.course.hash]);
    expect(csv.stdout.split('\n')[0]).toContain('metadata.links.sales_page_url');
    const human = await run(['--format', 'table', 'products', 'get', mock.products.course.hash]);
    expect(human.stdout).toMatch(/^metadata\.links\.sales_page_url\s+\S+/m);
    const help = await run(['--help']);
    expect(help.stdout).toMatch(/JSON lines[\s\S]*when stdout is not a terminal/);
    const bad = await run(['--format', 'xml', 'products', 'list']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format must be table, json or csv');
  });

  it('on a terminal: a bar with percentage and time left for a known total, a counter for stdin', async () => {
    mock.setLatency(60);
    try {
      const hashes = Array.from({ length: 24 }, () => mock.addTransaction());
      const known = await onTerminal(['refunds', 'request', '--concurrency', '1', ...hashes]);
      expect(known.code).toBe(0);
      expect(known.shown).toMatch(/\[#*-*\] \d{1,3}% \d+\/24 · \d+ (s|min)[^·]* left · /);
      expect(known.shown).not.toContain('? left');
      expect(known.shown).toMatch(/^ok {3}\S+ {2}refund requested/m);
      const more = Array.from({ length: 24 }, () => mock.addTransaction());
      const streamed = await onTerminal(['refunds', 'request', '--concurrency', '1'], {
        mode: 'pipe',
        input: `${more.join('\n')}\n`,
      });
      expect(streamed.code).toBe(0);
      expect(streamed.shown).toMatch(/\d+ items? done · 0 failed/);
      expect(streamed.shown).not.toMatch(/\d+% /);
    } finally {
      mock.setLatency(undefined);
    }
  });

  it('on a terminal that cannot move the cursor (TERM=dumb): no progress line, the summary still said', async () => {
    mock.setLatency(60);
    try {
      const hashes = Array.from({ length: 12 }, () => mock.addTransaction());
      const args = ['--format', 'table', 'refunds', 'request', '--concurrency', '1', ...hashes];
      const dumb = await terminal(args, { ...env, TERM: 'dumb' });
      expect(dumb.code).toBe(0);
      expect(dumb.shown).toContain('12 items: 12 succeeded');
      expect(dumb.shown).not.toContain('\x1b[K');
      expect(dumb.shown).not.toMatch(/\d+% \d+\/12/);
    } finally {
      mock.setLatency(undefined);
    }
  });

  it('after Ctrl-C: exit 130, the summary counts the items never started and says how to resume', async () => {
    mock.setLatency(150);
    const hashes = Array.from({ length: 30 }, () => mock.addTransaction());
    const journal = join(dir, 'interrupted.jsonl');
    const child = spawn(
      process.execPath,
      [...CLI_ARGS, 'refunds', 'request', '--concurrency', '1', '--journal', journal, ...hashes],
      { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let interrupted = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      // One Ctrl-C: a second one would end the process at once, as a shell's would.
      if (!interrupted && stdout.includes('"succeeded"')) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    mock.setLatency(undefined);
    expect(code).toBe(130);
    const lines = jsonLines(stdout);
    const { summary } = lines.at(-1) as { summary: Record<string, unknown> };
    expect(summary.aborted).toBe(true);
    expect(summary.notStarted).toBeGreaterThan(0);
    expect(Number(summary.total) + Number(summary.notStarted)).toBe(30);
    expect(summary.resume).toContain(`--journal ${journal}`);
    // Resumed with the same journal: every transaction refunded exactly once.
    const resumed = await run(['refunds', 'request', '--journal', journal, ...hashes]);
    expect(resumed.code).toBe(0);
    // A request abandoned at the interrupt may be sent again; the refund is made once.
    const client = new PartnerClient({ baseUrl: kit.url, ...mock.credentials });
    const seller = client.forUser(mock.sellers.person.publicToken);
    for (const hash of hashes) expect(await seller.refunds.list(hash)).toHaveLength(1);
  });

  it('says "1 item", and a single refund prints its result, not a bulk summary', async () => {
    const [one, two] = [mock.addTransaction(), mock.addTransaction()];
    await writeFile(join(dir, 'one.txt'), `${one}\n`);
    const file = await run([
      '--format',
      'table',
      'refunds',
      'request',
      '--file',
      join(dir, 'one.txt'),
    ]);
    expect(file.stderr).toMatch(/^1 item: 1 succeeded in/m);
    const single = await run(['refunds', 'request', two]);
    expect(single.code).toBe(0);
    expect(jsonLines(single.stdout)).toEqual([
      expect.objectContaining({ kind: 'accepted', transactionHash: two }),
    ]);
    const human = await run(['--format', 'table', 'refunds', 'request', mock.addTransaction()]);
    expect(human.stdout).toMatch(/^kind\s+accepted$/m);
    expect(human.stderr).not.toMatch(/items?:/);
    const missing = await run(['refunds', 'request', 'trx_missing']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404');
  });

  it('login saves a 0600 profile, never shows the secret, and --profile uses it', async () => {
    const secret = mock.credentials.clientSecret;
    const noEnv = {
      PARTNER_API_BASE_URL: undefined,
      PARTNER_API_CLIENT_ID: undefined,
      PARTNER_API_CLIENT_SECRET: undefined,
      PARTNER_API_SELLER_TOKEN: undefined,
    };
    const login = await run(
      [
        'login',
        '--profile',
        'staging',
        '--base-url',
        kit.url,
        '--client-id',
        mock.credentials.clientId,
      ],
      `${secret}\n`,
      noEnv,
    );
    expect(login.code).toBe(0);
    const file = join(dir, 'config', 'partner-sdk', 'profiles.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'config', 'partner-sdk'))).mode & 0o777).toBe(0o700);
    expect(`${login.stdout}${login.stderr}`).not.toContain(secret);
    const used = await run(
      ['--profile', 'staging', 'products', 'list', '--per-page', '1'],
      '',
      noEnv,
    );
    expect(used.code).toBe(0);
    expect(jsonLines(used.stdout)).toHaveLength(1);
    const unknown = await run(['--profile', 'nope', 'products', 'list'], '', noEnv);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('partner-sdk login --profile nope');
    // On a terminal the secret is typed at a prompt that does not echo it.
    const typed = await onTerminal(
      [
        'login',
        '--profile',
        'typed',
        '--base-url',
        kit.url,
        '--client-id',
        mock.credentials.clientId,
      ],
      { answer: secret },
    );
    expect(typed.shown).toContain('Client secret (not shown):');
    expect(typed.code).toBe(0);
    expect(typed.shown).not.toContain(secret);
    expect(JSON.parse(await readFile(file, 'utf8')).profiles.typed.clientSecret).toBe(secret);
  });

  it('login stopped by Ctrl-C at the secret prompt exits 130, as Ctrl-C does at any prompt, saving nothing', async () => {
    const stopped = await onTerminal(
      ['login', '--profile', 'stopped', '--base-url', kit.url, '--client-id', 'cli_stopped'],
      { answer: '\u0003' },
    );
    expect(stopped.shown).toContain('Client secret (not shown):');
    expect(stopped.code).toBe(130);
    const file = join(dir, 'config', 'partner-sdk', 'profiles.json');
    const saved = await readFile(file, 'utf8').catch(() => '{}');
    expect(JSON.parse(saved).profiles?.stopped).toBeUndefined();
  });

  it('shows examples in the --help of every command', async () => {
    const commands = [
      [],
      ['login'],
      ['users'],
      ['users', 'update'],
      ['bank-accounts', 'update'],
      ['products', 'get'],
      ['products', 'list'],
      ['offers', 'update'],
      ['refunds'],
      ['refunds', 'request'],
      ['refunds', 'list'],
      ['refunds', 'status'],
      ['refunds', 'wait'],
      ['statements', 'export'],
      ['statements', 'status'],
      ['statements', 'wait'],
      ['statements', 'download'],
      ['anticipations', 'confirm'],
      ['anticipations', 'list'],
      ['fee-tiers', 'history'],
      ['trigger'],
      ['webhooks', 'replay'],
      ['mock'],
      ['completion'],
    ];
    const printed = execFileSync(
      process.execPath,
      [
        '--import',
        './packages/cli/test/register.ts',
        'packages/cli/test/print-helps.ts',
        JSON.stringify(commands),
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    const helps = JSON.parse(printed) as Record<string, string>;
    expect(Object.keys(helps)).toHaveLength(commands.length);
    for (const [name, help] of Object.entries(helps)) {
      expect(help, name).toMatch(/^Usage: partner-sdk/);
      expect(help, name).toMatch(/Examples:\n {2}\$ \S/);
    }
  });

  it('names --seller-token and the variable, and a refused connection by its cause and URL', async () => {
    const before = mock.stats.requests;
    const noSeller = await run(['users', 'update', '--data', '{}'], '', {
      PARTNER_API_SELLER_TOKEN: '',
    });
    expect(noSeller.code).toBe(2);
    expect(noSeller.stderr).toContain('--seller-token');
    expect(noSeller.stderr).toContain('PARTNER_API_SELLER_TOKEN');
    expect(mock.stats.requests).toBe(before);
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const url = `http://127.0.0.1:${closed}/api/v1`;
    const refused = await run(['products', 'list'], '', { PARTNER_API_BASE_URL: url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('ECONNREFUSED');
    expect(refused.stderr).toContain(url);
  });

  it('prints completion scripts that bash, zsh and fish accept', async () => {
    const shells = { bash: ['-n'], zsh: ['-n'], fish: ['--no-execute'] } as const;
    for (const [shell, check] of Object.entries(shells)) {
      const found = spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
      expect(found, `${shell} is not installed here (.ci/run installs bash, zsh and fish)`).toBe(
        true,
      );
      const script = await run(['completion', shell]);
      expect(script.code).toBe(0);
      const path = join(dir, `completion.${shell}`);
      await writeFile(path, script.stdout);
      const checked = spawnSync(shell, [...check, path], { encoding: 'utf8' });
      expect(checked.stderr, shell).toBe('');
      expect(checked.status, shell).toBe(0);
    }
    // And bash completes: `partner-sdk refunds re<TAB>` offers `request`.
    const completed = execFileSync(
      'bash',
      [
        '-c',
        `source ${join(dir, 'completion.bash')}; COMP_WORDS=(partner-sdk refunds re); COMP_CWORD=2; _partner_sdk; echo "\${COMPREPLY[@]}"`,
      ],
      { encoding: 'utf8' },
    );
    expect(completed.trim()).toBe('request');
  });

  it('bounds input lines and hashes, naming the line; a bad file line sends nothing', async () => {
    const before = mock.stats.requests;
    const long = await run(['refunds', 'request', 'x'.repeat(129)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('argument 1: hash longer than 128 characters');
    const huge = join(dir, 'huge.txt');
    await writeFile(
      huge,
      `${mock.addTransaction()}\n${mock.addTransaction()}\n${'h'.repeat(1 << 20)}\n`,
    );
    const hugeRun = await run(['refunds', 'request', '--file', huge]);
    expect(hugeRun.code).toBe(2);
    expect(hugeRun.stderr).toContain(`${huge}:3: line longer than 65536 characters`);
    expect(hugeRun.stderr.length).toBeLessThan(2000);
    const { hash, offerCode } = mock.products.course;
    // 31 good updates (distinct offers: a repeated one would be a duplicate, never sent), then a bad one.
    const lines = Array.from({ length: 31 }, (_, i) =>
      JSON.stringify({
        productHash: i === 0 ? hash : `prd_other${i}`,
        offerCode,
        params: { price: 1000 + i },
      }),
    );
    lines.push(JSON.stringify({ productHash: 'prd_last', offerCode, params: { price: 'free' } }));
    await writeFile(join(dir, 'offers.jsonl'), `${lines.join('\n')}\n`);
    const offers = await run(['offers', 'update', '--file', join(dir, 'offers.jsonl')]);
    expect(offers.code).toBe(2);
    expect(offers.stderr).toContain(`${join(dir, 'offers.jsonl')}:32:`);
    expect(offers.stderr).toContain('nothing was sent');
    expect(mock.stats.requests).toBe(before);
    // Stdin is checked as it streams: exit 4, the line named.
    const streamed = await run(['refunds', 'request'], `${mock.addTransaction()}\nbad hash\n`);
    expect(streamed.code).toBe(4);
    expect(streamed.stderr).toContain('stdin:2: a hash cannot contain spaces');
  });

  it('bounds a hash given as the argument of any command: exit 2 naming it, never quoting it, nothing sent', async () => {
    const before = mock.stats.requests;
    const long = `h${'x'.repeat(100_000)}`;
    const commands = [
      ['products', 'get', long],
      ['refunds', 'list', long],
      ['refunds', 'status', long],
      ['statements', 'status', long],
      ['statements', 'wait', long],
      ['statements', 'download', long, '--output', join(dir, 'never.csv')],
      ['anticipations', 'confirm', long, '--scenario', 'above'],
      ['bank-accounts', 'update', long, '--data', '{}'],
      ['offers', 'update', long, 'ofr_1', '--data', '{}'],
      ['offers', 'update', 'prd_1', long, '--data', '{}'],
    ];
    for (const args of commands) {
      const result = await run(args);
      expect({ args: args.slice(0, 2), code: result.code }).toEqual({
        args: args.slice(0, 2),
        code: 2,
      });
      expect(result.stderr).toMatch(/<\w+>: hash longer than 128 characters \(100001\)/);
      expect(result.stdout.length + result.stderr.length).toBeLessThan(1000);
    }
    expect(mock.stats.requests).toBe(before);
  });

  it('offer updates: a bad line repeating an earlier offer is still a bad line, exit 2 and nothing sent', async () => {
    const before = mock.stats.requests;
    const { hash, offerCode } = mock.products.course;
    const lines = Array.from({ length: 31 }, (_, i) =>
      JSON.stringify({ productHash: `prd_other${i}`, offerCode, params: { price: 1000 + i } }),
    );
    lines[0] = JSON.stringify({ productHash: hash, offerCode, params: { price: 1000 } });
    lines.push(JSON.stringify({ productHash: hash, offerCode, params: { price: -5 } }));
    const file = join(dir, 'offers-repeat.jsonl');
    await writeFile(file, `${lines.join('\n')}\n`);
    const offers = await run(['offers', 'update', '--file', file]);
    expect(offers.code).toBe(2);
    expect(offers.stderr).toContain(`${file}:32:`);
    expect(offers.stderr).toContain('nothing was sent');
    // The dry run lists every item: the repeat is reported failed, not a duplicate.
    const dry = await run(['offers', 'update', '--file', file, '--dry-run']);
    expect(dry.code).toBe(1);
    const outcomes = jsonLines(dry.stdout) as { key?: string; status?: string }[];
    const repeated = outcomes.filter((o) => o.key === `${hash}/${offerCode}`);
    expect(repeated.map((o) => o.status).sort()).toEqual(['failed', 'valid']);
    expect(mock.stats.requests).toBe(before);
  });

  it('trigger sends a kit event to a partner-sdk/webhooks receiver and prints its answer and timing; replay re-sends saved deliveries', async () => {
    const received: WebhookEvent[] = [];
    const handler = createWebhookHandler({
      on: {
        subscription_ended: async (event) => {
          received.push(event);
        },
      },
      onUnknown: async (event) => {
        received.push(event);
      },
    });
    const receiver: Server = createServer((req, res) => void handler.node(req, res));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const to = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
    try {
      const triggered = await run([
        'trigger',
        'subscription_ended',
        '--to',
        to,
        '--data',
        '{"total_charges":7,"commissions":{"transaction_hash":"trx_9Fh2Kd81"}}',
      ]);
      expect(triggered.code).toBe(0);
      const [answer] = jsonLines(triggered.stdout);
      expect(answer).toMatchObject({ event: 'subscription_ended', to, status: 200 });
      expect(answer!.ms).toEqual(expect.any(Number));
      expect(received[0]).toMatchObject({
        event: 'subscription_ended',
        // A nested field given replaces that field only: the default split's producer stays.
        payload: {
          total_charges: 7,
          commissions: {
            transaction_hash: 'trx_9Fh2Kd81',
            items: [{ type: 'producer' }, { type: 'affiliate' }],
          },
        },
      });
      const human = await run(['--format', 'table', 'trigger', 'user_updated', '--to', to]);
      expect(human.stdout).toMatch(new RegExp(`^user_updated → ${to}: 200 in \\d+ ms`, 'm'));
      const saved = join(dir, 'deliveries.jsonl');
      await writeFile(saved, `${JSON.stringify(received[0])}\n${JSON.stringify(received[1])}\n`);
      received.length = 0;
      const replayed = await run(['webhooks', 'replay', saved, '--to', to]);
      expect(replayed.code).toBe(0);
      expect(jsonLines(replayed.stdout).map((a) => [a.event, a.status])).toEqual([
        ['subscription_ended', 200],
        ['user_updated', 200],
      ]);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("trigger never carries a receiver's secret elsewhere: a redirect is shown as the answer, the secret never printed", async () => {
    const secret = 'wh-secret-in-the-url-0001';
    const reached: string[] = [];
    const elsewhere: Server = createServer((req, res) => {
      reached.push(`${req.url} ${req.headers['x-webhook-secret']}`);
      res.end('ok');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const other = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    const receiver: Server = createServer((req, res) => {
      res.writeHead(307, { location: `${other}${req.url}` });
      res.end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const to = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks?token=${secret}`;
    try {
      const args = [
        'trigger',
        'user_updated',
        '--to',
        to,
        '--header',
        `x-webhook-secret: ${secret}`,
      ];
      const piped = await run(args);
      const human = await run(['--format', 'table', ...args]);
      expect(jsonLines(piped.stdout)).toEqual([expect.objectContaining({ status: 307 })]);
      expect(human.stdout).toMatch(/user_updated → .*\/webhooks\?token=REDACTED: 307 in \d+ ms/);
      for (const result of [piped, human]) {
        expect(result.code).toBe(1);
        expect(result.stdout + result.stderr).not.toContain(secret);
      }
      expect(reached).toEqual([]);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  it('trigger and replay to a URL with a user and password send them as Basic credentials, never printed', async () => {
    const password = 'wh-basic-password-0002';
    const seen: (string | undefined)[] = [];
    const receiver: Server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    const to = `http://hooks:${password}@127.0.0.1:${port}/webhooks`;
    const saved = join(dir, 'basic-deliveries.json');
    await writeFile(saved, JSON.stringify([{ event: 'user_updated', payload: {} }]));
    try {
      const triggered = await run(['--format', 'table', 'trigger', 'user_updated', '--to', to]);
      const replayed = await run(['webhooks', 'replay', saved, '--to', to]);
      for (const result of [triggered, replayed]) {
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        expect(result.stdout).toContain(`REDACTED:REDACTED@127.0.0.1:${port}/webhooks`);
        expect(result.stdout).not.toContain(password);
      }
      const basic = `Basic ${Buffer.from(`hooks:${password}`).toString('base64')}`;
      expect(seen).toEqual([basic, basic]);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('trigger names the receiver it could not reach or that did not answer in time, its secret redacted, exit 1', async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const secret = 'wh-secret-of-a-silent-receiver';
    try {
      const started = performance.now();
      const slow = await run([
        '--request-timeout',
        '0.5',
        'trigger',
        'user_updated',
        '--to',
        `http://127.0.0.1:${port}/webhooks?token=${secret}`,
      ]);
      expect(performance.now() - started).toBeLessThan(15_000);
      expect(slow.code).toBe(1);
      expect(jsonLines(slow.stderr)).toEqual([
        {
          error: {
            name: 'ReceiverError',
            message: `the receiver at http://127.0.0.1:${port}/webhooks?token=REDACTED did not answer within 0.5 s`,
          },
        },
      ]);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
    const refused = await run([
      '--format',
      'table',
      'trigger',
      'user_updated',
      '--to',
      `http://127.0.0.1:${port}/webhooks?token=${secret}`,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `partner-sdk: cannot reach the receiver at http://127.0.0.1:${port}/webhooks?token=REDACTED: ECONNREFUSED\n`,
    );
  });

  it('replay sends every saved delivery in order and exits 1 when one was not answered 2xx', async () => {
    const events: string[] = [];
    const receiver: Server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const event = (JSON.parse(body) as { event: string }).event;
      events.push(event);
      res.writeHead(event === 'refund_failed' ? 500 : 200).end('');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const to = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
    const saved = join(dir, 'mixed-deliveries.jsonl');
    const names = ['user_updated', 'refund_failed', 'bank_account_deleted'];
    await writeFile(saved, names.map((event) => JSON.stringify({ event, payload: {} })).join('\n'));
    try {
      const replayed = await run(['webhooks', 'replay', saved, '--to', to]);
      expect(replayed.code).toBe(1);
      expect(jsonLines(replayed.stdout).map((a) => [a.event, a.status])).toEqual([
        ['user_updated', 200],
        ['refund_failed', 500],
        ['bank_account_deleted', 200],
      ]);
      expect(events).toEqual(names);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged: Record<string, string | undefined> = { ...process.env, ...extra };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return merged as NodeJS.ProcessEnv;
}
