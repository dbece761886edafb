/**
 * The harness of the resource tests: an msw server standing for `https://partner.test/api/v1`,
 * a client pointed at it, and a record of every request that reached the network layer, handled
 * or not. A request no handler answers fails the test (msw errors it, and `afterEach` checks the
 * record of unhandled ones too, so a test that expected a rejection cannot pass by accident).
 *
 * A test must also await (or abort) every call it starts: the methods send at once, so a call left
 * running would reach the network after the test, or after `server.close()`, and fail some later
 * test with an unhandled error (`getaddrinfo ENOTFOUND partner.test`). The clients of
 * {@link makeClient} therefore send through a guard: a request still unanswered when its test ends
 * fails that test, and a request sent after its test ended is refused locally, never sent.
 */

import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type ClientOptions, PartnerClient } from '../../src/index';

export const ORIGIN = 'https://partner.test';
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

type Fetch = NonNullable<ClientOptions['fetch']>;
/** Counts the tests that ended: a client's requests belong to the test that was running when it was made. */
let endedTests = 0;
/** Requests of the running test that have no answer yet. */
const inFlight = new Set<string>();
/** Requests refused because their test had already ended. */
const late: string[] = [];

/** `METHOD url` of a fetch call, for messages. */
function describeRequest(input: Parameters<Fetch>[0], init?: RequestInit): string {
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  return `${method} ${input instanceof Request ? input.url : String(input)}`;
}

/** The fetch of a client made by the test now running (see the module comment). */
function guardedFetch(send: Fetch | undefined): Fetch {
  const test = expect.getState().currentTestName ?? 'a test';
  const madeIn = endedTests;
  return async (input, init) => {
    const what = describeRequest(input, init);
    if (endedTests !== madeIn) {
      late.push(`${what} (from "${test}")`);
      throw new Error(`"${test}" sent ${what} after it ended: await or abort every call`);
    }
    const entry = `${what} #${inFlight.size}`;
    inFlight.add(entry);
    try {
      return await (send ?? globalThis.fetch)(input, init);
    } finally {
      inFlight.delete(entry);
    }
  };
}

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
    endedTests += 1;
    const running = [...inFlight];
    inFlight.clear();
    server.resetHandlers();
    const left = unhandled.splice(0);
    seen.splice(0);
    expect(left, 'requests no handler answered').toEqual([]);
    expect(running, 'requests still unanswered when the test ended').toEqual([]);
    expect(late.splice(0), 'requests sent after their test ended').toEqual([]);
  });
  afterAll(() => {
    server.close();
    expect(late.splice(0), 'requests sent after their test ended').toEqual([]);
  });
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
    fetch: guardedFetch(options.fetch),
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
