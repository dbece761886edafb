/**
 * DESIGN.md's behavioural sentences that no other file pins from outside: each test quotes the
 * sentence it holds the package to, and reaches it only through the package's entry points, on
 * the kit's fetch face.
 */

import { createRequire } from 'node:module';
import {
  AuthenticationError,
  type ClientOptions,
  InternalServerError,
  PartnerClient,
  parseTimestamp,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
} from 'partner-sdk';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paulistaAddress as address } from './helpers/addresses';
import { kitClients } from './helpers/kit-clients';

const fast = { interval: 5, maxInterval: 10, timeout: 5_000 };

/** Every method of DESIGN §3 called on `seller` for `mock`, each with `options` last. */
function everyMethod(mock: MockPartnerApi, seller: ReturnType<typeof kitClients>['seller']) {
  const product = mock.products.course;
  const range = { format: 'csv', filter: { betweenDates: '01/03/2026,31/03/2026' } };
  return {
    'users.update': (o: object) =>
      seller.users.update(
        { name: 'Ana Souza', address, cpf: '123.456.789-09', birth: '1990-04-01' },
        o,
      ),
    'bankAccounts.update': (o: object) =>
      seller.bankAccounts.update(mock.bankAccounts.pix, { holder_name: 'Ana' }, o),
    'products.retrieve': (o: object) => seller.products.retrieve(product.hash, o),
    'products.list': (o: object) => seller.products.list({ per_page: 2 }, o),
    'offers.update': (o: object) =>
      seller.offers.update(product.hash, product.offerCode, { name: 'Oferta' }, o),
    'refunds.request': (o: object) =>
      seller.refunds.request(mock.transactions.refundable[0]!, undefined, o),
    'refunds.list': (o: object) => seller.refunds.list(mock.transactions.withPastRefund, o),
    'refunds.retrieveStatus': (o: object) =>
      seller.refunds.retrieveStatus(mock.transactions.withActiveRefund, o),
    'refunds.waitForCompletion': (o: object) =>
      seller.refunds.waitForCompletion(mock.transactions.withActiveRefund, fast, o),
    'refunds.requestAndWait': (o: object) =>
      seller.refunds.requestAndWait(mock.transactions.refundable[1]!, undefined, fast, o),
    'statements.export': (o: object) => seller.statements.export(range, o),
    'statements.retrieve': async (o: object) =>
      seller.statements.retrieve((await seller.statements.export(range)).hash, o),
    'statements.waitForExport': async (o: object) =>
      seller.statements.waitForExport((await seller.statements.export(range)).hash, fast, o),
    'statements.download': async (o: object) =>
      seller.statements.download(
        await seller.statements.waitForExport(await seller.statements.export(range), fast),
        o,
      ),
    'anticipations.confirm': (o: object) =>
      seller.anticipations.confirm(mock.anticipations.confirmable[0]!, { scenario: 'above' }, o),
    'anticipations.list': (o: object) => seller.anticipations.list({ per_page: 2 }, o),
    'feeTiers.history': (o: object) => seller.feeTiers.history(o),
  };
}

describe('DESIGN §2: every method takes a last optional RequestOptions', () => {
  const names = Object.keys(
    everyMethod(createMockPartnerApi(), kitClients(createMockPartnerApi()).seller),
  );

  it.each(names)('%s sends the headers of its last argument', async (name) => {
    const { mock, seller } = kitClients(createMockPartnerApi());
    const call = everyMethod(mock, seller)[name as keyof ReturnType<typeof everyMethod>];
    const before = mock.requests.length;
    await call({ headers: { 'x-design-probe': name } });
    const probed = mock.requests.slice(before).filter((r) => r.headers['x-design-probe'] === name);
    expect(probed.length).toBeGreaterThan(0);
  });
});

