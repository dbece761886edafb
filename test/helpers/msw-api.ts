/**
 * The harness of the resource tests: an msw server standing for `http://partner.test/api/v1`,
 * a client pointed at it, and a record of every request that reached the network layer, handled
 * or not. A request no handler answers fails the test (msw errors it, and `afterEach` checks the
 * record of unhandled ones too, so a test that expected a rejection cannot pass by accident).
 */

import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type ClientOptions, PartnerClient } from '../../src/index';

export const ORIGIN = 'http://partner.test';
export const BASE_URL = `${ORIGIN}/api/v1`;
export const CLIENT_TOKEN = 'test-client-token';
export const PUBLIC_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZWxsZXIifQ.c2VsbGVyLXNpZw';

/** A request as it reached the network: `path` is the raw (still percent-encoded) path under `/api/v1`. */
export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Headers;
  /** The body as JSON. */
  json(): Promise<unknown>;
  /** The body as text (`''` when there is none). */
  text(): Promise<string>;
  /** The body read by undici's own multipart parser. */
  formData(): Promise<FormData>;
}

export const server = setupServer();
const seen: SeenRequest[] = [];
const unhandled: string[] = [];

server.events.on('request:start', ({ request }) => {
  const url = new URL(request.url);
  // Read the body at once: a stream left unread until after the response may be closed by then.
  const bytes = request.clone().arrayBuffer();
  bytes.catch(() => undefined); // a test that never reads the body must not see a rejection
  // (A copy made for reading only: POST, since a GET may not carry even an empty body.)
  const copy = async () =>
    new Request(request.url, { method: 'POST', headers: request.headers, body: await bytes });
  seen.push({
    method: request.method,
    path: url.pathname.replace(/^\/api\/v1/, ''),
    query: Object.fromEntries(url.searchParams),
    headers: request.headers,
    json: async () => (await copy()).json(),
    text: async () => (await copy()).text(),
    formData: async () => (await copy()).formData(),
  });
});
server.events.on('request:unhandled', ({ request }) => {
  unhandled.push(`${request.method} ${request.url}`);
});

/** Starts the msw server for the calling test file; unhandled requests fail the test. */
export function useMockApi(): void {
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    const left = unhandled.splice(0);
    seen.splice(0);
    expect(left, 'requests no handler answered').toEqual([]);
  });
  afterAll(() => server.close());
}

/** Every request the network saw in this test, in order. */
export function requests(): readonly SeenRequest[] {
  return seen;
}

/** The only request of this test (fails when there were none or several). */
export function onlyRequest(): SeenRequest {
  expect(seen).toHaveLength(1);
  return seen[0] as SeenRequest;
}

/** A client of the mock API with the client token, retries fast (no real back-off in tests). */
export function makeClient(options: Partial<ClientOptions> = {}): PartnerClient {
  return new PartnerClient({
    baseUrl: BASE_URL,
    clientToken: CLIENT_TOKEN,
    logLevel: 'off',
    ...options,
  });
}

type Method = 'get' | 'post' | 'put';

/**
 * A resolver that reads the whole request body before answering, as a server does: msw would
 * otherwise close a streamed (multipart) body early and the recorded copy could not be read.
 */
function afterBody(answer: () => Response): (args: { request: Request }) => Promise<Response> {
  return async ({ request }) => {
    await request.arrayBuffer();
    return answer();
  };
}

/**
 * Answers `method path` (a path under `/api/v1`; msw path syntax, e.g. `/products/:hash`) with
 * `body` and `status` (default 200), for every matching request of the test.
 */
export function reply(
  method: Method,
  path: string,
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): void {
  server.use(
    http[method](
      `${BASE_URL}${path}`,
      afterBody(() =>
        HttpResponse.json(body as Parameters<typeof HttpResponse.json>[0], {
          status: init.status ?? 200,
          headers: init.headers,
        }),
      ),
    ),
  );
}

/** Answers any request under `/api/v1` with `body`: for tests about the exact path sent. */
export function replyToAnything(body: unknown, status = 200): void {
  server.use(
    http.all(
      `${BASE_URL}/*`,
      afterBody(() =>
        HttpResponse.json(body as Parameters<typeof HttpResponse.json>[0], { status }),
      ),
    ),
  );
}

/** Answers each matching request with the next of `responses` (the last one repeats). */
export function replySequence(method: Method, path: string, ...responses: Response[]): void {
  let index = 0;
  server.use(
    http[method](
      `${BASE_URL}${path}`,
      afterBody(() => {
        const response = responses[Math.min(index, responses.length - 1)] as Response;
        index += 1;
        return response.clone();
      }),
    ),
  );
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejectionOf(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}
