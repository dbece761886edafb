// Drives receiver-worker.ts inside workerd (run.mjs bundles it and starts miniflare): the Worker
// a partner writes, which verifies the service's webhook deliveries and, for each, calls the API
// (the testing kit on loopback) before it answers, all inside the one request.
import assert from 'node:assert/strict';
import { createMockPartnerApi, deliver, subscriptionEndedEvent } from 'partner-sdk/testing';

const TOKEN = 'workerd-receiver-token';

/** Runs every check against a Worker made by `workerd(bindings, options)`; throws on the first broken one. */
export async function driveReceiver(workerd) {
  const mock = createMockPartnerApi();
  const server = await mock.listen();
  // What the Worker writes (its console), to find the SDK's error lines and no secret in them.
  const output = { text: '' };
  const api = {
    PARTNER_API_BASE_URL: server.url,
    PARTNER_API_CLIENT_ID: mock.credentials.clientId,
    PARTNER_API_CLIENT_SECRET: mock.credentials.clientSecret,
  };
  const mf = workerd(
    { ...api, WEBHOOK_TOKEN: TOKEN },
    {
      kvNamespaces: ['ENDED'],
      handleRuntimeStdio: (...streams) => {
        for (const stream of streams) stream.on('data', (chunk) => (output.text += chunk));
      },
    },
  );
  try {
    await unsetSecret(workerd, api, mock);
    const base = await mf.ready;
    const ended = await mf.getKVNamespace('ENDED');
    const url = new URL(`/webhooks?token=${TOKEN}`, base).href;
    const check = { mock, ended, url, base, output };
    await refused(check);
    await firstDeliveries(check);
    await duplicates(check);
    await expiredToken(check);
    await apiFailures(check);
    await oversizedRefused(check);
    for (const secret of [mock.credentials.clientSecret, TOKEN]) {
      assert.ok(!output.text.includes(secret), 'no secret in what the Worker logged');
    }
  } finally {
    await mf.dispose();
    await server.close();
  }
}

/**
 * Without its WEBHOOK_TOKEN binding the Worker cannot make its receiver (`secretVerifier` throws):
 * made on the first request, every delivery is answered 500, none handled, so none is lost once
 * the binding is set; made at the top level, the Worker does not start at all.
 */
async function unsetSecret(workerd, api, mock) {
  let said = '';
  const mf = workerd(api, {
    kvNamespaces: ['ENDED'],
    handleRuntimeStdio: (...streams) => {
      for (const stream of streams) stream.on('data', (chunk) => (said += chunk));
    },
  });
  const base = await mf.ready.catch((err) => {
    if (err?.code !== 'ERR_RUNTIME_FAILURE') throw err;
  });
  if (base === undefined) {
    // A runtime that failed to start has nothing to dispose of (and says so again).
    await mf.dispose().catch(() => {});
    assert.match(said, /secret/i, 'the Worker says why it did not start');
    return;
  }
  try {
    const url = new URL('/webhooks?token=', base);
    assert.equal(await deliver(url, endedEvent(mock, 'sub_unset')), 500);
    assert.equal(mock.stats.requests, 0, 'no API call without a receiver');
  } finally {
    await mf.dispose();
  }
}

/** The product calls the kit received. */
const productCalls = (mock) => mock.requests.filter((r) => r.path.startsWith('/products/'));

/** An ended subscription of the kit's recurring product, under its own code. */
function endedEvent(mock, code) {
  return subscriptionEndedEvent({
    subscription_code: code,
    product_hash: mock.products.recurring.hash,
  });
}

/** How an oversized delivery is refused: 413, or a reset connection (`'reset'`). */
const REFUSED_BIG = [413, 'reset'];

/**
 * The status an oversized delivery got, or `'reset'` when its connection was reset while the body
 * was still being sent: the Worker answers 413 without reading the rest, and closing the
 * connection on a sender still writing resets it, which a sender sees as a refusal too.
 */
async function oversized(send) {
  try {
    return await send();
  } catch (error) {
    if (['ECONNRESET', 'EPIPE'].includes(error?.cause?.code)) return 'reset';
    throw error;
  }
}

/** Deliveries without the secret, not an event or not a POST are answered before the API is called. */
async function refused({ mock, base, url }) {
  const event = endedEvent(mock, 'sub_forged');
  assert.equal(await deliver(new URL('/webhooks?token=wrong', base), event), 401);
  assert.equal(await deliver(new URL('/webhooks', base), event), 401);
  assert.equal(await deliver(url, 'not json'), 400);
  const get = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  await get.arrayBuffer();
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST');
  assert.equal(mock.stats.requests, 0, 'no API call for a refused delivery');
}

/**
 * Deliveries over the default `maxBodyBytes`, whether their length is announced or not: refused
 * before the API is called. Sent last: the Worker answers 413 without reading the rest and its
 * connection closes, and a kept-alive connection it closed could otherwise reset a later delivery
 * of this client's, which is the test's noise, not the Worker's.
 */