describe('DESIGN §2: .withResponse() gives { data, response } on the promise of every single call', () => {
  type Single = () => { withResponse(): Promise<{ data: unknown; response: Response }> };

  it('holds for every method that sends one call', async () => {
    const { mock, seller } = kitClients(createMockPartnerApi());
    const product = mock.products.course;
    const range = { format: 'csv', filter: { betweenDates: '01/03/2026,31/03/2026' } };
    const running = await seller.statements.export(range);
    const finished = await seller.statements.waitForExport(running, fast);
    const calls: Record<string, Single> = {
      'users.update': () =>
        seller.users.update({
          name: 'Ana Souza',
          address,
          cpf: '123.456.789-09',
          birth: '1990-04-01',
        }),
      'bankAccounts.update': () =>
        seller.bankAccounts.update(mock.bankAccounts.pix, { holder_name: 'Ana' }),
      'products.retrieve': () => seller.products.retrieve(product.hash),
      'products.list': () => seller.products.list({ per_page: 2 }),
      'offers.update': () =>
        seller.offers.update(product.hash, product.offerCode, { name: 'Oferta' }),
      'refunds.request': () => seller.refunds.request(mock.transactions.refundable[0]!),
      'refunds.list': () => seller.refunds.list(mock.transactions.withPastRefund),
      'refunds.retrieveStatus': () =>
        seller.refunds.retrieveStatus(mock.transactions.withActiveRefund),
      'statements.export': () => seller.statements.export(range),
      'statements.retrieve': () => seller.statements.retrieve(running.hash),
      'statements.download': () => seller.statements.download(finished),
      'anticipations.confirm': () =>
        seller.anticipations.confirm(mock.anticipations.confirmable[0]!, { scenario: 'above' }),
      'anticipations.list': () => seller.anticipations.list({ per_page: 2 }),
      'feeTiers.history': () => seller.feeTiers.history(),
    };
    for (const [name, call] of Object.entries(calls)) {
      const { data, response } = await call().withResponse();
      expect(response, name).toBeInstanceOf(Response);
      expect(response.ok, name).toBe(true);
      expect(data, name).toBeDefined();
    }
  });

  it('the waits, many calls each, resolve with the final status alone', async () => {
    const { mock, seller } = kitClients(createMockPartnerApi());
    const wait = seller.refunds.waitForCompletion(mock.transactions.withActiveRefund, fast);
    expect('withResponse' in wait).toBe(false);
    expect((await wait).status).toBe('completed');
  });
});

describe('DESIGN §2: an empty path parameter, or . or .., is a RequestValidationError, nothing sent', () => {
  const bad = ['', '.', '..'];
  const callsWith = (seller: ReturnType<typeof kitClients>['seller'], hash: string) => [
    () => seller.bankAccounts.update(hash, { holder_name: 'Ana' }),
    () => seller.products.retrieve(hash),
    () => seller.offers.update(hash, 'off_1', { name: 'Oferta' }),
    () => seller.offers.update('prd_1', hash, { name: 'Oferta' }),
    () => seller.refunds.request(hash),
    () => seller.refunds.list(hash),
    () => seller.refunds.retrieveStatus(hash),
    () => seller.refunds.waitForCompletion(hash, fast),
    () => seller.refunds.requestAndWait(hash, undefined, fast),
    () => seller.statements.retrieve(hash),
    () => seller.statements.waitForExport(hash, fast),
    () => seller.anticipations.confirm(hash, { scenario: 'above' }),
  ];

  it.each(bad)('refuses %j in every method that takes a path parameter', async (hash) => {
    const { mock, seller } = kitClients(createMockPartnerApi());
    for (const call of callsWith(seller, hash)) {
      await expect(call()).rejects.toBeInstanceOf(RequestValidationError);
    }
    expect(mock.requests).toHaveLength(0);
  });
});

describe('DESIGN §3: waitForCompletion polls an existing refund as it polls an accepted one', () => {
  it('takes an existing refund in success as not final and waits for completed', async () => {
    const { mock, seller } = kitClients(createMockPartnerApi());
    const trx = mock.transactions.refundable[0]!;
    mock.refundOutcome(trx, 'completed', { polls: 0 });
    await seller.refunds.request(trx);
    expect((await seller.refunds.retrieveStatus(trx)).status).toBe('success');
    const existing = await seller.refunds.request(trx);
    expect(existing).toMatchObject({ kind: 'existing', refund: { status: 'success' } });
    const seen: string[] = [];
    const done = await seller.refunds.waitForCompletion(existing, {
      ...fast,
      onStatus: (status) => seen.push(status),
    });
    expect(done.status).toBe('completed');
    expect(seen.at(-1)).toBe('completed');
  });
});

