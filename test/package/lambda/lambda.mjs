// Bundles a Lambda handler from the installed tarball as a partner's deploy step does, then runs the
// bundle against the testing kit on loopback: `node lambda.mjs <handler> <esbuild|webpack> <cjs|esm>`
// (esbuild `--bundle --platform=node --format=<format>`; webpack `target: 'node'`, CommonJS), inside
// the fresh project of scripts/test-runtimes.mjs. The bundle must build without a warning, hold no
// optional peer (`redis`, `ioredis`, `bullmq`, `msw`, `@opentelemetry/api`) nor another entry
// point's code (`/testing`) the handler does not import, take the package's ES modules and zod's
// (from `require` too: the `module` export condition), and answer a product list and a webhook
// delivery whose handler calls the API, all on one login.
//
// ESBUILD names where esbuild is installed (the repo's); webpack is the project's own.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMockPartnerApi, subscriptionEndedEvent } from 'partner-sdk/testing';

const OPTIONAL_PEERS = ['redis', 'ioredis', 'bullmq', 'msw', '@opentelemetry/api'];

const [handlerFile, bundler, format] = process.argv.slice(2);
const outdir = resolve('lambda-out', `${handlerFile}-${bundler}-${format}`);
const { file, inputs, warnings } = await (bundler === 'webpack' ? webpackBundle : esbuildBundle)();
assert.deepEqual(warnings, [], `${bundler} warns about the bundle`);
assert.ok(
  inputs.some((input) => input.includes('node_modules/partner-sdk/dist/')),
  'the bundle holds the package',
);
const stray = inputs.filter(
  (input) =>
    OPTIONAL_PEERS.some((peer) => input.includes(`node_modules/${peer}/`)) ||
    input.includes('node_modules/partner-sdk/dist/testing'),
);
assert.deepEqual(stray, [], 'the bundle holds what the handler does not use');
// The package's ES modules and zod's, which a bundler trims to what the handler uses, whether it
// imports the package or requires it: from CommonJS files it keeps the whole of each (all of zod's
// locales among them).
const commonjs = inputs.filter((input) => /node_modules\/(partner-sdk|zod)\/.*\.cjs$/.test(input));
assert.deepEqual(commonjs, [], 'the bundle holds CommonJS files a bundler cannot trim');
await answersAgainstTheKit(file);
console.log(`lambda ${handlerFile} ${bundler} ${format} ok`);

/** esbuild's bundle: its file, the files it read, its warnings. */
async function esbuildBundle() {
  const load = (dir) =>
    import(pathToFileURL(createRequire(join(dir, 'noop.js')).resolve(dir)).href);
  const esbuild = await load(process.env.ESBUILD);
  const file = join(outdir, format === 'esm' ? 'index.mjs' : 'index.cjs');
  const result = await esbuild.build({
    entryPoints: [handlerFile],
    bundle: true,
    platform: 'node',
    target: 'node22',
    format,
    outfile: file,
    metafile: true,
    logLevel: 'silent',
  });
  const warnings = result.warnings.map((warning) => warning.text);
  return { file, inputs: Object.keys(result.metafile.inputs), warnings };
}

/** webpack's bundle (production mode, as deployed): its entry file, the files it read, its warnings. */
async function webpackBundle() {
  const { default: webpack } = await import('webpack');
  const stats = await new Promise((done, fail) =>
    webpack(
      {
        mode: 'production',
        target: 'node',
        entry: resolve(handlerFile),
        output: { path: outdir, filename: 'index.cjs', library: { type: 'commonjs2' } },
      },
      (err, result) => (err ? fail(err) : done(result)),
    ),
  );
  const json = stats.toJson({ modules: true, warnings: true, errors: true });
  assert.deepEqual(json.errors, [], 'webpack fails');
  const inputs = json.modules.flatMap((module) => [
    module.name,
    ...(module.modules ?? []).map((inner) => inner.name),
  ]);
  return { file: join(outdir, 'index.cjs'), inputs, warnings: json.warnings.map((w) => w.message) };
}

/** Runs the bundled handler as Lambda would, configured from the environment, against the kit. */
async function answersAgainstTheKit(file) {
  const mock = createMockPartnerApi();
  const server = await mock.listen();
  try {
    process.env.PARTNER_API_BASE_URL = server.url;
    process.env.PARTNER_API_CLIENT_ID = mock.credentials.clientId;
    process.env.PARTNER_API_CLIENT_SECRET = mock.credentials.clientSecret;
    // As Lambda loads a handler: `require` for CommonJS, `import` for an ES module.
    const { handler } = file.endsWith('.mjs')
      ? await import(pathToFileURL(file).href)
      : createRequire(import.meta.url)(file);

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
}
