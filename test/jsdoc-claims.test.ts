/**
 * The JSDoc sentences of `partner-sdk` that state a range, a default or a thrown class, held to
 * what the package does: each row quotes the promise it checks. Through the published names only,
 * against the kit's fetch face (no socket), counting what reached it.
 */

import {
  APIError,
  type ClientOptions,
  InternalServerError,
  PartnerClient,
  PartnerError,
  RequestValidationError,
  type SellerClient,
  toFile,
} from 'partner-sdk';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';

const LONGEST_TIMER = 2_147_483_647;
const quiet = { error() {}, warn() {}, info() {}, debug() {} };

function kit(options: Partial<ClientOptions> = {}): {
  mock: MockPartnerApi;
  client: PartnerClient;
  seller: SellerClient;
} {
  const mock = createMockPartnerApi();
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    clientToken: mock.credentials.clientToken,
    logger: quiet,
    ...options,
  });
  return { mock, client, seller: client.forUser(mock.sellers[0].publicToken) };
}

/** ClientOptions: "above 0, at most 2 147 483 647", "0 to 10", "a positive whole number". */
const NUMBER_RANGES: {
  option: 'timeout' | 'totalTimeout' | 'maxRetries' | 'maxResponseBytes' | 'maxUploadBytes';
  accepted: number[];
  refused: number[];
  says: RegExp;
}[] = [
  {
    option: 'timeout',
    accepted: [1, 0.5, LONGEST_TIMER],
    refused: [0, -1, Number.NaN, Number.POSITIVE_INFINITY, LONGEST_TIMER + 1],
    says: /positive number of milliseconds up to 2147483647/,
  },
  {
    option: 'totalTimeout',
    accepted: [1, LONGEST_TIMER],
    refused: [0, -1, Number.NaN, LONGEST_TIMER + 1],
    says: /positive number of milliseconds up to 2147483647/,
  },
  {
    option: 'maxRetries',
    accepted: [0, 10],
    refused: [-1, 11, 1.5, Number.NaN],
    says: /whole number from 0 to 10/,
  },
  {
    option: 'maxResponseBytes',
    accepted: [1, 32 * 1024 * 1024],
    refused: [0, 1.5, Number.NaN, -1],
    says: /positive whole number of bytes/,
  },
  {
    option: 'maxUploadBytes',
    accepted: [1, 64 * 1024 * 1024],
    refused: [0, 1.5, Number.NaN, -1],
    says: /positive whole number of bytes/,
  },
];

describe('ClientOptions: each number is refused out of the range its JSDoc gives', () => {
  for (const { option, accepted, refused, says } of NUMBER_RANGES) {
    it(`${option}: accepts ${accepted.join(', ')}; refuses ${refused.join(', ')} at construction, naming it`, () => {
      for (const value of accepted) expect(() => kit({ [option]: value })).not.toThrow();
      for (const value of refused) {
        const made = () => kit({ [option]: value });
        expect(made).toThrow(PartnerError);
        expect(made).toThrow(new RegExp(`Invalid PartnerClient options: \`${option}\``));
        expect(made).toThrow(says);
      }
    });
  }
});

describe('RequestOptions: "a value out of it rejects the call with a PartnerError naming the option, nothing sent"', () => {
  for (const { option, refused, says } of NUMBER_RANGES) {
    it(`${option}: ${refused.join(', ')} for one call`, async () => {
      const { mock, client } = kit();
      for (const value of refused) {
        const call = client.products.list({}, { [option]: value });
        await expect(call).rejects.toThrow(PartnerError);
        await expect(call).rejects.toThrow(new RegExp(`Invalid request options: \`${option}\``));
        await expect(call).rejects.toThrow(says);
      }
      expect(mock.requests).toHaveLength(0);
    });
  }

  it('a header that cannot be sent is named as a request option too', async () => {
    const { mock, client } = kit();
    await expect(client.products.list({}, { headers: { 'x-trace': 'a\nb' } })).rejects.toThrow(
      /^Invalid request options: `headers` value of x-trace/,
    );
    expect(mock.requests).toHaveLength(0);
  });
});

