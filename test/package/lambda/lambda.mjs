// Bundles a Lambda handler from the installed tarball as a partner's deploy step does (esbuild
// `--bundle --platform=node`, the format given), then runs the bundle against the testing kit on
// loopback: `node lambda.mjs <lambda-handler.ts|lambda-handler.cjs> <cjs|esm>`, inside the fresh project of
// scripts/test-runtimes.mjs. The bundle must build without a warning, hold no optional peer
// (`redis`, `ioredis`, `bullmq`, `msw`, `@opentelemetry/api`) nor another entry point's code
// (`/testing`) the handler does not import, and answer a product list and a webhook delivery whose
// handler calls the API, all on one login.
//
// ESBUILD names where esbuild is installed (the repo's).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMockPartnerApi, subscriptionEndedEvent } from 'partner-sdk/testing';

const load = (dir) => import(pathToFileURL(createRequire(join(dir, 'noop.js')).resolve(dir)).href);
const esbuild = await load(process.env.ESBUILD);

const [handlerFile, format] = process.argv.slice(2);
const outfile = resolve('lambda-out', `${handlerFile}.${format === 'esm' ? 'mjs' : 'cjs'}`);
const result = await esbuild.build({
  entryPoints: [handlerFile],
  bundle: true,
  platform: 'node',
  target: 'node22',
  format,
  outfile,
  metafile: true,
  logLevel: 'silent',
});
assert.deepEqual(
  result.warnings.map((warning) => warning.text),
  [],
  'esbuild warns about the bundle',
);

const OPTIONAL_PEERS = ['redis', 'ioredis', 'bullmq', 'msw', '@opentelemetry/api'];
const inputs = Object.keys(result.metafile.inputs);
const stray = inputs.filter(
  (input) =>
    OPTIONAL_PEERS.some((peer) => input.includes(`node_modules/${peer}/`)) ||
    input.includes('node_modules/partner-sdk/dist/testing'),
);
assert.ok(
  inputs.some((input) => input.includes('node_modules/partner-sdk/dist/')),
  'the bundle holds the package',
);
assert.deepEqual(stray, [], 'the bundle holds what the handler does not use');

const mock = createMockPartnerApi();
const server = await mock.listen();
try {
  // The Lambda's configuration, read by `new PartnerClient()` when the bundle loads.
  process.env.PARTNER_API_BASE_URL = server.url;
  process.env.PARTNER_API_CLIENT_ID = mock.credentials.clientId;
  process.env.PARTNER_API_CLIENT_SECRET = mock.credentials.clientSecret;
  const { handler } = await import(pathToFileURL(outfile).href);

  const products = await handler({ rawPath: '/products', body: '' });
  assert.equal(products.statusCode, 200, products.body);
  assert.deepEqual(JSON.parse(products.body), [...mock.products.hashes].slice(0, 2));

  const before = mock.requests.length;
  const body = JSON.stringify(subscriptionEndedEvent());
  const delivery = await handler({ rawPath: '/webhooks', body });
  assert.equal(delivery.statusCode, 200, delivery.body);
  assert.ok(mock.requests.length > before, "the delivery's handler called the API");
  assert.equal(mock.stats.logins, 1, 'one login for the warm Lambda');
} finally {
  await server.close();
}
console.log(`lambda ${handlerFile} ${format} ok`);
