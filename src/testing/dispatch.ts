/**
 * The request pipeline shared by the three faces: take the rate limit's token as the request
 * arrives, read and log the request, apply the latency, injected faults, the origin rule, the
 * rate limit's verdict, routing, the client-token and bearer checks, then the route.
 * A dropped connection comes back as {@link DROP}; each face turns it into its own kind of drop.
 *
 * @module
 */

import { sleep } from '../core/time/sleep';
import { type Parsed, readBody } from './body';
import { type FaultQueue, NO_BODY_STATUSES } from './faults';
import { delayOf } from './pace';
import { errorMessage, json } from './respond';
import { API_PREFIX, findRoute, type Route, routeKey } from './router';
import { downloadRoutes } from './routes';
import type { MockState } from './state';

/**
 * Marks a request whose connection the mock drops. Registered (`Symbol.for`), so a face from
 * another copy of the kit (the CJS build of `/testing/msw`) still recognises it.
 */
export const DROP: unique symbol = Symbol.for('partner-sdk.mock.drop');

/** A drop that lets the request reach its route first: the service acts, its answer is lost. */
const LOSE_ANSWER: unique symbol = Symbol('partner-sdk.mock.lose-answer');

/** Where a request came from, as far as the face can tell. */
export interface RequestSource {
  /** The caller's address, named by the origin rule's 403. */
  remoteAddress: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request.',
  401: 'Unauthenticated.',
  403: 'Forbidden.',
  404: 'Not Found.',
  408: 'Request Timeout.',
  409: 'Conflict.',
  422: 'The given data was invalid.',
  429: 'Too Many Attempts.',
  // Laravel's own words for a 500 without APP_DEBUG: no full stop, unlike its other messages.
  500: 'Server Error',
  502: 'Bad Gateway.',
  503: 'Service Unavailable.',
  504: 'Gateway Timeout.',
};

function bearerOf(request: Request): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '');
  return match?.[1]?.trim();
}

/** Handles one request with the mock's state; never throws except for an aborted delay. */
export async function dispatch(
  state: MockState,
  faults: FaultQueue,
  request: Request,
  source: RequestSource,
): Promise<Response | typeof DROP> {
  const answer = await answerOf(state, faults, request, source);
  if (answer === DROP) return answer;
  // Every answer, injected ones included, as any HTTP server with a clock (RFC 9110 §6.6.1):
  // the service's time, the kit's clock.
  answer.headers.set('date', new Date(state.clock.now()).toUTCString());
  return request.method.toUpperCase() === 'HEAD' ? withoutBody(answer) : answer;
}

/** The pipeline itself: the answer to one request, before its `Date` and HEAD's trimming. */
async function answerOf(
  state: MockState,
  faults: FaultQueue,
  request: Request,
  source: RequestSource,
): Promise<Response | typeof DROP> {
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const at = url.pathname.indexOf(API_PREFIX);
  const inApi = at >= 0;
  // Laravel's router ignores a trailing slash (`/products/` is `/products`).
  const fullPath = inApi ? url.pathname.slice(at + API_PREFIX.length) || '/' : url.pathname;
  const path = fullPath.replace(/(.)\/+$/, '$1');
  const apiBase = `${url.origin}${inApi ? url.pathname.slice(0, at + API_PREFIX.length) : API_PREFIX}`;
  // The limiter stands at the service's door: it takes the request's token as the request
  // arrives, in arrival order. Taken after the latency, the delay timer's own jitter would
  // bunch requests that arrived a whole interval apart, which no client could pace against.
  const admission = inApi ? admit(state) : { headers: {} };

  const parsed = await readBody(request);
  state.requests.push({
    method,
    path,
    url: request.url,
    headers: Object.fromEntries(request.headers),
    body: parsed.logBody,
  });

  const delay = delayOf(state.latency);
  if (delay > 0) await sleep(delay, request.signal);

  const injected = await injectedFault(faults, method, path, request.signal);
  if (injected !== undefined && injected !== LOSE_ANSWER) return injected;
  const answer = await served(state, request, parsed, source, admission, {
    inApi,
    downloads: !inApi && path.startsWith('/downloads/'),
    method,
    path,
    url,
    apiBase,
  });
  // The service acted on the request; the connection broke before its answer came back.
  return injected === LOSE_ANSWER ? DROP : answer;
}

/** The service past the faults: the origin rule, the body limit, the rate limit, the route. */
async function served(
  state: MockState,
  request: Request,
  parsed: Parsed,
  source: RequestSource,
  admission: ReturnType<typeof admit>,
  target: Target,
): Promise<Response> {
  if (!target.downloads && !state.originAllowed) {
    return errorMessage(
      403,
      `Access denied: origin ${source.remoteAddress} is not registered for this client.`,
    );
  }
  // Laravel's ValidatePostSize, a global middleware: before routing, credentials and throttle.
  if (parsed.tooLarge) return errorMessage(413, 'The POST data is too large.');

  if (admission.refused) return admission.refused;
  const answer = await route(state, request, parsed, target);
  for (const [name, value] of Object.entries(admission.headers)) answer.headers.set(name, value);
  return answer;
}

