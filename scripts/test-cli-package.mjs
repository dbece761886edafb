// `npm run test:cli-package`: the command line as a user installs it. Packs the SDK and the CLI
// (packages/cli), installs both tarballs globally into a fresh prefix (`npm install -g --prefix`,
// from npm's cache, as scripts/test-runtimes.mjs installs the SDK), then runs the installed
// `partner-sdk` from the prefix's bin:
//   1. `partner-sdk --help`, and `--version`, which reads the installed CLI's own package.json;
//   2. `partner-sdk mock --json` (the testing kit, from the installed SDK) and, pointed at it,
//      `partner-sdk --json products list`, whose answer must be the kit's products;
//   3. `refunds request --queue` without bullmq installed: exit 2 naming the package to install;
//   4. a command line it refuses (`--json products list --bogus`): exit 2, one `{"error"}` record;
//   5. `refunds request --file … --journal …` against a slow mock, Ctrl-C after the first outcome:
//      exit 130, a summary saying how to resume; the same command again: exit 0, every
//      transaction refunded once;
//   6. `refunds wait` into a reader that closes after the first line (`| head -1`): exit 141,
//      nothing on stderr.
// Prints one line per check and exits non-zero if any failed.
//
// Options: --no-build (dist/ of both packages is already fresh, as in CI).

import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Outside the repository: Node looks for a package in every node_modules above the importing file,
// so under the repo the installed command would also find the repo's own dev dependencies.
// A directory of its own per run (two checkouts may run this at once), removed when every check
// passed, kept to look into otherwise.
const work = mkdtempSync(join(tmpdir(), 'partner-sdk-cli-package-'));
const project = join(work, 'project');
const prefix = join(work, 'prefix');
const bin = join(prefix, 'bin', 'partner-sdk');

const npm = (args, cwd) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });

/** The environment without the SDK's own variables, so a developer's settings cannot leak in. */
function cleanEnv(extra = {}) {
  const env = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) {
    if (key.startsWith('PARTNER_API_') || key === 'NODE_OPTIONS') delete env[key];
  }
  // The installed command runs on the Node that runs this script (the repo's pinned one).
  env.PATH = `${dirname(process.execPath)}:${env.PATH}`;
  return { ...env, ...extra };
}

const results = [];
function report(ok, label, detail = '') {
  results.push(ok);
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${label}`);
  if (!ok && detail) console.log(`      ${detail.trim().split('\n').slice(-30).join('\n      ')}`);
}

/** Runs the installed command; resolves with its exit status and output, never rejects. */
function partnerSdk(args, env = {}) {
  return new Promise((done) => {
    const child = spawn(bin, args, { cwd: project, env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      done({ code: -1, stdout, stderr: `${stderr}${error}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** Starts `partner-sdk mock --json` and resolves with the process and what it printed. */
function startMock(flags = []) {
  return new Promise((done, fail) => {
    const child = spawn(bin, ['mock', '--json', ...flags], { cwd: project, env: cleanEnv() });
    let text = '';
    let errors = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`partner-sdk mock printed nothing in 60 s: ${errors}`));
    }, 60_000);
    child.stderr.on('data', (chunk) => {
      errors += chunk;
    });
    child.stdout.on('data', (chunk) => {
      text += chunk;
      if (!text.includes('\n')) return;
      clearTimeout(timer);
      done({ child, printed: JSON.parse(text.slice(0, text.indexOf('\n'))) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      fail(new Error(`partner-sdk mock exited ${code}: ${errors}`));
    });
  });
}

// --- Pack both packages and install them into a fresh project ----------------------------------

if (!process.argv.includes('--no-build')) npm(['run', 'build', '--silent'], root);
mkdirSync(project, { recursive: true });
const tarballOf = (args) =>
  join(work, JSON.parse(npm(['pack', '--json', ...args], root))[0].filename);
const sdk = tarballOf(['--pack-destination', work]);
const cli = tarballOf(['--workspace', 'partner-sdk-cli', '--pack-destination', work]);
// As `npm install -g partner-sdk-cli` does, into a prefix of its own rather than the machine's.
npm(['install', '--global', '--prefix', prefix, '--prefer-offline', sdk, cli], project);
const installed = JSON.parse(
  readFileSync(join(prefix, 'lib', 'node_modules', 'partner-sdk-cli', 'package.json'), 'utf8'),
);
report(
  !String(installed.dependencies['partner-sdk']).startsWith('file:'),
  `installed ${cli.slice(work.length + 1)} beside ${sdk.slice(work.length + 1)}: partner-sdk ${installed.dependencies['partner-sdk']}`,
);

// What the CLI's tarball holds: the licence MIT asks to travel with every copy, and no source map
// (the bin never loads one and the sources are not shipped).
const installedCli = join(prefix, 'lib', 'node_modules', 'partner-sdk-cli');
const shippedMaps = readdirSync(join(installedCli, 'dist')).filter((file) => file.endsWith('.map'));
report(
  existsSync(join(installedCli, 'LICENSE')) && shippedMaps.length === 0,
  `the CLI ships its LICENSE and no source map${shippedMaps.length ? ` (found ${shippedMaps})` : ''}`,
);

// --- Run it -------------------------------------------------------------------------------------

const help = await partnerSdk(['--help']);
report(
  help.code === 0 && help.stdout.includes('Usage: partner-sdk'),
  'partner-sdk --help',
  help.stderr,
);

