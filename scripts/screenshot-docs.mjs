// `npm run docs:screenshot`: pictures of the built API reference (docs-site/, from `npm run docs`)
// taken by headless Chromium, to look at what a reader sees: the index, a guide and a reference
// page. Writes .tmp/docs-screenshots/*.png and prints their paths. Needs Debian's `chromium`
// (apt-get install chromium) or CHROMIUM=/path/to/chrome; exits 1 naming what is missing.
//
// Options: --site=DIR (default docs-site), --pages=index.html,documents/Bulk_jobs_and_the_CLI.html

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const option = (name, fallback) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const site = resolve(root, option('site', 'docs-site'));
const pages = option(
  'pages',
  'index.html,documents/Bulk_jobs_and_the_CLI.html,interfaces/partner-sdk_webhooks.SubscriptionEndedEvent.html',
).split(',');
const out = join(root, '.tmp', 'docs-screenshots');

const candidates = [process.env.CHROMIUM, 'chromium', 'chromium-browser', 'google-chrome'];
const chromium = candidates.find(
  (name) => name && spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0,
);
if (!chromium) {
  console.error('screenshot-docs: no Chromium found (apt-get install chromium, or set CHROMIUM)');
  process.exit(1);
}
if (!existsSync(join(site, 'index.html'))) {
  console.error(`screenshot-docs: ${site}/index.html is missing: run npm run docs first`);
  process.exit(1);
}
mkdirSync(out, { recursive: true });

let failed = 0;
for (const page of pages) {
  const file = join(site, page);
  const png = join(out, `${page.replaceAll('/', '_').replace(/\.html$/, '')}.png`);
  // A fresh profile per run, and nothing that reaches the network: the site is local files.
  const profile = mkdtempSync(join(tmpdir(), 'docs-chromium-'));
  const result = spawnSync(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      '--hide-scrollbars',
      // Let the page's script lay it out before the picture is taken.
      '--virtual-time-budget=5000',
      '--window-size=1280,1600',
      `--screenshot=${png}`,
      pathToFileURL(file).href,
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  rmSync(profile, { recursive: true, force: true });
  const ok = result.status === 0 && existsSync(png);
  if (!ok) failed++;
  console.log(`${ok ? 'wrote' : 'FAILED'}  ${ok ? png : `${page}: ${result.stderr?.slice(-500)}`}`);
}
process.exitCode = failed ? 1 : 0;