describe('DESIGN §2: debug logs of bodies mask personal data', () => {
  const personal = {
    cpf: '123.456.789-09',
    pixKey: 'ana.souza@example.com',
    agency: '0421',
    account: '99887-1',
    document: '98.765.432/0001-10',
  };

  it('writes no cpf, cnpj, pix key, branch or account number at debug level', async () => {
    const lines: string[] = [];
    const keep = (...args: unknown[]) => lines.push(args.map((a) => JSON.stringify(a)).join(' '));
    const logger = { error: keep, warn: keep, info: keep, debug: keep };
    const options: ClientOptions = { logger, logLevel: 'debug' };
    const { mock, seller } = kitClients(createMockPartnerApi(), options);
    await seller.users.update({
      name: 'Ana Souza',
      address,
      cpf: personal.cpf,
      birth: '1990-04-01',
    });
    await seller.bankAccounts.update(mock.bankAccounts.pix, {
      holder_name: 'Ana',
      pix_key: personal.pixKey,
      agency: personal.agency,
      account: personal.account,
      holder_document: personal.document,
    });
    expect(lines.length).toBeGreaterThan(0);
    const all = lines.join('\n');
    for (const value of Object.values(personal)) expect(all).not.toContain(value);
  });
});

describe('DESIGN §2: the kit hands the root client a 401 that hints at forUser', () => {
  it('refuses a seller route without the bearer with AuthenticationError naming forUser', async () => {
    const { mock, client } = kitClients(createMockPartnerApi());
    const refused = client.refunds.list(mock.transactions.withPastRefund);
    await expect(refused).rejects.toBeInstanceOf(AuthenticationError);
    await expect(refused).rejects.toThrow(/forUser/);
    await expect(client.products.list()).resolves.toBeDefined();
  });
});

