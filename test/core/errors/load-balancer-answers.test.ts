/**
 * What a load balancer or gateway in front of the service answers when the service is down or
 * slow (502, 503, 504 with an HTML page, nothing, plain text, or JSON of its own shape), and a
 * captive portal's 200 with an HTML page, and nginx's 413 to an upload it will not pass on: each
 * a typed error whose message has the call, the status and its reason phrase, with the raw body
 * kept up to `maxResponseBytes`, no secret in either, and a repeat only where DESIGN allows one
 * (reads; a refund only after reading that the lost attempt made none; never
 * `anticipations.confirm`, which the service may have acted on).
 */

import { createServer } from 'node:http';
import {
  APIError,
  InternalServerError,
  OutcomeUnknownError,
  PartnerClient,
  ResponseValidationError,
  toFile,
} from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../../helpers/http-servers';
import { type StubServer, stubsClosedAfterEach } from '../../helpers/stub-server';

const TOKEN = 'lb-test-client-token-1234';
const SELLER = 'lb-test-seller-token-5678';

const stub = stubsClosedAfterEach();
let server: StubServer | undefined;

/** A gateway page that, as some do for debugging, lists the request's headers. */
const echoPage = (status: number, headers: Record<string, unknown>) =>
  `<html><head><title>${status}</title></head><body><h1>${status} from the gateway</h1><pre>X-Api-Client-Token: ${String(headers['x-api-client-token'])}\nAuthorization: ${String(headers.authorization)}</pre></body></html>`;

type Body = (
  status: number,
  headers: Record<string, unknown>,
) => {
  type?: string;
  text: string;
};

const BODIES: Record<string, Body> = {
  'an HTML page': (status, headers) => ({ type: 'text/html', text: echoPage(status, headers) }),
  'no body': () => ({ text: '' }),
  'plain text': (_status, headers) => ({
    type: 'text/plain',
    text: `upstream connect error; token ${String(headers['x-api-client-token'])}`,
  }),
  'JSON of its own shape': (_status, headers) => ({
    type: 'application/json',
    text: JSON.stringify({
      error: { code: 'UPSTREAM_UNAVAILABLE', retryable: true },
      request: { authorization: headers.authorization },
    }),
  }),
};

/** What the message quotes of each body after the status line. */
const SAID: Record<string, string> = {
  'an HTML page': ': the service answered with an HTML page',
  'no body': '',
  'plain text': ': upstream connect error; token [REDACTED]',
  'JSON of its own shape': '',
};

const REASONS: Record<number, string> = {
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

async function gateway(status: number, body: Body, maxResponseBytes?: number) {
  server = await stub((request, res) => {
    const { type, text } = body(status, request.headers);
    res.writeHead(status, type ? { 'content-type': type } : {});
    res.end(text);
  });
  return new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: TOKEN,
    logLevel: 'off',
    maxRetries: 1,
    ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
  }).forUser(SELLER);
}

function expectNoSecret(error: unknown): void {
  const written = `${(error as Error).message} ${JSON.stringify(error)}`;
  expect(written).not.toContain(TOKEN);
  expect(written).not.toContain(SELLER);
}

