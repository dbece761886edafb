// A Cloudflare Worker using the SDK as a partner would: one client for the isolate, built from the
// Worker's bindings on the first request and reused by later ones. Each request logs in if it must,
// lists products, and requests a refund through the seller's client; `/bad` lists products through a
// `fetch` that spoils the answer; `/stall` through one that never answers, cut by a timeout and by
// the caller's signal. Bundled by run.mjs from the installed tarball (as wrangler bundles
// a Worker) and run inside workerd.
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  PartnerClient,
  ResponseValidationError,
} from 'partner-sdk';

let client;

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === '/bad') return badAnswer(env);
    if (pathname === '/stall') return stalled(env);
    client ??= new PartnerClient({
      baseUrl: env.BASE_URL,
      clientId: env.CLIENT_ID,
      clientSecret: env.CLIENT_SECRET,
      logLevel: 'off',
    });
    const page = await client.products.list({ per_page: 2 });
    const refund = await client
      .forUser(env.SELLER_TOKEN)
      .refunds.request(env.TRANSACTION_HASH, { reason: 'workerd' });
    return Response.json({ products: page.data.map((p) => p.hash), refund: refund.kind });
  },
};

// A product list whose first product's hash is a number: validation runs here, where workerd refuses
// code built from strings, so it must fall back to zod's interpreted parser and still throw the
// typed error with the body as received. `evalRefused` shows that refusal is in force. run.mjs asks
// for it first in a fresh isolate, and the client (given a token, so no login comes first) calls
// as soon as it is made, before zod's compiler it starts loading is in: `first` and `later` (a call
// once it is) must be the same verdict.
async function badAnswer(env) {
  const spoiled = async (input, init) => {
    const response = await fetch(input, init);
    if (!new URL(input instanceof Request ? input.url : input).pathname.endsWith('/products')) {
      return response;
    }
    const body = await response.json();
    body.data[0].hash = 42;
    return Response.json(body, { status: response.status, headers: response.headers });
  };
  const bad = new PartnerClient({
    baseUrl: env.BASE_URL,
    clientToken: env.CLIENT_TOKEN,
    logLevel: 'off',
    fetch: spoiled,
  });
  const first = await verdict(bad.products.list({ per_page: 2 }));
  let evalRefused = false;
  try {
    new Function('return 1')();
  } catch {
    evalRefused = true;
  }
  const later = await verdict(bad.products.list({ per_page: 2 }));
  return Response.json({ evalRefused, first, later });
}

/** What a call refused as ResponseValidationError carries, or `{ error: null }` if it passed. */
async function verdict(call) {
  try {
    await call;
    return { error: null };
  } catch (err) {
    if (!(err instanceof ResponseValidationError)) throw err;
    const { status, issues, body } = err;
    return { error: err.name, status, issues, hash: body.data[0].hash };
  }
}

// The product list never answers (the login does): workerd's timers and AbortSignal must end the
// call, as a timeout, then as the caller's abort.
async function stalled(env) {
  const stalling = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (!url.pathname.endsWith('/products')) return fetch(input, init);
    // The signal comes on the Request (ky's way) or in `init`; a real fetch honours either.
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    return new Promise((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  const stuck = new PartnerClient({
    baseUrl: env.BASE_URL,
    clientId: env.CLIENT_ID,
    clientSecret: env.CLIENT_SECRET,
    logLevel: 'off',
    fetch: stalling,
    maxRetries: 0,
  });
  const outcome = (call) =>
    call.then(
      () => 'answered',
      (err) => err,
    );
  const timedOut = await outcome(stuck.products.list({}, { timeout: 100 }));
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  const aborted = await outcome(stuck.products.list({}, { signal: controller.signal }));
  return Response.json({
    timedOut: timedOut instanceof APIConnectionTimeoutError,
    aborted: aborted instanceof APIUserAbortError,
    outcomes: [String(timedOut), String(aborted)],
  });
}