describe('DESIGN §2: a call is replayed only where a repeat is harmless', () => {
  const replayed = [
    'users.update',
    'bankAccounts.update',
    'products.retrieve',
    'products.list',
    'offers.update',
    'refunds.list',
    'refunds.retrieveStatus',
    'statements.export',
    'anticipations.list',
    'feeTiers.history',
  ] as const;

  it.each(replayed)('%s comes through a 500 by sending again', async (name) => {
    const { mock, seller } = kitClients(createMockPartnerApi());
    mock.failNext({ status: 500, retryAfter: 0, path: /^\/(?!auth$)/ });
    await expect(everyMethod(mock, seller)[name]({})).resolves.toBeDefined();
    expect(mock.requests.filter((r) => r.path !== '/auth')).toHaveLength(2);
  });

  it('anticipations.confirm is not sent again after a 500, where the service may have acted', async () => {
    const { mock, seller } = kitClients(createMockPartnerApi());
    mock.failNext({ status: 500, retryAfter: 0, path: /^\/financial\/anticipation\/confirm\// });
    await expect(everyMethod(mock, seller)['anticipations.confirm']({})).rejects.toMatchObject({
      status: 500,
    });
    expect(mock.requests.filter((r) => r.path !== '/auth')).toHaveLength(1);
  });
});

describe('DESIGN §8: the kit requires the bearer on every route but login and the catalogue', () => {
  const sellerOnly = [
    'bankAccounts.update',
    'offers.update',
    'refunds.request',
    'refunds.list',
    'refunds.retrieveStatus',
    'statements.export',
    'anticipations.confirm',
    'anticipations.list',
    'feeTiers.history',
  ] as const;

  it.each(sellerOnly)('answers %s of the root client with 401', async (name) => {
    const { mock, client } = kitClients(createMockPartnerApi(), { maxRetries: 0 });
    // The root client has every namespace but users, which none of these calls.
    const root = client as unknown as ReturnType<typeof kitClients>['seller'];
    const call = everyMethod(mock, root)[name]({});
    await expect(call).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('serves the catalogue to the root client, logging in lazily on the first call', async () => {
    const { mock, client } = kitClients(createMockPartnerApi());
    expect(mock.requests).toHaveLength(0);
    await client.products.list();
    await client.products.retrieve(mock.products.course.hash);
    expect(mock.requests.map((r) => r.path)).toEqual([
      '/auth',
      '/products',
      `/products/${mock.products.course.hash}`,
    ]);
  });
});

describe('DESIGN §2: the client options and their defaults, from the environment and the wire', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('logs in at the PARTNER_API_BASE_URL with PARTNER_API_CLIENT_ID and _SECRET', async () => {
    const mock = createMockPartnerApi();
    vi.stubEnv('PARTNER_API_BASE_URL', mock.baseUrl);
    vi.stubEnv('PARTNER_API_CLIENT_ID', mock.credentials.clientId);
    vi.stubEnv('PARTNER_API_CLIENT_SECRET', mock.credentials.clientSecret);
    vi.stubEnv('PARTNER_API_CLIENT_TOKEN', '');
    const client = new PartnerClient({ fetch: mock.fetch, logLevel: 'off' });
    await client.products.list();
    expect(mock.stats.logins).toBe(1);
  });

  it('sends PARTNER_API_CLIENT_TOKEN without logging in', async () => {
    const mock = createMockPartnerApi();
    vi.stubEnv('PARTNER_API_BASE_URL', mock.baseUrl);
    vi.stubEnv('PARTNER_API_CLIENT_TOKEN', mock.credentials.clientToken);
    const client = new PartnerClient({ fetch: mock.fetch, logLevel: 'off' });
    await client.products.list();
    expect(mock.stats.logins).toBe(0);
    expect(mock.requests[0]?.headers['x-api-client-token']).toBe(mock.credentials.clientToken);
  });

  it('tries a call three times by default (maxRetries: 2), then throws the last error', async () => {
    const { mock, client } = kitClients(createMockPartnerApi());
    mock.failNext({ status: 503, times: 5, retryAfter: 0, path: '/products' });
    await expect(client.products.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(mock.requests.filter((r) => r.path === '/products')).toHaveLength(3);
  });

  it('fails at once with the full retryAfterMs when Retry-After outlasts what totalTimeout has left', async () => {
    const { mock, client } = kitClients(createMockPartnerApi(), { totalTimeout: 2_000 });
    mock.failNext({ status: 429, retryAfter: 5, path: '/products' });
    const error = await client.products.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 5_000 });
    expect(mock.requests.filter((r) => r.path === '/products')).toHaveLength(1);
  });

  it('fails a 503 asking for more than 60 s at once as the answer it is, with the full wait', async () => {
    const { mock, client } = kitClients(createMockPartnerApi());
    mock.failNext({ status: 503, retryAfter: 61, path: '/products' });
    const error = await client.products.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, retryAfterMs: 61_000 });
    expect(mock.requests.filter((r) => r.path === '/products')).toHaveLength(1);
  });

  it('takes a 501 as final: the service does not support the request', async () => {
    const { mock, client } = kitClients(createMockPartnerApi());
    mock.failNext({ status: 501, retryAfter: 0, path: '/products' });
    await expect(client.products.list()).rejects.toMatchObject({ status: 501 });
    expect(mock.requests.filter((r) => r.path === '/products')).toHaveLength(1);
  });
});

describe('DESIGN §5: a wrong type throws in strict, is logged in warn, and is not checked in off', () => {
  const body = { hash: 'prd_1', name: 5 };
  const over = (validateResponses: 'strict' | 'warn' | 'off', warnings: unknown[][]) =>
    new PartnerClient({
      baseUrl: 'https://partner.example.com/api/v1',
      clientToken: 'tok-123456',
      fetch: async () => Response.json(body),
      logger: {
        error() {},
        warn: (...args: unknown[]) => warnings.push(args),
        info() {},
        debug() {},
      },
      validateResponses,
    });

  it.each(['strict', 'warn', 'off'] as const)('%s', async (mode) => {
    const warnings: unknown[][] = [];
    const outcome = await over(mode, warnings)
      .products.retrieve('prd_1')
      .catch((e: unknown) => e);
    if (mode === 'strict') expect(outcome).toBeInstanceOf(ResponseValidationError);
    else expect(outcome).toEqual(body);
    expect(warnings.length > 0).toBe(mode === 'warn');
  });
});