describe('a gateway error in front of the service', () => {
  for (const status of [502, 503, 504]) {
    for (const [kind, body] of Object.entries(BODIES)) {
      it(`reads a ${status} with ${kind} as InternalServerError, retrying a read`, async () => {
        const seller = await gateway(status, body);
        const error = await seller.products.retrieve('prd_1').catch((e: unknown) => e);

        expect(error).toBeInstanceOf(InternalServerError);
        const failed = error as InternalServerError;
        expect(failed.status).toBe(status);
        expect(failed.message).toBe(
          `GET /products/prd_1 → ${status} ${REASONS[status]}${SAID[kind]}`,
        );
        const raw = body(status, server!.requests[0]!.headers).text;
        if (raw === '') expect(failed.body).toBeUndefined();
        else
          expect(JSON.stringify(failed.body)).toContain(
            kind === 'JSON of its own shape' ? 'UPSTREAM_UNAVAILABLE' : raw.slice(0, 20),
          );
        expectNoSecret(error);
        expect(server!.requests).toHaveLength(2);
      });
    }
  }

  it('keeps at most maxResponseBytes of a huge page, its start', async () => {
    const huge: Body = () => ({
      type: 'text/html',
      text: `<html>${'<p>down</p>'.repeat(100_000)}`,
    });
    const seller = await gateway(503, huge, 4096);
    const error = (await seller.products
      .retrieve('prd_1')
      .catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.body).toHaveLength(4096);
    expect(error.body).toMatch(/^<html><p>down<\/p>/);
  });

  it('never sends a refund twice: reads the refunds, and says the outcome is unknown when that fails too', async () => {
    const seller = await gateway(502, BODIES['an HTML page']!);
    const error = await seller.refunds.request('trx_1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).attemptError).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toMatch(
      /^POST \/financial\/refund\/trx_1 → .*502 Bad Gateway/,
    );
    expectNoSecret(error);
    const posts = server!.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(server!.requests.filter((r) => r.method === 'GET').length).toBeGreaterThan(0);
  });

  it('never repeats an anticipation confirmation the service may have acted on', async () => {
    const seller = await gateway(504, BODIES['plain text']!);
    const error = await seller.anticipations
      .confirm('ant_1', { scenario: 'above' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toBe(
      'POST /financial/anticipation/confirm/ant_1 → 504 Gateway Timeout: upstream connect error; token [REDACTED]',
    );
    expect(server!.requests).toHaveLength(1);
  });
});

describe("a captive portal's 200 with an HTML page", () => {
  const portal: Body = (_status, headers) => ({
    type: 'text/html; charset=utf-8',
    text: `<!DOCTYPE html><html><body><form action="/login">Sign in to the hotel Wi-Fi</form><!-- ${String(headers['x-api-client-token'])} --></body></html>`,
  });

  it('is a ResponseValidationError saying so, the page kept, never repeated', async () => {
    const seller = await gateway(200, portal);
    const error = await seller.products.retrieve('prd_1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ResponseValidationError);
    const refused = error as ResponseValidationError;
    expect(refused.status).toBe(200);
    expect(refused.message).toBe(
      'GET /products/prd_1 → 200 OK: unexpected response shape: the service answered with an HTML page',
    );
    expect(refused.body).toMatch(/^<!DOCTYPE html><html><body><form action="\/login">/);
    expectNoSecret(error);
    expect(server!.requests).toHaveLength(1);
  });

  it('is the same for a refund request, sent once', async () => {
    const seller = await gateway(200, portal);
    const error = await seller.refunds.request('trx_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/^POST \/financial\/refund\/trx_1 → 200 OK: /);
    expect(server!.requests).toHaveLength(1);
  });
});

describe("nginx's 413 on an upload past its client_max_body_size", () => {
  const { serve } = closedAfterEach();
  const page =
    '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

  it('is an APIError of 413 read before the upload ends, the page kept, never sent again', async () => {
    const heads: string[] = [];
    // As nginx does: the answer as soon as the head shows the length, the body left unread.
    const proxy = await serve(
      createServer((req, res) => {
        heads.push(`${req.method} ${req.url}`);
        res.writeHead(413, { 'content-type': 'text/html', connection: 'close' });
        res.end(page);
      }),
    );
    const seller = new PartnerClient({
      baseUrl: `${proxy.url}/api/v1`,
      clientToken: TOKEN,
      logLevel: 'off',
    }).forUser(SELLER);
    const avatar = await toFile(new Uint8Array(4 * 1024 * 1024), 'avatar.png', {
      type: 'image/png',
    });
    const address = {
      zip_code: '01310-100',
      city: 'São Paulo',
      state: 'SP',
      country: 'Brasil',
      street: 'Av. Paulista',
      street_number: 's/n',
      neighborhood: 'Bela Vista',
    };
    const profile = { name: 'Ana Souza', cpf: '123.456.789-09', birth: '1990-04-01', address };
    const error = await seller.users.update({ ...profile, avatar }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(InternalServerError);
    const refused = error as APIError;
    expect(refused.status).toBe(413);
    expect(refused.message).toBe(
      'POST /users/update → 413 Content Too Large: the service answered with an HTML page',
    );
    expect(refused.body).toBe(page);
    expect(heads).toEqual(['POST /api/v1/users/update']);
  });
});