describe('anticipations.list: "page from 1, per_page 1 to 100", else RequestValidationError, nothing sent', () => {
  it.each([
    { page: 0 },
    { page: 1.5 },
    { per_page: 0 },
    { per_page: 101 },
    { per_page: 2.5 },
    { per_page: Number.NaN },
  ])('refuses %o', async (params) => {
    const { mock, seller } = kit();
    await expect(seller.anticipations.list(params)).rejects.toThrow(RequestValidationError);
    expect(mock.requests).toHaveLength(0);
  });

  it.each([{ page: 1 }, { per_page: 1 }, { per_page: 100 }])('sends %o', async (params) => {
    const { seller } = kit();
    await expect(seller.anticipations.list(params)).resolves.toHaveProperty('data');
  });
});

describe('waitForCompletion and waitForExport: "a poll option out of range" is a RequestValidationError, nothing sent', () => {
  const outOfRange = [
    { interval: 0 },
    { maxInterval: -1 },
    { timeout: Number.NaN },
    { timeout: LONGEST_TIMER + 1 },
  ];
  it.each(outOfRange)('refunds.waitForCompletion refuses %o', async (pollOptions) => {
    const { mock, seller } = kit();
    const wait = seller.refunds.waitForCompletion(mock.transactions.refundable[0]!, pollOptions);
    await expect(wait).rejects.toThrow(RequestValidationError);
    expect(mock.requests).toHaveLength(0);
  });
  it.each(outOfRange)('statements.waitForExport refuses %o', async (pollOptions) => {
    const { mock, seller } = kit();
    await expect(seller.statements.waitForExport('exp_1', pollOptions)).rejects.toThrow(
      RequestValidationError,
    );
    expect(mock.requests).toHaveLength(0);
  });
});

describe('statements.export: "an end before the start is no error … it is sent, with a warning"', () => {
  it.each(['31/01/2026,01/01/2026', { start: '2026-01-31', end: '2026-01-01' }])(
    'sends %o as the wire string and warns once',
    async (betweenDates) => {
      const warnings: string[] = [];
      const { mock, seller } = kit({
        logger: { ...quiet, warn: (line: string) => warnings.push(line) },
      });
      const exported = await seller.statements.export({ format: 'csv', filter: { betweenDates } });
      expect(exported.status).toBe('processing');
      const sent = mock.requests.find((request) => request.method === 'POST');
      expect(sent?.body).toMatchObject({ filter: { betweenDates: '31/01/2026,01/01/2026' } });
      expect(warnings.filter((line) => line.includes('ends before it starts'))).toHaveLength(1);
    },
  );

  it('refuses a day that does not exist, nothing sent', async () => {
    const { mock, seller } = kit();
    const call = seller.statements.export({
      format: 'csv',
      filter: { betweenDates: '31/02/2026,01/03/2026' },
    });
    await expect(call).rejects.toThrow(RequestValidationError);
    expect(mock.requests).toHaveLength(0);
  });
});

describe('Assumptions: "a wrong value throws a PartnerError naming it"', () => {
  it.each([
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [10n, '10n'],
    [() => 10, 'a function'],
  ])('marginMs %s is named and quoted as %s', (marginMs, quoted) => {
    const made = () => kit({ assumptions: { reconciliation: { marginMs: marginMs as number } } });
    expect(made).toThrow(PartnerError);
    expect(made).toThrow(`\`assumptions.reconciliation.marginMs\``);
    expect(made).toThrow(`(got ${quoted})`);
  });
});