describe('DESIGN §2: ky is an implementation detail', () => {
  it('no error thrown, nor any of its causes, is an error of ky', async () => {
    const ky = await import('ky');
    const kyClasses = [ky.HTTPError, ky.TimeoutError];
    const { mock, client } = kitClients(createMockPartnerApi(), { maxRetries: 0 });
    mock.dropNext({ path: '/products' });
    mock.failNext({ status: 500, path: '/products' });
    mock.failNext({ delayMs: 200, path: '/products' });
    const errors = [
      await client.products.list().catch((e: unknown) => e),
      await client.products.list().catch((e: unknown) => e),
      await client
        .withOptions({ timeout: 20 })
        .products.list()
        .catch((e: unknown) => e),
    ];
    for (let error = errors.shift(); error; error = errors.shift()) {
      expect(error).toBeInstanceOf(Error);
      for (const kyClass of kyClasses) expect(error).not.toBeInstanceOf(kyClass);
      if ((error as Error).cause) errors.push((error as Error).cause);
    }
  });
});

describe('DESIGN §1: the package', () => {
  const manifest = createRequire(import.meta.url)('partner-sdk/package.json') as {
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
    exports: Record<string, unknown>;
    sideEffects: boolean;
    bin?: unknown;
  };

  it('runs on ky and zod alone, every peer optional, free of side effects', () => {
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['ky', 'zod']);
    for (const peer of Object.keys(manifest.peerDependencies)) {
      expect(manifest.peerDependenciesMeta[peer]?.optional, peer).toBe(true);
    }
    expect(manifest.sideEffects).toBe(false);
  });

  it('has the seven entry points, each with ESM, CJS and both declaration files', () => {
    const entries = [
      '.',
      './webhooks',
      './testing',
      './testing/msw',
      './bulk',
      './redis',
      './bullmq',
    ];
    expect(Object.keys(manifest.exports).filter((key) => key !== './package.json')).toEqual(
      entries,
    );
    for (const entry of entries) {
      const target = JSON.stringify(manifest.exports[entry]);
      for (const file of [/\.js"/, /\.cjs"/, /\.d\.ts"/, /\.d\.cts"/]) expect(target).toMatch(file);
    }
  });

  it('leaves the command line to a package of its own', () => {
    expect(manifest.bin).toBeUndefined();
  });
});

describe('DESIGN §5: timestamps stay the strings the service sent; parseTimestamp reads them', () => {
  it("keeps a product's created_at as sent and reads it in America/Sao_Paulo", async () => {
    const { mock, client } = kitClients(createMockPartnerApi());
    const product = await client.products.retrieve(mock.products.course.hash);
    expect(product.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const read = parseTimestamp(product.created_at as string);
    const inUtc = parseTimestamp(product.created_at as string, { timeZone: 'UTC' });
    expect(read.getTime() - inUtc.getTime()).toBe(3 * 3_600_000);
  });

  it('reads all three documented formats, the two without an offset in the zone given', () => {
    expect(parseTimestamp('2026-03-05T14:22:10Z').toISOString()).toBe('2026-03-05T14:22:10.000Z');
    expect(parseTimestamp('2026-03-05T14:22:10-03:00').toISOString()).toBe(
      '2026-03-05T17:22:10.000Z',
    );
    expect(parseTimestamp('2026-03-05 14:22:10').toISOString()).toBe('2026-03-05T17:22:10.000Z');
    expect(parseTimestamp('05/03/2026 14:22:10').toISOString()).toBe('2026-03-05T17:22:10.000Z');
    expect(parseTimestamp('05/03/2026 14:22:10', { timeZone: 'UTC' }).toISOString()).toBe(
      '2026-03-05T14:22:10.000Z',
    );
  });
});
