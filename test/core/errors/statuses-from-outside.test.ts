import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PartnerClient,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
} from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { type StubServer, stubsClosedAfterEach } from '../../helpers/stub-server';

// Each status as a partner meets it through a read (a call safe to repeat): the class that names
// it, a message with the method, the path, the status and its reason phrase, and how many
// attempts it cost under maxRetries 1.

const stub = stubsClosedAfterEach();
let server: StubServer | undefined;

async function answeredWith(status: number, body = '', headers: Record<string, string> = {}) {
  server = await stub((_request, res) => {
    res.writeHead(status, headers);
    res.end(body);
  });
  const client = new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'statuses-token',
    logLevel: 'off',
    maxRetries: 1,
  });
  const error = await client.products.retrieve('prd_1').then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error: error as APIError, attempts: server.requests.length };
}

describe('every status as a partner meets it', () => {
  it.each([
    [400, '400 Bad Request', 1, BadRequestError],
    [401, '401 Unauthorized', 1, AuthenticationError],
    [403, '403 Forbidden', 1, PermissionDeniedError],
    [404, '404 Not Found', 1, NotFoundError],
    [409, '409 Conflict', 1, ConflictError],
    [422, '422 Unprocessable Entity', 1, UnprocessableEntityError],
    [408, '408 Request Timeout', 2, APIError],
    [429, '429 Too Many Requests', 2, RateLimitError],
    [500, '500 Internal Server Error', 2, InternalServerError],
    [501, '501 Not Implemented', 1, InternalServerError],
    [502, '502 Bad Gateway', 2, InternalServerError],
    [503, '503 Service Unavailable', 2, InternalServerError],
    [504, '504 Gateway Timeout', 2, InternalServerError],
    [410, '410 Gone', 1, APIError],
    [418, "418 I'm a Teapot", 1, APIError],
  ])(
    '%i: "%s" after %i attempt(s), thrown as its class',
    async (status, statusLine, attempts, ErrorClass) => {
      const seen = await answeredWith(status, '{"message":"said by the service"}', {
        'content-type': 'application/json',
      });
      expect(seen.error).toBeInstanceOf(ErrorClass);
      expect(seen.error.status).toBe(status);
      expect(seen.error.message).toMatch(
        new RegExp(`^GET /products/prd_1 → ${statusLine}: said by the service`),
      );
      expect(seen.attempts).toBe(attempts);
    },
  );

  it.each([
    [301, '301 Moved Permanently'],
    [302, '302 Found'],
    [303, '303 See Other'],
    [307, '307 Temporary Redirect'],
    [308, '308 Permanent Redirect'],
  ])('%i without Location: a plain APIError saying "%s", sent once', async (status, statusLine) => {
    const seen = await answeredWith(status);
    expect(seen.error).toBeInstanceOf(APIError);
    expect(seen.error.message).toBe(
      `GET /products/prd_1 → ${statusLine}: redirect without a usable Location`,
    );
    expect(seen.attempts).toBe(1);
  });

  it('keeps an HTML page as text and says so in one line, not the page', async () => {
    const page = `<!DOCTYPE html><html><body>${'<p>Bad gateway</p>'.repeat(500)}</body></html>`;
    const seen = await answeredWith(502, page, { 'content-type': 'text/html' });
    expect(seen.error.message).toBe(
      'GET /products/prd_1 → 502 Bad Gateway: the service answered with an HTML page',
    );
    expect(seen.error.body).toBe(page);
  });

  it('keeps a body that is not JSON as text, and an empty one as undefined', async () => {
    const text = await answeredWith(400, 'plain words, no JSON', {
      'content-type': 'application/json',
    });
    expect(text.error.body).toBe('plain words, no JSON');
    expect(text.error.message).toBe('GET /products/prd_1 → 400 Bad Request: plain words, no JSON');
    await server?.close();
    const empty = await answeredWith(404);
    expect(empty.error.body).toBeUndefined();
    expect(empty.error.message).toBe('GET /products/prd_1 → 404 Not Found');
  });
});

