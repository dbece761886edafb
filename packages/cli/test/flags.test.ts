/**
 * The flags no other CLI test runs, each through a child process against the kit: what reaches the
 * service (bodies and queries as the kit recorded them), the journal they write, and the exit code.
 * A flag's bad value is a usage error (exit 2) before anything is sent.
 */

import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { paulistaAddress } from '../../../test/helpers/addresses';
import { waitFor } from '../../../test/helpers/waits';
import { CLI_ARGS, jsonLines, onTerminal, useCliKit } from './run-cli';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const kit = useCliKit('flags', { refundPolls: 0, exportPolls: 0 });
const { mock, env, dir, run } = kit;

const refundPosts = (hash: string) =>
  mock.requests.filter((r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`);
const summaryOf = (stdout: string) =>
  jsonLines(stdout).find((line) => 'summary' in line)?.summary as Record<string, unknown>;

describe('partner-sdk flags', { timeout: 90_000 }, () => {
  it("--version and -v print the CLI's own version and the SDK's", async () => {
    const cli = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-v']) {
      const result = await run([flag]);
      expect(result.code).toBe(0);
      expect(result.stdout.trim()).toBe(`${cli.version} (partner-sdk ${VERSION})`);
    }
  });

  it('refunds request sends --reason, --observation, --fraud-confirmed and --no-cancel-subscription as the spec names them', async () => {
    const hash = mock.addTransaction();
    const result = await run([
      'refunds',
      'request',
      hash,
      '--reason',
      'Duplicate charge',
      '--observation',
      'ticket 42',
      '--fraud-confirmed',
      '--no-cancel-subscription',
    ]);
    expect(result.code).toBe(0);
    expect(refundPosts(hash).map((r) => r.body)).toEqual([
      {
        reason: 'Duplicate charge',
        observation: 'ticket 42',
        fraud_confirmed: true,
        cancel_subscription: false,
      },
    ]);
  });

  it('a bad --reason is a usage error for any number of hashes: exit 2, nothing sent', async () => {
    const hashes = [mock.addTransaction(), mock.addTransaction()];
    const tooLong = 'x'.repeat(1001);
    for (const given of [hashes.slice(0, 1), hashes]) {
      const result = await run(['refunds', 'request', ...given, '--reason', tooLong]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('reason');
      expect(result.stdout).toBe('');
    }
    for (const hash of hashes) expect(refundPosts(hash)).toEqual([]);
  });

  it('--job-id names the job in the journal; another --job-id on that journal is exit 2, nothing sent', async () => {
    const [first, second] = [mock.addTransaction(), mock.addTransaction()];
    const journal = join(dir, 'job-id.jsonl');
    const done = await run(['refunds', 'request', first, '--journal', journal, '--job-id', 'a']);
    expect(done.code).toBe(0);
    const records = (await readFile(journal, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { job: string });
    expect(new Set(records.map((record) => record.job))).toEqual(new Set(['a']));
    const other = await run(['refunds', 'request', second, '--journal', journal, '--job-id', 'b']);
    expect(other.code).toBe(2);
    const { error } = JSON.parse(other.stderr) as { error: { message: string } };
    expect(error.message).toMatch(/job "a".*job "b"/);
    expect(refundPosts(second)).toEqual([]);
  });

  it('--retry-failed sends again, on resume, the items that failed before; without it they are skipped', async () => {
    const hash = mock.addTransaction();
    const journal = join(dir, 'retry-failed.jsonl');
    mock.failNext({ status: 422, method: 'POST', path: `/financial/refund/${hash}` });
    const args = ['refunds', 'request', hash, 'trx_other_flags', '--journal', journal];
    const failed = await run(args);
    expect(failed.code).toBe(1);
    const skipped = await run(args);
    // Skipped, not done: the items an earlier run failed are left, so the job is not over.
    expect(skipped.code).toBe(1);
    expect(summaryOf(skipped.stdout)).toMatchObject({ skipped: 2 });
    expect(refundPosts(hash)).toHaveLength(1);
    const retried = await run([...args, '--retry-failed']);
    expect(jsonLines(retried.stdout).find((line) => line.key === hash)).toMatchObject({
      status: 'succeeded',
    });
    expect(refundPosts(hash)).toHaveLength(2);
  });

  it('refunds wait --timeout gives up after that many seconds; a bad one is exit 2, nothing polled', async () => {
    const hash = mock.addTransaction();
    mock.refundOutcome(hash, 'completed', { polls: 1_000_000 });
    expect((await run(['refunds', 'request', hash])).code).toBe(0);
    const started = performance.now();
    const waited = await run(['refunds', 'wait', hash, '--timeout', '1']);
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(waited.code).toBe(1);
    expect(jsonLines(waited.stdout)[0]).toMatchObject({
      key: hash,
      status: 'failed',
      error: { name: 'PollTimeoutError' },
    });
    const polls = () => mock.requests.filter((r) => r.path.endsWith(`${hash}/status`)).length;
    const before = polls();
    for (const bad of ['abc', '0', '-5', '1e9']) {
      const result = await run(['refunds', 'wait', hash, '--timeout', bad]);
      expect(result.code, bad).toBe(2);
      expect(result.stderr).toContain('--timeout');
      expect(result.stdout).toBe('');
    }
    expect(polls()).toBe(before);
  });

  it('statements export --file-format and products list --page/--per-page reach the service', async () => {
    const exported = await run([
      'statements',
      'export',
      '--from',
      '2026-01-01',
      '--to',
      '2026-01-31',
      '--file-format',
      'pdf',
    ]);
    expect(exported.code).toBe(0);
    const sent = mock.requests.find((r) => r.path === '/financial/account-statement/export-report');
    expect(sent?.body).toMatchObject({ format: 'pdf' });
    const listed = await run(['products', 'list', '--page', '2', '--per-page', '1']);
    expect(listed.code).toBe(0);
    const query = new URL(mock.requests.at(-1)!.url).searchParams;
    expect([query.get('page'), query.get('per_page')]).toEqual(['2', '1']);
    expect(jsonLines(listed.stdout)).toHaveLength(1);
  });

  it('trigger --header adds the header to the delivery; replaying a file with none is exit 2', async () => {
    let seen: string | undefined;
    const receiver: Server = createServer((req, res) => {
      seen = req.headers['x-partner-signature'] as string | undefined;
      req.resume().on('end', () => res.writeHead(200).end('{}'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const to = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
    try {
      const result = await run([
        'trigger',
        'subscription_ended',
        '--to',
        to,
        '--header',
        'X-Partner-Signature: sig-123',
      ]);
      expect(result.code).toBe(0);
      expect(seen).toBe('sig-123');
      seen = undefined;
      const empty = join(dir, 'no-deliveries.jsonl');
      await writeFile(empty, '\n\n');
      const replayed = await run(['webhooks', 'replay', empty, '--to', to]);
      expect(replayed.code).toBe(2);
      expect(replayed.stderr).toContain('holds no deliveries');
      expect(seen).toBeUndefined();
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('--seller-token-file acts for the seller whose token the file holds, never shown; a missing or empty file is exit 2, nothing sent', async () => {
    const token = mock.sellers.person.publicToken;
    const file = join(dir, 'seller-token');
    await writeFile(file, `${token}\n`, { mode: 0o600 });
    const noEnvToken = { PARTNER_API_SELLER_TOKEN: undefined };
    const sentWith = () =>
      mock.requests.filter(
        (r) =>
          r.path === '/users/fee-tiers/history' && r.headers.authorization === `Bearer ${token}`,
      ).length;
    const before = sentWith();
    const result = await run(
      ['--verbose', '--seller-token-file', file, 'fee-tiers', 'history'],
      '',
      noEnvToken,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(sentWith()).toBe(before + 1);
    expect(result.stdout + result.stderr).not.toContain(token);

    const empty = join(dir, 'empty-token');
    await writeFile(empty, '\n');
    const seen = mock.requests.length;
    for (const [args, said] of [
      [
        ['--seller-token-file', join(dir, 'no-such-file')],
        /cannot read --seller-token-file .*no-such-file: ENOENT/,
      ],
      [['--seller-token-file', empty], /empty-token holds no token/],
      [['--seller-token-file', file, '--seller-token', token], /not both/],
    ] as const) {
      const refused = await run([...args, 'fee-tiers', 'history'], '', noEnvToken);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(said);
      expect(refused.stderr).not.toContain(token);
    }
    expect(mock.requests.length).toBe(seen);
  });

  it("users update never prints the seller's token it acted with, though the answer repeats it", async () => {
    const token = mock.sellers.person.publicToken;
    const file = join(dir, 'update-seller-token');
    await writeFile(file, `${token}\n`, { mode: 0o600 });
    const profile = {
      name: 'Maria Souza',
      cpf: '529.982.247-25',
      birth: '1988-04-12',
      address: paulistaAddress,
    };
    for (const format of ['json', 'csv', 'table']) {
      const result = await run(
        [
          '--format',
          format,
          '--seller-token-file',
          file,
          'users',
          'update',
          '--data',
          JSON.stringify(profile),
        ],
        '',
        { PARTNER_API_SELLER_TOKEN: undefined },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout, format).toContain('Maria Souza');
      expect(result.stdout + result.stderr, format).not.toContain(token);
    }
    const json = await run(['--json', 'users', 'update', '--data', JSON.stringify(profile)]);
    expect(JSON.parse(json.stdout).public_token).toBe('[REDACTED]');
  });

  it("a profile's credentials go only to the profile's own base URL, never to one a variable names", async () => {
    const config = join(dir, 'bound-config');
    const secret = 'sk_bound_to_its_base_url';
    const saved = await run(
      ['login', '--base-url', kit.url, '--client-id', 'cli_bound', '--no-verify'],
      `${secret}\n`,
      {
        XDG_CONFIG_HOME: config,
        PARTNER_API_BASE_URL: undefined,
        PARTNER_API_CLIENT_ID: undefined,
      },
    );
    expect(saved.code).toBe(0);
    const heard: string[] = [];
    const elsewhere: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        heard.push(`${req.url} ${body}`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"client_token":"token-from-elsewhere"}');
      });
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const other = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/api/v1`;
    try {
      // A variable set by something else (a project's .envrc) names another service.
      const result = await run(['products', 'list'], '', {
        XDG_CONFIG_HOME: config,
        PARTNER_API_BASE_URL: other,
        PARTNER_API_CLIENT_ID: undefined,
        PARTNER_API_CLIENT_SECRET: undefined,
        PARTNER_API_SELLER_TOKEN: undefined,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/is not the \\?"default\\?" profile's base URL/);
      expect(heard.join('\n')).not.toContain(secret);
      expect(heard).toEqual([]);
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  it('login --no-verify saves the profile without calling the service, the secret never shown', async () => {
    const logins = mock.stats.logins;
    const secret = 'sk_flags_never_shown';
    const result = await run(
      [
        'login',
        '--profile',
        'offline',
        '--base-url',
        kit.url,
        '--client-id',
        'cli_flags',
        '--no-verify',
      ],
      `${secret}\n`,
      {
        PARTNER_API_BASE_URL: undefined,
        PARTNER_API_CLIENT_ID: undefined,
        PARTNER_API_CLIENT_SECRET: undefined,
      },
    );
    expect(result.code).toBe(0);
    expect(mock.stats.logins).toBe(logins);
    const file = join(dir, 'config', 'partner-sdk', 'profiles.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain('cli_flags');
    expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
  });

  it('login --verbose logs the call that checks the credentials on stderr, the secret and the token redacted', async () => {
    const login = (secret: string) =>
      run(
        ['--json', '--verbose', 'login', '--profile', 'verbose', '--base-url', kit.url],
        `${secret}\n`,
        { PARTNER_API_BASE_URL: undefined, PARTNER_API_CLIENT_SECRET: undefined },
      );
    const refused = await login('sk_flags_wrong_secret');
    expect(refused.code).toBe(1);
    // The login's own request, logged with its secret redacted, besides the error.
    expect(refused.stderr).toContain('"client_secret":"[REDACTED]"');
    expect(refused.stderr).toContain('POST /auth → 401');
    expect(refused.stderr).not.toContain('sk_flags_wrong_secret');
    const logged = await login(mock.credentials.clientSecret);
    expect(logged.code).toBe(0);
    expect(logged.stderr).toContain('POST /auth → 200');
    expect(logged.stderr).toMatch(/GET \/products → 200/);
    for (const secret of [mock.credentials.clientSecret, mock.credentials.clientToken]) {
      expect(`${logged.stdout}${logged.stderr}`).not.toContain(secret);
    }
  });

  it('a refused login names where its credentials came from: flag, variable, prompt or stdin', async () => {
    const noEnv = {
      PARTNER_API_BASE_URL: undefined,
      PARTNER_API_CLIENT_ID: undefined,
      PARTNER_API_CLIENT_SECRET: undefined,
    };
    const wrong = 'sk_flags_wrong_secret';
    const id = mock.credentials.clientId;
    const flagged = await run(
      ['--format', 'table', 'login', '--base-url', kit.url, '--client-id', id],
      `${wrong}\n`,
      noEnv,
    );
    expect(flagged.code).toBe(1);
    expect(flagged.stderr).toContain(
      "check the client id given with --client-id and the client secret read from stdin's first line",
    );
    const fromEnv = await run(['--format', 'table', 'login'], `${wrong}\n`, {
      PARTNER_API_CLIENT_SECRET: undefined,
    });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain(
      "check the client id given with PARTNER_API_CLIENT_ID and the client secret read from stdin's first line",
    );
    const typed = await onTerminal(
      ['login', '--base-url', kit.url, '--client-id', id],
      { ...env, ...noEnv },
      {
        answer: wrong,
      },
    );
    expect(typed.code).toBe(1);
    expect(typed.shown).toContain(
      'check the client id given with --client-id and the client secret typed at the prompt',
    );
    for (const result of [flagged.stderr, fromEnv.stderr, typed.shown]) {
      expect(result).not.toContain('PARTNER_API_CLIENT_SECRET');
      expect(result).not.toContain(wrong);
    }
    // Nothing listening at the base URL given with --base-url: the flag is named, not the variable.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await run(
      ['--format', 'table', 'login', '--base-url', `http://127.0.0.1:${port}`, '--client-id', id],
      `${wrong}\n`,
      noEnv,
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(`cannot connect to http://127.0.0.1:${port} (--base-url)`);
  });

  it('login refuses a base URL the client cannot use, with or without --no-verify: exit 2, nothing saved or sent', async () => {
    const logins = mock.stats.logins;
    const file = join(dir, 'config', 'partner-sdk', 'profiles.json');
    for (const [baseUrl, problem] of [
      ['api.example.com/api/v1', 'not an absolute URL'],
      ['https://user:pw-0004@api.example.com/api/v1', 'must not carry a user name or password'],
    ] as const) {
      for (const verify of [[], ['--no-verify']]) {
        const args = ['login', '--profile', 'unusable', '--base-url', baseUrl, '--client-id', 'c'];
        const result = await run(['--format', 'table', ...args, ...verify], 'sk_unusable\n');
        expect(result.code, `${baseUrl} ${verify}`).toBe(2);
        expect(result.stderr).toContain(problem);
        expect(result.stderr).toContain('--base-url');
        expect(result.stderr).not.toContain('pw-0004');
      }
    }
    const saved = await readFile(file, 'utf8').catch(() => '{}');
    expect(JSON.parse(saved).profiles?.unusable).toBeUndefined();
    expect(mock.stats.logins).toBe(logins);
  });

  it('login makes a profiles directory others could read or write its own (0700) before saving in it', async () => {
    const config = join(dir, 'open-config');
    await mkdir(join(config, 'partner-sdk'), { recursive: true });
    await chmod(join(config, 'partner-sdk'), 0o777);
    const result = await run(
      ['login', '--base-url', kit.url, '--client-id', 'cli_open_dir', '--no-verify'],
      'sk_open_dir_secret\n',
      {
        XDG_CONFIG_HOME: config,
        PARTNER_API_BASE_URL: undefined,
        PARTNER_API_CLIENT_ID: undefined,
      },
    );
    expect(result.code).toBe(0);
    expect((await stat(join(config, 'partner-sdk'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(config, 'partner-sdk', 'profiles.json'))).mode & 0o777).toBe(0o600);
  });

  it('login saves a seller token given with --seller-token-file; a run with that profile acts for the seller, the token never shown', async () => {
    const token = mock.sellers.person.publicToken;
    const tokenFile = join(dir, 'login-seller-token.txt');
    await writeFile(tokenFile, `${token}\n`);
    const saved = await run(
      ['--seller-token-file', tokenFile, 'login', '--profile', 'seller', '--base-url', kit.url],
      `${mock.credentials.clientSecret}\n`,
      { PARTNER_API_BASE_URL: undefined, PARTNER_API_CLIENT_SECRET: undefined },
    );
    expect(saved.code).toBe(0);
    expect(`${saved.stdout}${saved.stderr}`).not.toContain(token);
    const hash = mock.addTransaction();
    const refunded = await run(['--profile', 'seller', 'refunds', 'request', hash], '', {
      PARTNER_API_SELLER_TOKEN: undefined,
    });
    expect(refunded.code).toBe(0);
    const sent = mock.requests.filter((r) => r.path === `/financial/refund/${hash}`).at(-1);
    expect(sent?.headers.authorization).toBe(`Bearer ${token}`);
    expect(`${refunded.stdout}${refunded.stderr}`).not.toContain(token);
  });

  it('users update --emancipated-document sends the document as a multipart file', async () => {
    const profile = {
      name: 'Ana Lima',
      cpf: '529.982.247-25',
      birth: '2009-04-12',
      is_emancipated: true,
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
    const document = join(dir, 'emancipation.pdf');
    await writeFile(document, '%PDF-1.4\n');
    const result = await run([
      'users',
      'update',
      '--data',
      JSON.stringify(profile),
      '--emancipated-document',
      document,
    ]);
    expect(result.code).toBe(0);
    const sent = mock.requests.filter((r) => r.path.startsWith('/users')).at(-1);
    expect(sent?.body).toMatchObject({
      emancipated_document: expect.objectContaining({ name: 'emancipation.pdf' }),
    });
  });

  it('--verbose logs each request and answer on stderr, stdout unchanged, nothing secret or personal in it, with --trace too', async () => {
    const pixKey = 'maria.verbose@example.com';
    const holderDocument = '529.982.247-25';
    const data = JSON.stringify({ pix_key: pixKey, holder_document: holderDocument });
    const args = ['bank-accounts', 'update', mock.bankAccounts.pix, '--data', data];
    const withSecret = await run(['--json', '--verbose', '--trace', ...args]);
    const withToken = await run(['--json', '--verbose', ...args], undefined, {
      PARTNER_API_CLIENT_SECRET: undefined,
      PARTNER_API_CLIENT_ID: undefined,
      PARTNER_API_CLIENT_TOKEN: mock.credentials.clientToken,
    });
    for (const result of [withSecret, withToken]) {
      expect(result.code).toBe(0);
      expect(jsonLines(result.stdout)).toEqual([expect.objectContaining({ pix_key: pixKey })]);
      expect(result.stderr).toMatch(/POST \/users\/bank-accounts\/\S+ → 200/);
      for (const secret of [
        mock.credentials.clientSecret,
        mock.credentials.clientToken,
        mock.sellers.person.publicToken,
        pixKey,
        holderDocument,
      ]) {
        expect(result.stderr).not.toContain(secret);
      }
    }
    expect(withSecret.stderr).toContain('POST /auth → 200');
    expect(withSecret.stderr).toContain('"name":"bankAccounts.update"');
  });

  it('mock serves with --rate-limit, --latency, --transactions and --hashes-file; bad values are exit 2; Ctrl-C ends it with exit 0', async () => {
    for (const bad of [
      ['--rate-limit', 'abc'],
      ['--rate-limit', '0'],
      ['--latency', '-5'],
    ]) {
      const result = await run(['mock', ...bad]);
      expect(result.code, bad.join(' ')).toBe(2);
      expect(result.stderr).toContain(bad[0]);
    }
    const hashesFile = join(dir, 'mock-hashes.txt');
    const child = spawn(
      process.execPath,
      [
        ...CLI_ARGS,
        '--json',
        'mock',
        '--rate-limit',
        '5',
        '--latency',
        '150',
        '--transactions',
        '2',
        '--hashes-file',
        hashesFile,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    try {
      const first = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
        });
      });
      const printed = JSON.parse(first) as { env: Record<string, string>; transactions: string[] };
      expect(printed.transactions).toHaveLength(mock.transactions.refundable.length + 2);
      expect((await readFile(hashesFile, 'utf8')).trim().split('\n')).toEqual(printed.transactions);
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => fetch(`${printed.env.PARTNER_API_BASE_URL}/products`)),
      );
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      expect(answers.map((answer) => answer.status)).toContain(429);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      clearTimeout(timer);
      child.kill('SIGKILL');
    }
  });

  it('a command that is not a bulk job, stopped by Ctrl-C, SIGTERM or SIGHUP, exits 130 as documented', async () => {
    const { hash } = mock.products.course;
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      expect(
        await exitOnSignal(['products', 'get', hash], `/products/${hash}`, signal),
        signal,
      ).toBe(130);
    }
  });

  it('one refund or one offer update (a job of one), stopped by Ctrl-C while its request is in flight, exits 130', async () => {
    const trx = mock.addTransaction();
    const { hash: product, offerCode } = mock.products.course;
    for (const [args, path] of [
      [['refunds', 'request', trx], `/financial/refund/${trx}`],
      [
        ['offers', 'update', product, offerCode, '--data', '{"price":4990}'],
        `/products/${product}/offers/${offerCode}`,
      ],
    ] as const) {
      expect(await exitOnSignal(args, path, 'SIGINT'), args.join(' ')).toBe(130);
    }
  });

  it('PARTNER_SDK_PROFILE picks a profile over PARTNER_API_*, which win over the default one; a profile file others can read is refused', async () => {
    const config = join(dir, 'profiles-config');
    const file = join(config, 'partner-sdk', 'profiles.json');
    await mkdir(join(config, 'partner-sdk'), { recursive: true, mode: 0o700 });
    const good = { baseUrl: kit.url, ...mock.credentials, clientToken: undefined };
    const wrong = { ...good, clientSecret: 'sk_not_the_secret' };
    await writeFile(file, JSON.stringify({ profiles: { default: wrong, good } }), { mode: 0o600 });
    await chmod(file, 0o600);
    const list = ['--json', 'products', 'list', '--per-page', '1'];
    const at = { XDG_CONFIG_HOME: config };
    // PARTNER_API_* (right) win over the default profile (wrong).
    expect((await run(list, undefined, at)).code).toBe(0);
    // PARTNER_SDK_PROFILE wins over PARTNER_API_*, whichever is right.
    const pickedWrong = await run(list, undefined, { ...at, PARTNER_SDK_PROFILE: 'default' });
    expect(pickedWrong.code).toBe(1);
    expect(pickedWrong.stderr).toContain('AuthenticationError');
    const pickedGood = await run(list, undefined, {
      ...at,
      PARTNER_SDK_PROFILE: 'good',
      PARTNER_API_CLIENT_SECRET: 'sk_env_is_wrong_here',
    });
    expect(pickedGood.code).toBe(0);
    await chmod(file, 0o644);
    const readable = await run(list, undefined, { ...at, PARTNER_SDK_PROFILE: 'good' });
    expect(readable.code).toBe(2);
    expect(readable.stderr).toContain('chmod 600');
    expect(readable.stderr).not.toContain(mock.credentials.clientSecret);
  });

  it('offers update of one offer with --journal records it: the same command again sends nothing and reports it skipped', async () => {
    const { hash: product, offerCode } = mock.products.course;
    const journal = join(dir, `one-offer-${Date.now()}.jsonl`);
    const puts = () =>
      mock.requests.filter(
        (r) => r.method === 'PUT' && r.path === `/products/${product}/offers/${offerCode}`,
      ).length;
    const args = ['--json', 'offers', 'update', product, offerCode, '--data', '{"price":5190}'];
    const first = await run([...args, '--journal', journal]);
    expect(first.code).toBe(0);
    expect(jsonLines(first.stdout)[0]).toMatchObject({ price: 5190 });
    const sentOnce = puts();
    const again = await run([...args, '--journal', journal]);
    expect(again.code).toBe(0);
    expect(jsonLines(again.stdout)[0]).toMatchObject({ status: 'skipped', previous: 'succeeded' });
    expect(puts()).toBe(sentOnce);
  });
});

/**
 * Runs the CLI with `args` against the kit slowed down, sends `signal` once its request to `path`
 * has reached the kit (the command is running, waiting for the answer), and resolves with its exit
 * code. The client token is given, so the login does not wait out the latency first.
 */
async function exitOnSignal(
  args: readonly string[],
  path: string,
  signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP',
): Promise<number | null> {
  const seen = () => mock.requests.filter((r) => r.path === path).length;
  const before = seen();
  mock.setLatency(30_000);
  const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, PARTNER_API_CLIENT_TOKEN: mock.credentials.clientToken },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    await waitFor(() => seen() > before, `${args.join(' ')} to reach the kit`, 30_000);
    child.kill(signal);
    return await exited;
  } finally {
    clearTimeout(timer);
    child.kill('SIGKILL');
    mock.setLatency(undefined);
  }
}
