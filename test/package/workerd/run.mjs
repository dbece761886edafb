// Runs the SDK inside workerd, the runtime of Cloudflare Workers, from the installed tarball:
// `node run.mjs <client|webhook|bulk|receiver|receiver-global>-worker.<mjs|ts> [--split]
// [--node-compat]`, inside the fresh project of scripts/test-runtimes.mjs. The Worker is bundled
// with esbuild as wrangler bundles one (the `workerd`/`worker`/`browser` export conditions, no
// Node built-ins, no `nodejs_compat`, one file; `--split`: in chunks, as a bundler with code
// splitting), then run by miniflare, which drives workerd locally with no account and no network.
// The testing kit runs here, in Node, on loopback; the Worker reaches it over a real socket.
//
// MINIFLARE and ESBUILD name where those packages are installed (the runtime cache and the repo).
import assert from 'node:assert/strict';
import { builtinModules, createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMockPartnerApi, deliver, subscriptionEndedEvent } from 'partner-sdk/testing';
import { driveReceiver } from './receiver.mjs';

const load = (dir) => import(pathToFileURL(createRequire(join(dir, 'noop.js')).resolve(dir)).href);
const { Miniflare } = await load(process.env.MINIFLARE);
const esbuild = await load(process.env.ESBUILD);

const [worker, ...flags] = process.argv.slice(2);
// `--split`: bundled as a partner's bundler with code splitting would, the SDK's on-demand chunks
// (zod's compiler) in files of their own, loaded by workerd as modules of the Worker.
const split = flags.includes('--split');
// The bulk Worker asks for Node's APIs (`nodejs_compat`), as a partner's would for it; the
// bundler then leaves the built-ins to workerd, as wrangler does with that flag. `--node-compat`
// sets it for another Worker, as many Workers set it for other libraries: `process` is then
// defined, its `env` holding the bindings.
const nodeCompat = worker.startsWith('bulk') || flags.includes('--node-compat');
const bundle = await esbuild.build({
  entryPoints: [worker],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  // `cloudflare:*` are workerd's own modules, which wrangler leaves to it too.
  external: ['cloudflare:*', ...(nodeCompat ? ['node:*', ...builtinModules] : [])],
  write: false,
  logLevel: 'silent',
  ...(split && { splitting: true, outdir: 'split', chunkNames: 'chunk-[hash]' }),
});
const entryName = worker.replace(/\.[mc]?[jt]s$/, '.js');
const entry = bundle.outputFiles.find((file) => !split || file.path.endsWith(`/${entryName}`));
const chunks = bundle.outputFiles.filter((file) => file !== entry);
if (split) assert.ok(chunks.length > 0, 'split into chunks');
const modules = split
  ? {
      modules: [entry, ...chunks].map((file) => ({
        type: 'ESModule',
        path: file.path,
        contents: file.text,
      })),
      modulesRoot: join(process.cwd(), 'split'),
    }
  : { modules: true, script: entry.text };

/** A Miniflare instance running the bundle with `bindings` (and `more` options), on a loopback port. */
function workerd(bindings = {}, more = {}) {
  return new Miniflare({
    ...modules,
    ...more,
    compatibilityDate: '2026-01-01',
    compatibilityFlags: nodeCompat ? ['nodejs_compat'] : [],
    bindings,
    host: '127.0.0.1',
  });
}

if (worker.startsWith('receiver')) {
  await driveReceiver(workerd);
} else if (worker.startsWith('client')) {
  const mock = createMockPartnerApi();
  const server = await mock.listen();
  const mf = workerd({
    BASE_URL: server.url,
    CLIENT_ID: mock.credentials.clientId,
    CLIENT_SECRET: mock.credentials.clientSecret,
    CLIENT_TOKEN: mock.credentials.clientToken,
    SELLER_TOKEN: mock.sellers.person.publicToken,
    TRANSACTION_HASH: mock.transactions.refundable[0],
  });
  try {
    // First, in the fresh isolate: the spoiled answers of a client made in that request, the
    // first call made at once (before zod's compiler, which the client starts loading, is in).
    const response = await mf.dispatchFetch('http://worker.test/bad', {
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    const { evalRefused, first, later } = JSON.parse(text);
    assert.equal(evalRefused, true, 'workerd refuses code built from strings');
    for (const bad of [first, later]) {
      assert.equal(bad.error, 'ResponseValidationError', text);
      assert.equal(bad.status, 200, text);
      assert.equal(bad.hash, 42, 'the body as received');
      assert.ok(
        bad.issues.some((issue) => issue.path.includes('hash')),
        text,
      );
    }
    assert.deepEqual(first, later, 'the same verdict before and after the compiler is in');
    mock.clearRequests();
    // Two requests to one isolate: the second reuses the client and its token.
    for (const expected of ['accepted', 'existing']) {
      const response = await mf.dispatchFetch('http://worker.test/', {
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      assert.equal(response.status, 200, text);
      const body = JSON.parse(text);
      assert.deepEqual(body.products, [...mock.products.hashes].slice(0, 2));
      assert.equal(body.refund, expected);
    }
    assert.equal(mock.stats.logins, 1, 'one login for both requests');
    const stall = await mf.dispatchFetch('http://worker.test/stall', {
      signal: AbortSignal.timeout(30_000),
    });
    const ended = await stall.text();
    assert.equal(stall.status, 200, ended);
    const { timedOut, aborted } = JSON.parse(ended);
    assert.ok(timedOut && aborted, ended);
  } finally {
    await mf.dispose();
    await server.close();
  }
} else if (nodeCompat) {
  const mf = workerd();
  try {
    const response = await mf.dispatchFetch('http://worker.test/', {
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    const summary = JSON.parse(text);
    assert.equal(summary.succeeded, 3, text);
    assert.equal(summary.total, 3, text);
  } finally {
    await mf.dispose();
  }
} else {
  const mf = workerd({ WEBHOOK_TOKEN: 'workerd-webhook-token' });
  try {
    const base = await mf.ready;
    const event = subscriptionEndedEvent();
    const url = new URL('/webhooks?token=workerd-webhook-token', base).href;
    assert.equal(await deliver(url, event), 200);
    // The same delivery again is a duplicate: acknowledged, not handled twice.
    assert.equal(await deliver(url, event), 200);
    assert.equal(await deliver(new URL('/webhooks?token=wrong', base).href, event), 401);
    const received = await (await fetch(new URL('/received', base))).json();
    assert.deepEqual(received, [event.payload.subscription_code]);
  } finally {
    await mf.dispose();
  }
}
console.log(`workerd ${worker} ${flags.join(' ')} ok`);