async function oversizedRefused({ mock, url }) {
  mock.clearRequests();
  const event = endedEvent(mock, 'sub_oversized');
  const big = JSON.stringify({ ...event, padding: 'x'.repeat(1024 * 1024) });
  assert.ok(REFUSED_BIG.includes(await oversized(() => deliver(url, big))));
  const streamed = await oversized(async () => {
    const answer = await fetch(url, {
      method: 'POST',
      body: new Blob([big]).stream(),
      duplex: 'half',
      signal: AbortSignal.timeout(10_000),
    });
    await answer.arrayBuffer();
    return answer.status;
  });
  assert.ok(REFUSED_BIG.includes(streamed), 'a body without Content-Length');
  assert.equal(mock.requests.length, 0, 'no API call for an oversized delivery');
}

/**
 * The first two deliveries of a fresh isolate, at once: both handled, one login between them,
 * made with the credentials of the Worker's bindings, the product read with the token it got.
 */
async function firstDeliveries({ mock, ended, url }) {
  const statuses = await Promise.all(
    ['sub_first', 'sub_second'].map((code) => deliver(url, endedEvent(mock, code))),
  );
  assert.deepEqual(statuses, [200, 200]);
  assert.equal(mock.stats.logins, 1, 'one login for both deliveries');
  const [login] = mock.requests.filter((r) => r.path === '/auth');
  assert.deepEqual(login.body, {
    client_id: mock.credentials.clientId,
    client_secret: mock.credentials.clientSecret,
  });
  const calls = productCalls(mock);
  assert.equal(calls.length, 2);
  for (const call of calls) {
    assert.equal(call.path, `/products/${mock.products.recurring.hash}`);
    assert.match(call.headers['x-api-client-token'] ?? '', /\S/);
  }
  for (const code of ['sub_first', 'sub_second']) {
    const stored = JSON.parse((await ended.get(code)) ?? 'null');
    assert.equal(stored?.hash, mock.products.recurring.hash, code);
  }
}

/** A redelivery, one after the other or two at once, is acknowledged and handled once. */
async function duplicates({ mock, url }) {
  mock.clearRequests();
  const again = endedEvent(mock, 'sub_first');
  assert.equal(await deliver(url, again), 200);
  assert.equal(await deliver(url, again), 200);
  assert.equal(productCalls(mock).length, 1, 'a redelivery runs nothing');
  const twin = endedEvent(mock, 'sub_twin');
  assert.deepEqual(await Promise.all([deliver(url, twin), deliver(url, twin)]), [200, 200]);
  assert.equal(productCalls(mock).length, 2, 'two at once run the handler once');
}

/** A token the service stopped taking is renewed within the delivery, which is handled. */
async function expiredToken({ mock, ended, url }) {
  mock.clearRequests();
  mock.expireTokens();
  assert.equal(await deliver(url, endedEvent(mock, 'sub_renewed')), 200);
  assert.equal(mock.stats.logins, 1, 'logged in again');
  assert.ok(await ended.get('sub_renewed'));
}

/**
 * The API answering 500, 429, or a product of the wrong shape (checked where workerd refuses code
 * built from strings): the delivery is answered 500, so the platform delivers it again, and the
 * redelivery is handled once the API answers.
 */
async function apiFailures({ mock, ended, url, output }) {
  const path = `/products/${mock.products.recurring.hash}`;
  const faults = [
    { status: 500, times: 3 },
    { status: 429, retryAfter: 0, times: 3 },
    { status: 200, body: { status: 'success', data: { hash: 42, name: 'Assinatura' } } },
  ];
  for (const [index, fault] of faults.entries()) {
    const code = `sub_fault_${index}`;
    const event = endedEvent(mock, code);
    mock.clearRequests();
    mock.failNext({ ...fault, path });
    assert.equal(await deliver(url, event), 500, `answer with the API at ${fault.status}`);
    // Each attempt is a subrequest of the delivery: 1 + maxRetries (2 by default) for a retried
    // status, one for an answer of the wrong shape (never retried).
    assert.equal(productCalls(mock).length, fault.times ?? 1, 'attempts');
    assert.equal(await ended.get(code), null, 'nothing stored');
    assert.equal(await deliver(url, event), 200, `redelivery after ${fault.status}`);
    assert.ok(await ended.get(code), 'stored by the redelivery');
  }
  // The refused answer reached the receiver's onError (its default logs it) typed, with the body
  // as it came.
  await until(() => /ResponseValidationError[\s\S]*hash: 42/.test(output.text), output);
}

/** Resolves once `condition()` holds; throws, with what the Worker wrote, past its bound. */
async function until(condition, output) {
  for (const stop = Date.now() + 5_000; !condition(); ) {
    if (Date.now() > stop) throw new Error(`not logged; the Worker wrote:\n${output.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