/** A HEAD answer: the GET answer's status and headers, no body (RFC 9110 §9.3.2). */
function withoutBody(answer: Response): Response {
  return new Response(null, { status: answer.status, headers: answer.headers });
}

/** Laravel's `$request->path()`: the path without its outer slashes, `/` for the root. */
function laravelPath(url: URL): string {
  return url.pathname.replace(/^\/+|\/+$/g, '') || '/';
}

/**
 * The router's answer when no route takes the request: Laravel's 404, its 405 naming the
 * methods the path answers (in `Allow` too), or, to `OPTIONS`, a bodiless 200 with `Allow`.
 */
function unrouted(found: 404 | { allow: string[] }, method: string, url: URL): Response {
  if (found === 404) return errorMessage(404, `The route ${laravelPath(url)} could not be found.`);
  if (method === 'OPTIONS') {
    return new Response(null, { status: 200, headers: { allow: found.allow.join(',') } });
  }
  const allow = found.allow.join(', ');
  const message = `The ${method} method is not supported for route ${laravelPath(url)}. Supported methods: ${allow}.`;
  return json({ message }, 405, { allow });
}

/**
 * The fault `failNext` or `dropNext` queued for this request, if any: a dropped connection, or an
 * injected answer after its delay; `undefined` when the request goes on to its route.
 */
async function injectedFault(
  faults: FaultQueue,
  method: string,
  path: string,
  signal: AbortSignal,
): Promise<Response | typeof DROP | typeof LOSE_ANSWER | undefined> {
  const fault = faults.take(method, path);
  if (fault?.kind === 'drop') return fault.afterHandling ? LOSE_ANSWER : DROP;
  if (fault?.kind !== 'fail') return undefined;
  if (fault.delayMs) await sleep(fault.delayMs, signal);
  if (fault.status === undefined) return undefined;
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  if (NO_BODY_STATUSES.has(fault.status))
    return new Response(null, { status: fault.status, headers });
  const body = fault.body ?? { message: STATUS_TEXT[fault.status] ?? 'Injected failure.' };
  return json(body, fault.status, headers);
}

/** The rate limit's verdict on an API request: its pace headers, or the 429 that refuses it. */
function admit(state: MockState): { headers: Record<string, string>; refused?: Response } {
  if (!state.rateLimiter) return { headers: {} };
  const admission = state.rateLimiter.admit();
  if (admission.allowed) return { headers: admission.headers };
  state.rateLimited += 1;
  return { headers: {}, refused: json({ message: STATUS_TEXT[429] }, 429, admission.headers) };
}

interface Target {
  inApi: boolean;
  downloads: boolean;
  method: string;
  path: string;
  url: URL;
  apiBase: string;
}

/** Routing, the client-token and bearer checks, then the route's handler. */
async function route(
  state: MockState,
  request: Request,
  parsed: Parsed,
  { inApi, downloads, method, path, url, apiBase }: Target,
): Promise<Response> {
  const routes: readonly Route[] = inApi ? state.routes : downloads ? downloadRoutes : [];
  const found = findRoute(routes, method, path);
  if (found === 404 || 'allow' in found) return unrouted(found, method, url);

  const { route: matched, params } = found;
  const token = request.headers.get('x-api-client-token');
  if (matched.auth !== 'none' && (!token || !state.clientTokens.has(token))) {
    return errorMessage(401, 'Unauthenticated.');
  }
  const bearer = bearerOf(request);
  const seller = bearer ? state.sellers.find((s) => s.publicToken === bearer) : undefined;
  // As Laravel's `auth` middleware: a missing or unknown bearer is the same 401.
  const needsBearer = matched.auth === 'user' && !state.publicRoutes.has(routeKey(matched));
  if (matched.auth !== 'none' && bearer && !seller) return errorMessage(401, 'Unauthenticated.');
  if (needsBearer && !seller) return errorMessage(401, 'Unauthenticated.');
  // Read after the credentials: the auth middleware answers before a controller reads a body.
  if (parsed.malformed) return errorMessage(400, 'The request body could not be parsed.');

  try {
    return await matched.handle({
      state,
      request,
      url,
      params,
      body: parsed.body,
      form: parsed.form,
      apiBase,
      seller,
      accountCode: seller?.code ?? state.sellers[0]!.code,
    });
  } catch {
    // A production service never sends the exception (APP_DEBUG off): a partner's test must not
    // come to read one.
    return json({ message: STATUS_TEXT[500] }, 500);
  }
}
