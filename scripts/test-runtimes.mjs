// `npm run test:runtimes`: installs the packed tarball into a fresh project and checks it there as a
// partner would use it.
//   1. type-checks the files of test/package/consumer (every entry point) with moduleResolution
//      node16 (ESM and CJS), nodenext, bundler and node10, in a Node project without the DOM lib
//      and in one that is not strict, each with the lowest TypeScript the README names, the last
//      5.x and the repo's own, in a project without the optional peers but msw; and reads what each
//      entry point loads (its declarations and code, both formats): nothing but the package's
//      dependencies and that entry's own peer; and that every {@link} of the declarations resolves
//      where it was bundled, to a name an entry point exports (test/package/declaration-links.mjs);
//   2. runs the ESM and the CJS smoke script (test/package/smoke.*) on every supported runtime, and
//      on Node the kit through msw from CommonJS (test/package/msw.cjs);
//   3. runs Cloudflare Workers (test/package/workerd/*) inside workerd through miniflare: one that
//      logs in, lists products and requests a refund against the testing kit, one that receives
//      webhooks with `handler.fetch`, a bulk job (`nodejs_compat`), and the webhooks guide's Worker,
//      which calls the API for each delivery (receiver.mjs drives it), also with its client and
//      handler made at the module's top level, and under `nodejs_compat`; the client and the
//      guide's Worker also bundled in chunks, as a bundler with code splitting does (zod's
//      compiler in a chunk of its own);
//   4. runs what a CommonJS partner's tools do with the package on Node: Jest suites
//      (test/package/jest: the kit, a client call, a webhook handler, the client's waits under
//      Jest's fake timers; the kit through msw, with `--experimental-vm-modules`; kits in two
//      workers at once, each closed, Jest exiting), `node --test` exiting after a kit closed
//      (test/package/node-test), and a Lambda
//      handler bundled for Node by esbuild, from `import` as CJS and as ESM and from `require` as
//      CJS, and by webpack from each (test/package/lambda/lambda.mjs: no warning, no optional peer
//      in the bundle, and it answers against the kit);
//   5. with bullmq then installed beside it, runs a BullMQ refund processor given a function of the
//      seller as a Worker calls it (test/package/bullmq/seller-processor.mjs).
// Runtimes come from the npm registry (platform packages) into .tmp/runtimes/cache, once.
// Prints one line per check and exits non-zero if any failed.
//
// Options: --no-build (dist/ is already fresh, as in CI), --only=<name,...> (e.g. --only=deno,node22).

import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const work = join(root, '.tmp', 'runtimes');
const cache = join(work, 'cache');
// Outside the repository: Node and TypeScript look for a package in every node_modules above the
// importing file, so under the repo the consumer would also see the repo's dev dependencies (the
// optional peers among them) and could not tell a missing one.
// A directory of its own per run, so that two checkouts running this at once never share one;
// removed when every check passed, kept to look into otherwise.
const project = mkdtempSync(join(tmpdir(), 'partner-sdk-runtimes-'));
const fixtures = join(root, 'test', 'package');
const { platform, arch } = process;

// Exact versions, so a run is reproducible and the cache stays valid; bump them here.
const NODE_22 = '22.12.0';
const NODE_26 = '26.10.0';
const BUN = '1.4.5';
const DENO = '2.9.6';
// The TypeScript a partner's project may compile with, besides the repo's own (devDependencies): the
// lowest the README names (zod 4's own floor; the SDK's declarations ask no more) and the last 5.x.
const TYPESCRIPT_MINIMUM = '5.5.4';
const TYPESCRIPT_5 = '5.9.3';
// msw's declarations ask for 5.9 (its peerDependencies): the consumer's msw file is left out below.
const MSW_TYPESCRIPT = '5.9';
// miniflare pins the workerd release it drives; workerd's binary comes in a platform package
// (@cloudflare/workerd-<platform>-<arch>), so nothing is downloaded at install time.
const MINIFLARE = '4.20260426.0';
// The test runner of most CommonJS backends, and the other bundler of Lambda handlers besides
// esbuild, installed into the consumer project.
const JEST = '30.5.2';
const WEBPACK = '5.113.0';