// The CLI is released apart from the SDK: its --version is its own package's, read where it is
// installed (a version only that file holds proves it), beside the SDK's.
const installedManifest = join(prefix, 'lib', 'node_modules', 'partner-sdk-cli', 'package.json');
writeFileSync(installedManifest, JSON.stringify({ ...installed, version: '9.8.7-installed' }));
// The SDK the CLI loads: its own copy when npm nested one, else the one installed beside it.
const sdkManifest = [
  join(prefix, 'lib', 'node_modules', 'partner-sdk-cli', 'node_modules', 'partner-sdk'),
  join(prefix, 'lib', 'node_modules', 'partner-sdk'),
]
  .map((dir) => join(dir, 'package.json'))
  .find((file) => existsSync(file));
const sdkVersion = JSON.parse(readFileSync(sdkManifest, 'utf8')).version;
const version = await partnerSdk(['--version']);
report(
  version.code === 0 && version.stdout.trim() === `9.8.7-installed (partner-sdk ${sdkVersion})`,
  `partner-sdk --version: ${version.stdout.trim()}`,
  version.stderr,
);

const { child, printed } = await startMock();
try {
  const products = await partnerSdk(['--json', 'products', 'list'], printed.env);
  const lines = products.stdout.split('\n').filter(Boolean);
  const hashes = lines.map((line) => JSON.parse(line).hash);
  report(
    products.code === 0 && hashes.includes(printed.products.course.hash),
    `partner-sdk --json products list against partner-sdk mock: ${lines.length} products`,
    `${products.stdout}${products.stderr}`,
  );
} finally {
  child.kill('SIGTERM');
}

// bullmq and the Redis clients are not the CLI's dependencies: `--queue` without them says which to
// install (exit 2) before it reaches for Redis or the service.
{
  writeFileSync(join(project, 'cohort.csv'), 'transaction\ntx_1\n');
  const queued = await partnerSdk(
    [
      'refunds',
      'request',
      '--file',
      'cohort.csv',
      '--queue',
      'refunds',
      '--redis',
      'redis://127.0.0.1:9',
    ],
    { PARTNER_API_CLIENT_ID: 'id', PARTNER_API_CLIENT_SECRET: 'secret' },
  );
  report(
    queued.code === 2 && queued.stderr.includes('npm install bullmq'),
    `partner-sdk refunds request --queue without bullmq: exit ${queued.code}`,
    `${queued.stdout}${queued.stderr}`,
  );
}

// A command line commander refuses is a usage error in the CLI's own JSON, not a line of text.
{
  const refused = await partnerSdk(['--json', 'products', 'list', '--bogus']);
  let error;
  try {
    error = JSON.parse(refused.stderr.trim()).error;
  } catch {}
  report(
    refused.code === 2 && error?.name === 'UsageError' && refused.stdout === '',
    `partner-sdk --json products list --bogus: exit ${refused.code}, ${refused.stderr.trim()}`,
    `${refused.stdout}${refused.stderr}`,
  );
}

/**
 * Runs the installed command until its first JSON line, then sends it SIGINT (or, with `close`,
 * closes its stdout as `| head -1` does); resolves at its end.
 */
function interruptAfterFirstLine(args, env, { close = false } = {}) {
  return new Promise((done) => {
    const child = spawn(bin, args, { cwd: project, env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (!sent && stdout.includes('\n')) {
        sent = true;
        if (close) child.stdout.destroy();
        else child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

// Ctrl-C mid-job leaves a journal the same command resumes from, each transaction refunded once.
{
  const slow = await startMock(['--latency', '150', '--transactions', '6']);
  try {
    const hashes = slow.printed.transactions;
    writeFileSync(join(project, 'cohort.txt'), `${hashes.join('\n')}\n`);
    const args = ['--json', 'refunds', 'request', '--file', 'cohort.txt', '--concurrency', '1'];
    const journal = ['--journal', 'cohort.jsonl'];
    const stopped = await interruptAfterFirstLine([...args, ...journal], slow.printed.env);
    const lines = stopped.stdout.split('\n').filter(Boolean);
    const summary = JSON.parse(lines.at(-1) ?? '{}').summary;
    report(
      stopped.code === 130 &&
        summary?.aborted === true &&
        /--journal cohort\.jsonl/.test(summary.resume),
      `Ctrl-C mid-job: exit ${stopped.code}, ${summary?.notStarted} never started, resume: ${summary?.resume}`,
      `${stopped.stdout}${stopped.stderr}`,
    );
    const resumed = await partnerSdk([...args, ...journal], slow.printed.env);
    const counts = [];
    for (const hash of hashes) {
      const listed = await partnerSdk(['--json', 'refunds', 'list', hash], slow.printed.env);
      counts.push(listed.stdout.split('\n').filter(Boolean).length);
    }
    report(
      resumed.code === 0 && counts.every((count) => count === 1),
      `the same command again resumes: exit ${resumed.code}, refunds per transaction ${counts.join(',')}`,
      `${resumed.stdout}${resumed.stderr}`,
    );
    // A reader that goes away (`| head -1`) ends the command quietly with 141, as Unix tools do.
    const waits = ['--json', 'refunds', 'wait', '--file', 'cohort.txt', '--concurrency', '1'];
    const headed = await interruptAfterFirstLine(waits, slow.printed.env, { close: true });
    report(
      headed.code === 141 && headed.stderr === '',
      `refunds wait | head -1: exit ${headed.code}, ${headed.stderr === '' ? 'nothing' : 'something'} on stderr`,
      headed.stderr,
    );
  } finally {
    slow.child.kill('SIGTERM');
  }
}

const failed = results.filter((ok) => !ok).length;
console.log(`\ntest:cli-package: ${results.length - failed} passed, ${failed} failed`);
if (failed === 0) rmSync(work, { recursive: true, force: true });
else console.log(`the install is kept in ${work}`);
process.exitCode = failed === 0 ? 0 : 1;