describe('forUser, withOptions and toFile throw what their JSDoc names', () => {
  it.each(['', 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln', 'eyJ\nx', 42])(
    'forUser(%j) is a RequestValidationError, nothing sent',
    (publicToken) => {
      const { mock, client } = kit();
      expect(() => client.forUser(publicToken as string)).toThrow(RequestValidationError);
      expect(mock.requests).toHaveLength(0);
    },
  );

  it('withOptions with an option out of its range is a PartnerError naming it', () => {
    const { client } = kit();
    expect(() => client.withOptions({ maxRetries: 11 })).toThrow(PartnerError);
    expect(() => client.withOptions({ timeout: 0 })).toThrow(
      /Invalid PartnerClient options: `timeout`/,
    );
  });

  it.each(['plain text', 42, null])('toFile(%j) is a TypeError', async (data) => {
    await expect(toFile(data as never, 'note.txt')).rejects.toThrow(TypeError);
  });

  it("toFile keeps the blob's own type unless one is given", async () => {
    const png = new Blob([new Uint8Array([1])], { type: 'image/png' });
    expect((await toFile(png, 'a.png')).type).toBe('image/png');
    expect((await toFile(png, 'a.webp', { type: 'image/webp' })).type).toBe('image/webp');
    expect((await toFile(new Uint8Array([1]), 'a.bin')).type).toBe('');
  });
});

describe('statements.download: "a relative url is read against baseUrl"; no url, or not http(s), is refused', () => {
  it.each([
    ['/storage/x.csv', '/storage/x.csv'],
    ['files/x.csv', '/api/v1/files/x.csv'],
  ])('reads %s as %s on the service, with its credentials', async (url, path) => {
    const { mock, seller } = kit();
    const response = await seller.statements.download({ url }).catch(() => undefined);
    await response?.body?.cancel();
    const sent = mock.requests.at(-1)!;
    expect(new URL(sent.url).pathname).toBe(path);
    expect(sent.headers['x-api-client-token']).toBe(mock.credentials.clientToken);
  });

  it.each([null, '', 'ftp://files.example.com/x.csv'])('refuses %j, nothing sent', async (url) => {
    const { mock, seller } = kit();
    await expect(seller.statements.download({ url })).rejects.toThrow(RequestValidationError);
    expect(mock.requests).toHaveLength(0);
  });
});

describe('an error\'s path: "relative to baseUrl, without the query; outside baseUrl, its absolute URL without the query"', () => {
  it('names a call under baseUrl by its path, percent-encoded, without the query', async () => {
    const { client } = kit({ maxRetries: 0 });
    const error = await client.products.retrieve('no pe/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).path).toBe('/products/no%20pe%2Fx');
  });

  it('names a download elsewhere by its URL, its signature left out', async () => {
    const { seller } = kit({ maxRetries: 0 });
    const url = 'https://files.example.test/exports/x.csv?signature=s3cr3t-sig';
    const error = await seller.statements.download({ url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).path).toBe('https://files.example.test/exports/x.csv');
    expect((error as APIError).message).not.toContain('s3cr3t-sig');
  });
});

describe('Logger.info: "one line per call: method, path, status, duration", a call that fails included', () => {
  const outcomes: [string, (mock: MockPartnerApi) => void, RegExp][] = [
    ['answered', () => {}, /^\[partner-sdk\] GET \/products → 200 \(\d+ ms\)$/],
    [
      'refused with 404',
      (mock) => mock.failNext({ status: 404 }),
      /^\[partner-sdk\] GET \/products → 404 \(\d+ ms\)$/,
    ],
    [
      'failed with 500 on its last retry',
      (mock) => mock.failNext({ status: 500, times: 2 }),
      /^\[partner-sdk\] GET \/products → 500 \(\d+ ms\)$/,
    ],
    [
      'dropped on every attempt',
      (mock) => mock.dropNext({ times: 2 }),
      /^\[partner-sdk\] GET \/products → APIConnectionError \(\d+ ms\)$/,
    ],
  ];
  it.each(outcomes)('a call %s writes one info line', async (_, arrange, line) => {
    const infos: string[] = [];
    const { mock, client } = kit({
      logLevel: 'info',
      maxRetries: 1,
      logger: { ...quiet, info: (message: string) => infos.push(message) },
    });
    arrange(mock);
    await client.products.list().catch(() => undefined);
    expect(infos).toHaveLength(1);
    expect(infos[0]).toMatch(line);
  });

  it('the client writes nothing at error level: its failures are thrown', async () => {
    const errors: string[] = [];
    const { mock, client } = kit({
      logLevel: 'debug',
      maxRetries: 0,
      logger: { ...quiet, error: (message: string) => errors.push(message) },
    });
    mock.failNext({ status: 500 });
    await expect(client.products.list()).rejects.toThrow();
    expect(errors).toEqual([]);
  });
});

describe('InternalServerError: "retried … unless its Retry-After asks for longer than 60 s … then it is thrown at once"', () => {
  it('throws a 503 asking for 61 s at once, one request sent, the wait in its headers', async () => {
    const { mock, client } = kit();
    mock.failNext({ status: 503, retryAfter: 61 });
    const error = await client.products.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).headers.get('retry-after')).toBe('61');
    expect(mock.requests.filter((request) => request.path === '/products')).toHaveLength(1);
  });
});