const bunFlavour = arch === 'x64' && !hasAvx2() ? '-baseline' : '';
const libc = platform === 'linux' ? '-glibc' : '';

/** Each runtime: where it comes from, its binary inside the package, and how it runs a script. */
const runtimes = [
  registryNode('node22', NODE_22),
  {
    // The repo's own pinned dev-time Node 24 (devDependency `node`), which runs this script.
    name: 'node24',
    bin: () => join(root, 'node_modules', '.bin', 'node'),
    args: (script) => [script],
  },
  registryNode('node26', NODE_26),
  {
    name: 'bun',
    pkg: `@oven/bun-${platform}-${arch}${bunFlavour}@${BUN}`,
    binPath: join('bin', 'bun'),
    args: (script) => [script],
  },
  {
    name: 'deno',
    pkg: `@deno/${platform}-${arch}${libc}@${DENO}`,
    binPath: 'deno',
    // The least a partner's app needs: network (the API), env (PARTNER_API_* settings). The env
    // grant is narrowed to those names, so a read of any other variable (or of a file) fails here.
    args: (script) => ['run', '--allow-net', `--allow-env=${PARTNER_ENV.join(',')}`, script],
    env: { DENO_DIR: join(cache, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1' },
  },
];

/** The variables the SDK reads, as the client options' docs list them. */
const PARTNER_ENV = [
  'PARTNER_API_BASE_URL',
  'PARTNER_API_CLIENT_ID',
  'PARTNER_API_CLIENT_SECRET',
  'PARTNER_API_CLIENT_TOKEN',
  'PARTNER_API_LOG',
];

function registryNode(name, version) {
  return {
    name,
    pkg: `node-${platform}-${arch}@${version}`,
    binPath: join('bin', 'node'),
    args: (script) => [script],
  };
}

function hasAvx2() {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8').includes(' avx2');
  } catch {
    return true;
  }
}

const argv = process.argv.slice(2);
const build = !argv.includes('--no-build');
const only = argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const selected = only ? runtimes.filter((r) => only.includes(r.name)) : runtimes;
const withWorkerd = !only || only.includes('workerd');
const withJest = !only || only.includes('jest');
const withLambda = !only || only.includes('lambda');
const withBullmq = !only || only.includes('bullmq');

const results = [];
function report(ok, label, seconds, output = '', note = '') {
  results.push(ok);
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${label.padEnd(32)} ${seconds.toFixed(1)}s${note}`);
  if (!ok && output.trim()) console.log(indent(output.trim()));
}
const indent = (text) =>
  text
    .split('\n')
    .slice(-40)
    .map((line) => `      ${line}`)
    .join('\n');

/** Runs a command; resolves with its exit status and combined output, never rejects. */
function run(command, args, { cwd = project, env = {}, timeoutMs = 120_000 } = {}) {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd,
      env: { ...cleanEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => {
      output += `\n(timed out after ${timeoutMs / 1000}s)`;
      child.kill('SIGKILL');
    }, timeoutMs);
    const finish = (code) => {
      clearTimeout(timer);
      done({ ok: code === 0, output, seconds: (performance.now() - started) / 1000 });
    };
    child.on('error', (err) => {
      output += String(err);
      finish(1);
    });
    child.on('close', finish);
  });
}

/** The environment without the SDK's own variables, so a developer's settings cannot leak in. */
function cleanEnv() {
  const env = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) {
    if (key.startsWith('PARTNER_API_') || key === 'NODE_OPTIONS') delete env[key];
  }
  return env;
}

const npm = (args, cwd) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });

/** Installs a runtime's platform package into the cache unless it is already there; returns its binary. */
function ensureRuntime(runtime) {
  if (runtime.bin) return runtime.bin();
  const dir = join(cache, runtime.pkg.replaceAll('/', '+'));
  const name = runtime.pkg.slice(0, runtime.pkg.lastIndexOf('@'));
  const bin = join(dir, 'node_modules', name, runtime.binPath);
  if (!existsSync(bin)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    npm(['install', '--no-save', '--no-package-lock', runtime.pkg], dir);
  }
  return bin;
}

function devVersion(name) {
  return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
}

// --- 1. Pack and install into a fresh project -------------------------------------------------

if (build) npm(['run', 'build', '--silent'], root);
mkdirSync(work, { recursive: true });
const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', work], root));
const tarball = join(work, packed.filename);
writeFileSync(
  join(project, 'package.json'),
  `${JSON.stringify({ name: 'partner-sdk-consumer', private: true }, null, 2)}\n`,
);
// The consumer's own toolchain: the same TypeScript, msw and Node types the repo develops with, and
// the older compilers of the matrix beside it (`typescript-5.5`…), all in one install.
const compilers = [devVersion('typescript'), TYPESCRIPT_5, TYPESCRIPT_MINIMUM].map((version, i) => {
  const minor = version.split('.').slice(0, 2).join('.');
  return { version, minor, pkg: i === 0 ? 'typescript' : `typescript-${minor}` };
});
npm(
  [
    'install',
    '--prefer-offline',
    tarball,
    `msw@${devVersion('msw')}`,
    ...compilers.map(({ pkg, version }) => `${pkg}@npm:typescript@${version}`),
    `@types/node@${devVersion('@types/node')}`,
    `jest@${JEST}`,
    `webpack@${WEBPACK}`,
  ],
  project,
);
for (const file of ['smoke.mjs', 'smoke.cjs', 'msw.cjs']) {
  copyFileSync(join(fixtures, file), join(project, file));
}
for (const dir of ['workerd', 'lambda']) {
  for (const file of readdirSync(join(fixtures, dir))) {
    copyFileSync(join(fixtures, dir, file), join(project, file));
  }
}
// Each Jest suite in a folder of its own, Jest's root for that run: Jest looks for tests only there.
mkdirSync(join(project, 'node-test'));
for (const file of readdirSync(join(fixtures, 'node-test'))) {
  copyFileSync(join(fixtures, 'node-test', file), join(project, 'node-test', file));
}
for (const suite of readdirSync(join(fixtures, 'jest'))) {
  mkdirSync(join(project, 'jest', suite), { recursive: true });
  for (const file of readdirSync(join(fixtures, 'jest', suite))) {
    copyFileSync(join(fixtures, 'jest', suite, file), join(project, 'jest', suite, file));
  }
}
// Each consumer file is checked as ESM (.mts), CJS (.cts) and by the module setting (.ts).
for (const file of readdirSync(join(fixtures, 'consumer'))) {
  const targets = file.endsWith('.ts')
    ? ['.ts', '.mts', '.cts'].map((ext) => file.replace(/\.ts$/, ext))
    : [file];
  for (const target of targets)
    copyFileSync(join(fixtures, 'consumer', file), join(project, target));
}
console.log(`installed ${packed.filename} into ${project}`);

// --- 2. Consumer type-checks ----------------------------------------------------------------------

// Every project on the repo's own compiler; on the older ones, all but nodenext (on a 5.x compiler
// the ESM side of node16 already).
const consumers = ['node16', 'nodenext', 'bundler', 'node10', 'node-only', 'loose'];
const matrix = compilers.flatMap((compiler, index) =>
  consumers
    .filter((consumer) => index === 0 || consumer !== 'nodenext')
    .map((consumer) => ({ compiler, consumer })),
);
// Four compilers at a time: on a busy two-core machine each takes tens of seconds.
const checks = await mapLimited(matrix, 4, async ({ compiler, consumer }) => {
  const tsc = join(project, 'node_modules', compiler.pkg, 'bin', 'tsc');
  const config = consumerConfig(consumer, compiler);
  return {
    compiler,
    consumer,
    ...(await run(process.execPath, [tsc, '-p', config], { timeoutMs: 300_000 })),
  };
});
for (const { compiler, consumer, ok, output, seconds } of checks) {
  const { own, others } = classifyErrors(output);
  const note = others ? ` (${others} errors inside other packages ignored)` : '';
  // A failed run must show errors, all of them elsewhere; a crash without any counts as ours.
  const passed = own === 0 && (ok || others > 0);
  report(passed, `types  ts ${compiler.minor} ${consumer}`, seconds, output, note);
}

/**
 * The consumer project's config for `compiler`: the fixture's own for the repo's compiler; for an
 * older one, a copy of it with what that compiler knows instead (`module` node16 before node20
 * came in 5.9, the `ignoreDeprecations` value of 5.x) and without msw's files below msw's own
 * floor. A copy, not a config extending it: a compiler refuses a value it does not know even where
 * a config extending it sets another.
 */
function consumerConfig(consumer, compiler) {
  const name = `tsconfig.${consumer}.json`;
  if (compiler === compilers[0]) return name;
  const { config } = ts.readConfigFile(join(project, name), ts.sys.readFile);
  const options = { ...config.compilerOptions };
  const before = (minor) => !atLeast(compiler.minor, minor);
  if (options.module === 'node20' && before('5.9')) options.module = 'node16';
  if (options.ignoreDeprecations && before('6.0')) options.ignoreDeprecations = '5.0';
  const withMsw = atLeast(compiler.minor, MSW_TYPESCRIPT);
  const files = config.files.filter((file) => withMsw || !file.startsWith('msw.'));
  const derived = `tsconfig.${consumer}.ts${compiler.minor}.json`;
  const copy = { extends: config.extends, compilerOptions: options, files };
  writeFileSync(join(project, derived), `${JSON.stringify(copy, null, 2)}\n`);
  return derived;
}

/** Whether version `a` (`5.9`, `5.9.3`) is `b` or later. */
function atLeast(a, b) {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  const i = x.findIndex((part, at) => part !== (y[at] ?? 0));
  return i === -1 || x[i] > (y[i] ?? 0);
}

/** `fn` over `items`, at most `limit` at once; the results in the items' order. */
async function mapLimited(items, limit, fn) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// What the IDE shows over the installed package: hovers name the types and carry the field notes.
{
  copyFileSync(join(fixtures, 'quick-info.mjs'), join(project, 'quick-info.mjs'));
  const { ok, output, seconds } = await run(process.execPath, ['quick-info.mjs']);
  report(ok, 'types  quick info (language service)', seconds, output);
}

// Every {@link} of the installed declarations resolves where the bundler put it, to a public name.
{
  copyFileSync(join(fixtures, 'declaration-links.mjs'), join(project, 'declaration-links.mjs'));
  const { ok, output, seconds } = await run(process.execPath, ['declaration-links.mjs']);
  report(ok, 'types  {@link} in declarations', seconds, output);
}

// What each entry point loads, statically, in both formats and in its declarations: a bare import of
// an optional peer there breaks every consumer without it (at load, or in `tsc` with skipLibCheck
// false), so only the package's dependencies and the entry's own peer may appear.
{
  const installed = join(project, 'node_modules', 'partner-sdk');
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  const ownPeer = { './testing/msw': ['msw'], './bullmq': ['bullmq'] };
  for (const [subpath, conditions] of Object.entries(manifest.exports)) {
    if (typeof conditions === 'string') continue;
    const started = performance.now();
    // `module` names a file that `import` names too, its declarations there.
    const files = Object.values(conditions)
      .filter((target) => typeof target === 'object')
      .flatMap(({ types, default: code }) => [types, code]);
    const reached = new Map();
    for (const file of files) bareImports(join(installed, file), reached);
    const allowed = [...Object.keys(manifest.dependencies), ...(ownPeer[subpath] ?? [])];
    const stray = [...reached].filter(([name]) => !allowed.includes(name));
    // ky is the SDK's own business, in no type or error a partner sees: bundled into CommonJS,
    // which cannot require it, and named by no declaration a partner's types see.
    const kyless = new Map();
    for (const file of files.filter((name) => /\.(cjs|d\.c?ts)$/.test(name))) {
      bareImports(join(installed, file), kyless);
    }
    if (kyless.has('ky')) stray.push(['ky', kyless.get('ky')]);
    const detail = stray.map(([name, from]) => `${name} (from ${from})`).join('\n');
    const seconds = (performance.now() - started) / 1000;
    report(stray.length === 0, `loads  ${join('partner-sdk', subpath)}`, seconds, detail);
  }
}

/**
 * Adds to `reached` the packages `file` imports statically (bare specifiers, not Node's built-ins),
 * following its relative imports; `import()` in code loads on demand and is left out.
 */
function bareImports(file, reached, seen = new Set()) {
  if (seen.has(file)) return;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const declarations = /\.d\.c?ts$/.test(file);
  const patterns = [
    /^(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^import\s*['"]([^'"]+)['"]/gm,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
    ...(declarations ? [/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g] : []),
  ];
  for (const pattern of patterns) {
    for (const [, specifier] of text.matchAll(pattern)) {
      if (specifier.startsWith('.')) {
        bareImports(declarationOrCode(join(dirname(file), specifier), declarations), reached, seen);
        continue;
      }
      const name = specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
      if (specifier.startsWith('node:') || builtinModules.includes(name)) continue;
      if (!reached.has(name)) reached.set(name, file.slice(project.length + 1));
    }
  }
}

/** The file a relative import names: in declarations, `./x.js` is `./x.d.ts` (`.cjs`, `.d.cts`). */
function declarationOrCode(path, declarations) {
  if (!declarations) return path;
  return path.replace(/\.c?js$/, (ext) => (ext === '.cjs' ? '.d.cts' : '.d.ts'));
}

/**
 * Counts tsc's errors: ours (the fixture, partner-sdk's declarations, the config) and those inside
 * other installed packages, which are not this package's to fix.
 */
function classifyErrors(output) {
  let own = 0;
  let others = 0;
  for (const line of output.split('\n')) {
    if (!/error TS\d+/.test(line)) continue;
    const thirdParty =
      line.startsWith('node_modules/') && !line.startsWith('node_modules/partner-sdk/');
    if (thirdParty) others += 1;
    else own += 1;
  }
  return { own, others };
}

// --- 3. Smoke scripts on every runtime ------------------------------------------------------------

for (const runtime of selected) {
  let bin;
  try {
    bin = ensureRuntime(runtime);
  } catch (err) {
    report(false, `${runtime.name}  (install ${runtime.pkg})`, 0, String(err));
    continue;
  }
  const printed = (await run(bin, ['--version'], { env: runtime.env })).output;
  const version = printed.match(/\d+\.\d+\.\d+/)?.[0] ?? '?';
  // msw from CommonJS needs a Node that can `require` ESM, as the README says.
  const scripts = [
    'smoke.mjs',
    'smoke.cjs',
    ...(runtime.name.startsWith('node') ? ['msw.cjs'] : []),
  ];
  for (const script of scripts) {
    const format = script === 'msw.cjs' ? 'msw cjs' : script.endsWith('.mjs') ? 'esm' : 'cjs';
    const { ok, output, seconds } = await run(bin, runtime.args(script), {
      env: runtime.env,
      timeoutMs: 60_000,
    });
    report(
      ok,
      `${format.padEnd(7)} ${runtime.name.replace(/\d+$/, '')} ${version}`,
      seconds,
      output,
    );
  }
}

// --- 4. A CommonJS partner's tools on Node: Jest, a Lambda bundle --------------------------------

if (withJest) {
  const jest = join(project, 'node_modules', 'jest', 'bin', 'jest.js');
  // The suite as Jest runs it by default; msw's, with the flag Jest needs to `require` ESM; the
  // kits', a file per worker as a partner's CI runs them. A handle a kit left open keeps Jest
  // waiting (a time-out here) or has a worker force-exited (a warning in its output).
  const suites = [
    ['suite', {}, []],
    ['msw', { NODE_OPTIONS: '--experimental-vm-modules' }, []],
    ['kits', {}, ['--maxWorkers=2']],
  ];
  for (const [suite, env, extra] of suites) {
    const args = [jest, '--rootDir', join('jest', suite), '--ci', ...extra];
    const result = await run(process.execPath, args, { env, timeoutMs: 120_000 });
    const ok = result.ok && !/failed to exit gracefully|did not exit/.test(result.output);
    report(ok, `jest    ${JEST} cjs ${suite}`, result.seconds, result.output);
  }
}

// `node --test` ends a file's process only once nothing keeps it alive: a kit's server, closed,
// must leave nothing behind (a time-out here otherwise).
if (withJest) {
  const args = ['--test', join('node-test', 'kits.test.mjs')];
  const { ok, output, seconds } = await run(process.execPath, args, { timeoutMs: 60_000 });
  report(ok, 'node --test  kit closed, exits', seconds, output);
}

if (withLambda) {
  const env = { ESBUILD: join(root, 'node_modules', 'esbuild') };
  const bundles = [
    ['lambda-handler.mjs', 'esbuild', 'cjs'],
    ['lambda-handler.mjs', 'esbuild', 'esm'],
    ['lambda-handler.cjs', 'esbuild', 'cjs'],
    ['lambda-handler.mjs', 'webpack', 'cjs'],
    ['lambda-handler.cjs', 'webpack', 'cjs'],
  ];
  for (const [handler, bundler, format] of bundles) {
    const args = ['lambda.mjs', handler, bundler, format];
    const { ok, output, seconds } = await run(process.execPath, args, { env, timeoutMs: 120_000 });
    const from = handler.endsWith('.cjs') ? 'require' : 'import';
    report(ok, `lambda  ${bundler} ${from} -> ${format}`, seconds, output);
  }
}

// --- 5. Cloudflare Workers (workerd, through miniflare) -------------------------------------------

if (withWorkerd) {
  const workerd = { pkg: `miniflare@${MINIFLARE}`, binPath: 'package.json' };
  try {
    const manifest = ensureRuntime(workerd);
    const modules = dirname(dirname(manifest));
    const version = JSON.parse(
      readFileSync(join(modules, 'workerd', 'package.json'), 'utf8'),
    ).version;
    const env = {
      MINIFLARE: join(modules, 'miniflare'),
      ESBUILD: join(root, 'node_modules', 'esbuild'),
    };
    const workers = [
      ['client-worker.mjs'],
      ['client-worker.mjs', '--split'],
      ['webhook-worker.mjs'],
      ['bulk-worker.mjs'],
      ['receiver-worker.ts'],
      ['receiver-worker.ts', '--split'],
      ['receiver-worker.ts', '--node-compat'],
      ['receiver-global-worker.mjs'],
    ];
    for (const [worker, ...flags] of workers) {
      const { ok, output, seconds } = await run(process.execPath, ['run.mjs', worker, ...flags], {
        env,
        timeoutMs: 90_000,
      });
      const name = [worker.replace(/-worker\.\w+$/, ''), ...flags.map((f) => f.slice(2))].join(' ');
      report(ok, `${name.padEnd(22)}workerd ${version}`, seconds, output);
    }
  } catch (err) {
    report(false, `workerd  (install ${workerd.pkg})`, 0, String(err));
  }
}

// --- 6. A BullMQ processor of a seller function, with bullmq installed ----------------------------

// Last: every check above needs a project without the optional peers. bullmq (the repo's version)
// is added to the same project, so only its own tree is installed; the install is timed apart.
if (withBullmq) {
  const started = performance.now();
  let installed = true;
  try {
    npm(['install', '--prefer-offline', `bullmq@${devVersion('bullmq')}`], project);
  } catch (err) {
    installed = false;
    report(false, 'bullmq  (install)', (performance.now() - started) / 1000, String(err));
  }
  if (installed) {
    const install = ` (install ${((performance.now() - started) / 1000).toFixed(1)}s)`;
    copyFileSync(join(fixtures, 'bullmq', 'seller-processor.mjs'), join(project, 'seller.mjs'));
    const { ok, output, seconds } = await run(process.execPath, ['seller.mjs'], {
      timeoutMs: 60_000,
    });
    report(ok, 'bullmq  seller function processor', seconds, output, install);
  }
}

const failed = results.filter((ok) => !ok).length;
console.log(`\ntest:runtimes: ${results.length - failed} passed, ${failed} failed`);
if (failed === 0) rmSync(project, { recursive: true, force: true });
else console.log(`the consumer project is kept in ${project}`);
process.exitCode = failed === 0 ? 0 : 1;