describe('what a message quotes of the body', () => {
  it('quotes a huge JSON message up to 300 characters, the body kept whole', async () => {
    const said = 'x'.repeat(100_000);
    const seen = await answeredWith(400, JSON.stringify({ message: said }), {
      'content-type': 'application/json',
    });
    expect(seen.error.message).toBe(`GET /products/prd_1 → 400 Bad Request: ${'x'.repeat(300)}…`);
    expect(seen.error.body).toEqual({ message: said });
  });

  it('never leaves the start of a secret where the cut falls inside it', async () => {
    const said = `${'x'.repeat(290)} statuses-token refused`;
    const seen = await answeredWith(401, JSON.stringify({ message: said }), {
      'content-type': 'application/json',
    });
    expect(seen.error.message).not.toContain('statuses-');
    expect(seen.error.message).toContain('[REDACTED');
  });

  it('quotes the first line of a multi-line JSON message (a stack trace), on one line', async () => {
    const said = 'Call to a member function on null\n#0 /app/Http/Controller.php(42)\n#1 {main}';
    const seen = await answeredWith(500, JSON.stringify({ message: said }), {
      'content-type': 'application/json',
    });
    expect(seen.error.message).toBe(
      'GET /products/prd_1 → 500 Internal Server Error: Call to a member function on null',
    );
  });

  it('blanks control characters of a body that is bytes', async () => {
    const seen = await answeredWith(400, '\u0000\u0001PK\u0003\u0004 archive', {
      'content-type': 'application/octet-stream',
    });
    expect(seen.error.message).toBe('GET /products/prd_1 → 400 Bad Request: PK  archive');
  });
});

describe('an RFC 9457 problem (application/problem+json), as gateways answer', () => {
  const problem = 'application/problem+json';

  it('quotes its detail, the problem kept on body', async () => {
    const body = {
      type: 'https://gateway.example/problems/header-too-large',
      title: 'Request header too large',
      status: 400,
      detail: 'The X-Api-Client-Token header is longer than 8192 bytes.',
    };
    const seen = await answeredWith(400, JSON.stringify(body), { 'content-type': problem });
    expect(seen.error).toBeInstanceOf(BadRequestError);
    expect(seen.error.message).toBe(
      'GET /products/prd_1 → 400 Bad Request: The X-Api-Client-Token header is longer than 8192 bytes.',
    );
    expect(seen.error.body).toEqual(body);
  });

  it('quotes the title of a typed problem without a detail', async () => {
    const body = { type: 'https://gateway.example/problems/quota', title: 'Monthly quota spent' };
    const seen = await answeredWith(403, JSON.stringify(body), { 'content-type': problem });
    expect(seen.error.message).toMatch(
      /^GET \/products\/prd_1 → 403 Forbidden: Monthly quota spent /,
    );
  });

  it('leaves out the title of an untyped problem, the status phrase again', async () => {
    const body = { type: 'about:blank', title: 'Not Found', status: 404 };
    const seen = await answeredWith(404, JSON.stringify(body), { 'content-type': problem });
    expect(seen.error.message).toBe('GET /products/prd_1 → 404 Not Found');
  });
});

describe('a success that is not the documented shape', () => {
  async function retrieved(body: string, contentType = 'application/json') {
    server = await stub((_request, res) => {
      res.writeHead(200, { 'content-type': contentType });
      res.end(body);
    });
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'statuses-token',
      logLevel: 'off',
    });
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    return error as ResponseValidationError;
  }

  it('says an HTML page is one (a wrong baseUrl, a captive portal), the page kept on body', async () => {
    const page = '<!DOCTYPE html><html><body>Sign in to the Wi-Fi</body></html>';
    const error = await retrieved(page, 'text/html');
    expect(error.message).toBe(
      'GET /products/prd_1 → 200 OK: unexpected response shape: the service answered with an HTML page',
    );
    expect(error.body).toBe(page);
  });

  it('says an empty body is empty', async () => {
    const error = await retrieved('');
    expect(error.message).toBe(
      'GET /products/prd_1 → 200 OK: unexpected response shape: the body is empty',
    );
  });

  it('says a body of JSON null is null', async () => {
    const error = await retrieved('null');
    expect(error.message).toBe(
      'GET /products/prd_1 → 200 OK: unexpected response shape: the body is null',
    );
  });

  it('says a body cut short is not JSON, quoting its start', async () => {
    const error = await retrieved('{"hash":"prd_1","na');
    expect(error.message).toBe(
      'GET /products/prd_1 → 200 OK: unexpected response shape: not JSON: {"hash":"prd_1","na',
    );
  });

  it('names the fields of a JSON body of the wrong shape', async () => {
    const error = await retrieved('{"hash":"prd_1","name":42}');
    expect(error.message).toMatch(/^GET \/products\/prd_1 → 200 OK: unexpected response shape: /);
    expect(error.issues.length).toBeGreaterThan(0);
  });
});

describe('a failure without an answer', () => {
  it('says a TLS failure in one line (https to a plain-http port)', async () => {
    server = await stub((_request, res) => {
      res.writeHead(200);
      res.end('{}');
    });
    const client = new PartnerClient({
      baseUrl: server.baseUrl.replace('http:', 'https:'),
      clientToken: 'statuses-token',
      logLevel: 'off',
      maxRetries: 0,
    });
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/^GET \/products\/prd_1 → connection failed: \S/);
    expect((error as Error).message).not.toMatch(/\n/);
  });
});
