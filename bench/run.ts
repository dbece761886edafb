/**
 * The SDK's own cost, measured against its budgets (per call, cold import, bundle). Run with the
 * repo's Node 24 after a build:
 *
 *   npm run build && node bench/run.ts            full run, writes bench/RESULTS.md
 *   node bench/run.ts --quick                     seconds; prints only (CI: keeps the bench alive)
 *   node bench/run.ts --calls-only [--quick]      only the calls timed against ky; a full run of
 *                                                 them replaces their section of RESULTS.md
 *   node bench/run.ts --bulk-only [--quick]       only the bulk row; a full run of it replaces
 *                                                 its section of RESULTS.md
 *   node bench/run.ts --sizes-only                only the bundle and package sizes (no timing);
 *                                                 replaces their section of RESULTS.md
 *   node bench/run.ts --telemetry-only [--quick]  only the OpenTelemetry rows; a full run of
 *                                                 them replaces their section of RESULTS.md
 *   node bench/run.ts --fleet-only [--quick]      only the fleet row (needs redis-server);
 *                                                 a full run of it replaces its section of RESULTS.md
 *   node bench/run.ts --instructions-only         only the calls counted in instructions (needs
 *                                                 valgrind; load does not move them, so it may run
 *                                                 beside other work); replaces their section
 *   node bench/run.ts --telemetry-instructions-only
 *                                                 only the telemetry rows counted in instructions
 *                                                 (as above); replaces their section
 *
 * It benchmarks the built `dist/` (the package imports itself by name, so `partner-sdk` resolves
 * through package.json `exports` to what partners install), with Node's own type stripping for
 * this file. Timings are ratios of A/B rounds alternated block by block, so a busy machine slows
 * both sides alike. The calls and telemetry tables run each variant in a worker process of its
 * own (a partner's process runs one configuration of the SDK, not ky beside it); the other tables
 * alternate their variants in this process. Verdicts are printed, never asserted: the exit code says only whether the benchmark
 * itself ran.
 */

import { fork, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import ky from 'ky';
import OpenAI from 'openai';
import { Page as OpenAIPage } from 'openai/pagination';
import {
  AnticipationListResponseSchema,
  PartnerClient,
  ProductListResponseSchema,
  ProductSchema,
  RefundStatusResponseSchema,
  type Schema,
} from 'partner-sdk';
import Stripe from 'stripe';
import * as z from 'zod/mini';
// @ts-expect-error: a plain ES module of the repo's scripts, shared with the bundle check
import { splitByLoading } from '../scripts/bundle-split.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUICK = process.argv.includes('--quick');
/** The bulk row lives in its own file (Node strips the types of a `.ts` URL import; a path would need allowImportingTsExtensions). */
const { startServer, timeCalls, median, rawCall, BENCH_TOKEN, BENCH_HEADERS } = (await import(
  new URL('./measure.ts', import.meta.url).href
)) as typeof import('./measure');
type Call = import('./measure').Call;
const { TIMED_CALLS } = (await import(
  new URL('./timed-calls.ts', import.meta.url).href
)) as typeof import('./timed-calls');
type TimedCall = import('./timed-calls').TimedCall;
type TimedCallKey = import('./timed-calls').TimedCallKey;
const { startVariantWorkers } = (await import(
  new URL('./isolated-calls.ts', import.meta.url).href
)) as typeof import('./isolated-calls');
const { benchBulk, bulkReport } = (await import(
  new URL('./bulk.ts', import.meta.url).href
)) as typeof import('./bulk');
/** `--calls-only`: only the calls table, timed against ky (a quiet machine, minutes). */
const CALLS_ONLY = process.argv.includes('--calls-only');
/** `--bulk-only`: only the bulk row; a full run of it replaces its section of RESULTS.md. */
const BULK_ONLY = process.argv.includes('--bulk-only');
/** `--sizes-only`: only the bundle and package sizes, which take seconds and no quiet machine. */
const SIZES_ONLY = process.argv.includes('--sizes-only');
/** `--telemetry-only`: only the OpenTelemetry rows. */
const TELEMETRY_ONLY = process.argv.includes('--telemetry-only');
const { benchTelemetry, telemetryReport } = (await import(
  new URL('./telemetry.ts', import.meta.url).href
)) as typeof import('./telemetry');
/** `--fleet-only`: only the fleet row (four processes, one rate limit, a real redis-server). */
const FLEET_ONLY = process.argv.includes('--fleet-only');
const { benchFleet, fleetReport } = (await import(
  new URL('./fleet.ts', import.meta.url).href
)) as typeof import('./fleet');
/** `--instructions-only`: only the calls counted in instructions under callgrind. */
const INSTRUCTIONS_ONLY = process.argv.includes('--instructions-only');
const { benchInstructions, instructionsReport } = (await import(
  new URL('./instructions.ts', import.meta.url).href
)) as typeof import('./instructions');
/** `--telemetry-instructions-only`: only the telemetry rows counted in instructions. */
const TELEMETRY_INSTRUCTIONS_ONLY = process.argv.includes('--telemetry-instructions-only');
const { benchTelemetryInstructions, telemetryInstructionsReport } = (await import(
  new URL('./telemetry-instructions.ts', import.meta.url).href
)) as typeof import('./telemetry-instructions');

// ---------------------------------------------------------------------------------------------
// The loopback service (a child process)
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------------

interface Spread {
  median: number;
  min: number;
  max: number;
}

function spread(values: number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

const fmt = (value: number, digits = 2) => value.toFixed(digits);
const fmtSpread = (s: Spread, digits = 2) =>
  `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
/**
 * A timing's verdict. A quick run has too few rounds to decide one (CI runs it on whatever else the
 * machine is doing), so it shows the reading in lower case with a question mark, never a verdict.
 */
const timingVerdict = (ok: boolean) => (QUICK ? (ok ? 'pass?' : 'fail?') : verdict(ok));

// ---------------------------------------------------------------------------------------------
// 1. Calls: SDK vs ky vs raw fetch, each in a worker process, alternated in rounds
// ---------------------------------------------------------------------------------------------

interface Case extends TimedCall {
  schema: Schema;
}

const CASES: Case[] = [
  { ...TIMED_CALLS.list, schema: ProductListResponseSchema },
  { ...TIMED_CALLS.retrieve, schema: ProductSchema },
  { ...TIMED_CALLS.anticipations, schema: AnticipationListResponseSchema },
  { ...TIMED_CALLS.refundStatus, schema: RefundStatusResponseSchema },
];

interface CallRow {
  name: string;
  concurrency: number;
  target: boolean;
  rawUs: number;
  kyVsRaw: Spread;
  onVsRaw: Spread;
  onVsKy: Spread;
  offVsKy: Spread;
  cpuOnVsKy: Spread;
}

/** Milliseconds per call of each variant, one entry per round. */
type RoundTimes<K extends string> = Record<K, { wall: number[]; cpu: number[] }>;

/** Milliseconds per call of one block of one variant. */
type TimeBlock<K extends string> = (name: K) => Promise<{ wall: number; cpu: number }>;

/**
 * Times every variant in each of `rounds` rounds, one block at a time, after one warm-up block
 * each. The order rotates by round so that no variant always runs first (or right after a
 * GC-heavy one); ratios are then taken within a round, where load hits both sides alike.
 */
async function alternateBlocks<K extends string>(
  names: K[],
  time: TimeBlock<K>,
  rounds: number,
): Promise<RoundTimes<K>> {
  for (const name of names) await time(name); // warm-up
  const times = {} as RoundTimes<K>;
  for (const name of names) times[name] = { wall: [], cpu: [] };
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!;
      const { wall, cpu } = await time(name);
      times[name].wall.push(wall);
      times[name].cpu.push(cpu);
    }
  }
  return times;
}

/** `alternateBlocks` of variants that share this process: `n` calls, `concurrency` at a time. */
function alternate<K extends string>(
  variants: Record<K, Call>,
  n: number,
  concurrency: number,
  rounds: number,
): Promise<RoundTimes<K>> {
  const names = Object.keys(variants) as K[];
  return alternateBlocks(names, (name) => timeCalls(variants[name], n, concurrency), rounds);
}

/** Round by round, `a`'s time over `b`'s: median (min–max). */
const ratio = (a: number[], b: number[]) => spread(a.map((t, round) => t / b[round]!));

/** Calls per block: fewer in quick mode, twice as many at c=32 (and never fewer than c). */
const callsPerBlock = (calls: number, concurrency: number) =>
  Math.max(concurrency, Math.round((QUICK ? calls / 6 : calls) * (concurrency > 1 ? 2 : 1)));

/** The variants of the calls table, each timed in a worker process of its own. */
const CALL_VARIANTS = ['raw', 'ky', 'on', 'off'] as const;

async function benchCalls(base: string): Promise<CallRow[]> {
  const { workers, stop } = await startVariantWorkers(base, CALL_VARIANTS);
  // Rounds of ~0.1 s or more per variant, and enough of them for a stable median on a busy machine.
  const rounds = QUICK ? 3 : 31;
  const rows: CallRow[] = [];
  try {
    for (const key of Object.keys(TIMED_CALLS) as TimedCallKey[]) {
      const testCase = TIMED_CALLS[key];
      for (const concurrency of [1, 32]) {
        const n = callsPerBlock(testCase.calls, concurrency);
        const t = await alternateBlocks(
          [...CALL_VARIANTS],
          (variant) => workers[variant].time({ key, n, concurrency }),
          rounds,
        );
        rows.push({
          name: testCase.name,
          concurrency,
          target: testCase.target,
          rawUs: median(t.raw.wall) * 1000,
          kyVsRaw: ratio(t.ky.wall, t.raw.wall),
          onVsRaw: ratio(t.on.wall, t.raw.wall),
          onVsKy: ratio(t.on.wall, t.ky.wall),
          offVsKy: ratio(t.off.wall, t.ky.wall),
          cpuOnVsKy: ratio(t.on.cpu, t.ky.cpu),
        });
        process.stderr.write('.');
      }
    }
  } finally {
    stop();
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// 1b. The same calls through openai-node and stripe-node (reference SDKs, devDependencies)
// ---------------------------------------------------------------------------------------------

interface ReferenceRow {
  name: string;
  concurrency: number;
  rawUs: number;
  /** Each variant over raw fetch + JSON.parse, round by round. */
  vsRaw: Record<'ky' | 'sdk' | 'openai' | 'stripe', Spread>;
  /** Ours over openai-node's, round by round (wall and CPU). */
  sdkVsOpenai: Spread;
  cpuSdkVsOpenai: Spread;
}

/**
 * A list of about 5 KB (the size openai-node's cost is quoted at), then the page and the product
 * of the first two cases, fetched by openai-node and stripe-node from the same loopback server,
 * each the way its own methods fetch: what a partner would pay with the SDKs that set the bar.
 * Neither validates the body; ours does (strict). stripe-node uses `node:http`, not `fetch`, so it
 * can come in under raw fetch.
 */
async function benchReferences(base: string): Promise<ReferenceRow[]> {
  const [page, product] = [CASES[0]!, CASES[1]!];
  const smallList: Case = {
    name: 'products.list (3, ~5 KB)',
    path: '/products?per_page=3',
    schema: ProductListResponseSchema,
    sdk: (client) => client.products.list({ per_page: 3 }),
    calls: 1_000,
    target: false, // its target is in this table (ahead of openai-node), not the ky one
  };
  const { hostname, port, pathname } = new URL(base);
  const api = ky.create({ headers: BENCH_HEADERS });
  const sdk = new PartnerClient({
    baseUrl: base,
    clientToken: BENCH_TOKEN,
    validateResponses: 'strict',
  });
  const openai = new OpenAI({ apiKey: BENCH_TOKEN, baseURL: base, maxRetries: 0 });
  const stripe = new Stripe(BENCH_TOKEN, {
    host: hostname,
    port: Number(port),
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
  const list = (perPage: number) => () =>
    openai.getAPIList('/products', OpenAIPage, { query: { per_page: perPage } });
  const references: { testCase: Case; openai: Call }[] = [
    // What openai-node's list methods do (`models.list()` is `getAPIList('/models', Page)`).
    { testCase: smallList, openai: list(3) },
    { testCase: page, openai: list(50) },
    // What its retrieve methods do (`models.retrieve(id)` is `get(path)`).
    { testCase: product, openai: () => openai.get(product.path) },
  ];
  const rounds = QUICK ? 3 : 31;
  const rows: ReferenceRow[] = [];
  for (const reference of references) {
    const { testCase } = reference;
    const url = `${base}${testCase.path}`;
    const variants: Record<'raw' | 'ky' | 'sdk' | 'openai' | 'stripe', Call> = {
      raw: rawCall(url, BENCH_HEADERS),
      ky: () => api.get(url).json(),
      sdk: () => testCase.sdk(sdk),
      openai: reference.openai,
      // stripe-node's rawRequest takes a GET's query in the path only (and no params).
      stripe: () => stripe.rawRequest('GET', `${pathname}${testCase.path}`),
    };
    for (const concurrency of [1, 32]) {
      const n = callsPerBlock(testCase.calls, concurrency);
      const t = await alternate(variants, n, concurrency, rounds);
      rows.push({
        name: testCase.name,
        concurrency,
        rawUs: median(t.raw.wall) * 1000,
        vsRaw: {
          ky: ratio(t.ky.wall, t.raw.wall),
          sdk: ratio(t.sdk.wall, t.raw.wall),
          openai: ratio(t.openai.wall, t.raw.wall),
          stripe: ratio(t.stripe.wall, t.raw.wall),
        },
        sdkVsOpenai: ratio(t.sdk.wall, t.openai.wall),
        cpuSdkVsOpenai: ratio(t.sdk.cpu, t.openai.cpu),
      });
      process.stderr.write('.');
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// 2. Response validation alone, per payload, against its JSON.parse
// ---------------------------------------------------------------------------------------------

interface ValidationRow {
  name: string;
  bytes: number;
  parseUs: number;
  /** The SDK's check: zod's parser on the schema zod compiled (`compiled` in core's validation). */
  sdkUs: number;
  sdk: Spread;
  runtimeUs: number;
  runtime: Spread;
  compiledUs: number;
  compiled: Spread;
  target: boolean;
}

// The telemetry rows need nothing below (the SDK's sources are loaded next): they run on their own.
if (TELEMETRY_ONLY) {
  await telemetryOnly();
  process.exit(0);
}
if (INSTRUCTIONS_ONLY) {
  await instructionsOnly();
  process.exit(0);
}
if (TELEMETRY_INSTRUCTIONS_ONLY) {
  await telemetryInstructionsOnly();
  process.exit(0);
}
if (FLEET_ONLY) {
  await fleetOnly();
  process.exit(0);
}

// The SDK's source imports its files without extensions, as a bundler reads them: resolved here
// for the one module the bench loads from source, not the built package.
const SOURCE = new URL('../src/', import.meta.url).href;
registerHooks({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL ?? '';
    if (
      parent.startsWith(SOURCE) &&
      /^\.\.?\//.test(specifier) &&
      !/\.[cm]?[jt]s$/.test(specifier)
    ) {
      for (const suffix of ['.ts', '/index.ts']) {
        const url = new URL(`${specifier}${suffix}`, parent);
        if (existsSync(fileURLToPath(url))) return { url: url.href, shortCircuit: true };
      }
    }
    return nextResolve(specifier, context);
  },
});

/** The SDK's compiled schemas, loaded from source (Node strips its types): they are not exported. */
const { compiled: compiledBySdk, loadCompiler } = (await import(
  new URL('../src/core/validation/index.ts', import.meta.url).href
)) as typeof import('../src/core/validation');
// What a client does when made: the compiler is in before the first answer is checked.
await loadCompiler();

/** Microseconds per run of `fn`; rounds are short, so a preempted one is an outlier the median drops. */
function timeSync(fn: () => unknown, iterations: number): number {
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  return ((performance.now() - t0) * 1000) / iterations;
}

async function benchValidation(base: string): Promise<ValidationRow[]> {
  const rows: ValidationRow[] = [];
  const rounds = QUICK ? 5 : 41;
  for (const testCase of CASES) {
    const text = await (await fetch(`${base}${testCase.path}`)).text();
    const value = JSON.parse(text);
    // zod's AOT compiler called directly, for reference: what the SDK's own use of it should cost.
    const compiled = z.compile(testCase.schema);
    const sdkSchema = compiledBySdk(testCase.schema);
    // What a call runs: zod's compiled check; a body that passes is its own result, no copy built.
    const sdk = () => {
      if (!z.validate(sdkSchema, value))
        throw new Error(`${testCase.name}: fixture does not validate`);
    };
    const check = (schema: Schema) => {
      const result = z.safeParse(schema, value);
      if (!result.success) throw new Error(`${testCase.name}: fixture does not validate`);
      return result;
    };
    check(testCase.schema);
    check(compiled);
    if (sdkSchema === testCase.schema) throw new Error(`${testCase.name}: not compiled`);
    const iterations = Math.max(5, Math.round(2_000_000 / text.length));
    const parse = () => JSON.parse(text);
    for (const fn of [parse, sdk, () => check(testCase.schema), () => check(compiled)]) {
      timeSync(fn, iterations); // warm-up
    }
    const p: number[] = [];
    const f: number[] = [];
    const r: number[] = [];
    const c: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const tp = timeSync(parse, iterations);
      f.push(timeSync(sdk, iterations) / tp);
      const tr = timeSync(() => check(testCase.schema), iterations);
      const tc = timeSync(() => check(compiled), iterations);
      p.push(tp);
      r.push(tr / tp);
      c.push(tc / tp);
    }
    const parseUs = median(p);
    rows.push({
      name: testCase.name,
      bytes: text.length,
      parseUs,
      sdkUs: median(f) * parseUs,
      sdk: spread(f),
      runtimeUs: median(r) * parseUs,
      compiledUs: median(c) * parseUs,
      runtime: spread(r),
      compiled: spread(c),
      target: testCase.schema === ProductListResponseSchema,
    });
    process.stderr.write('.');
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// 3. Cold import of each entry point (a whole process, minus an empty one)
// ---------------------------------------------------------------------------------------------

const IMPORTS: { name: string; code: string; type: 'module' | 'commonjs' }[] = [
  { name: '(empty script)', code: '', type: 'module' },
  {
    name: 'ky + zod/mini (our dependencies)',
    code: "await import('ky'); await import('zod/mini');",
    type: 'module',
  },
  { name: 'ky + zod (classic)', code: "await import('ky'); await import('zod');", type: 'module' },
  { name: 'partner-sdk', code: "await import('partner-sdk');", type: 'module' },
  { name: 'partner-sdk (require)', code: "require('partner-sdk');", type: 'commonjs' },
  { name: 'partner-sdk/webhooks', code: "await import('partner-sdk/webhooks');", type: 'module' },
  { name: 'partner-sdk/testing', code: "await import('partner-sdk/testing');", type: 'module' },
  {
    name: 'partner-sdk/testing/msw',
    code: "await import('partner-sdk/testing/msw');",
    type: 'module',
  },
  { name: 'openai (reference)', code: "await import('openai');", type: 'module' },
  { name: 'stripe (reference)', code: "await import('stripe');", type: 'module' },
];

interface ImportRow {
  name: string;
  wall: Spread;
  cpu: Spread;
  /** Per round, this entry's time over the dependencies' (ky + zod/mini) in the same round. */
  wallRatio: Spread;
  cpuRatio: Spread;
  /** The same over ky + zod (classic), the baseline the cold-import budget names. */
  wallVsZod: Spread;
  cpuVsZod: Spread;
}

/**
 * Each entry imported in a fresh process: wall time of the whole process, and its CPU time (every
 * thread) as the process itself reports it at the end; the empty script's medians are subtracted.
 * CPU time barely moves when other processes load the machine, wall time does. Ratios to the
 * dependencies are taken round by round (the two ran seconds apart), then their median: a burst of
 * load then moves both sides of a ratio instead of one side of a ratio of medians.
 */
function benchImports(): ImportRow[] {
  const runs = QUICK ? 3 : 31;
  const wall = IMPORTS.map(() => [] as number[]);
  const cpu = IMPORTS.map(() => [] as number[]);
  const report = 'const u = process.cpuUsage(); process.stdout.write(String(u.user + u.system));';
  for (let run = 0; run < runs; run++) {
    // Round-robin, so that a burst of load elsewhere hits every entry alike.
    IMPORTS.forEach((entry, i) => {
      const t0 = performance.now();
      const result = spawnSync(
        process.execPath,
        [`--input-type=${entry.type}`, '-e', `${entry.code}\n${report}`],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const elapsed = performance.now() - t0;
      if (result.status !== 0) throw new Error(`${entry.name}: ${result.stderr.toString()}`);
      wall[i]!.push(elapsed);
      cpu[i]!.push(Number(result.stdout.toString()) / 1000);
    });
  }
  const emptyWall = median(wall[0]!);
  const emptyCpu = median(cpu[0]!);
  const deps = IMPORTS.findIndex((entry) => entry.name.startsWith('ky + zod/mini'));
  const classic = IMPORTS.findIndex((entry) => entry.name.startsWith('ky + zod (classic)'));
  const ratios = (times: number[][], empty: number, i: number, base = deps) =>
    spread(times[i]!.map((t, run) => (t - empty) / (times[base]![run]! - empty)));
  process.stderr.write('.');
  return IMPORTS.map((entry, i) => ({
    name: entry.name,
    wall: spread(wall[i]!.map((t) => t - emptyWall)),
    cpu: spread(cpu[i]!.map((t) => t - emptyCpu)),
    wallRatio: ratios(wall, emptyWall, i),
    cpuRatio: ratios(cpu, emptyCpu, i),
    wallVsZod: ratios(wall, emptyWall, i, classic),
    cpuVsZod: ratios(cpu, emptyCpu, i, classic),
  }));
}

// ---------------------------------------------------------------------------------------------
// 4. Bundle size of each entry point with its dependencies (esbuild, ESM, minified, gzip)
// ---------------------------------------------------------------------------------------------

interface SizeRow {
  name: string;
  minBytes: number;
  gzipBytes: number;
}

// Built files by path (package self-references would go through tsconfig `paths` to `src/`).
const BUNDLES: { name: string; contents: string; platform: 'browser' | 'node' }[] = [
  {
    name: 'partner-sdk (every export)',
    contents: "export * from './dist/index.js';",
    platform: 'browser',
  },
  {
    name: 'partner-sdk ({ PartnerClient } only)',
    contents: "export { PartnerClient } from './dist/index.js';",
    platform: 'browser',
  },
  {
    name: 'reference: ky + a minimal zod/mini schema set',
    contents:
      "export { default as ky } from 'ky'; export { looseObject, string, number, boolean, nullish, array, optional, safeParse } from 'zod/mini';",
    platform: 'browser',
  },
  {
    name: 'partner-sdk/webhooks',
    contents: "export * from './dist/webhooks.js';",
    platform: 'node',
  },
  {
    name: 'partner-sdk/testing',
    contents: "export * from './dist/testing.js';",
    platform: 'node',
  },
  {
    name: 'partner-sdk/bulk',
    contents: "export * from './dist/bulk.js';",
    platform: 'node',
  },
  {
    name: 'partner-sdk/testing/msw (msw external)',
    contents: "export * from './dist/testing-msw.js';",
    platform: 'node',
  },
  // The reference SDKs' clients as a Node service would bundle them (their node builds).
  {
    name: 'reference: openai-node',
    contents: "export { default } from 'openai';",
    platform: 'node',
  },
  {
    name: 'reference: stripe-node',
    contents: "export { default } from 'stripe';",
    platform: 'node',
  },
];

/** What `npm pack` puts in the published tarball (the built `dist/` as it is now). */
interface PackSize {
  packedBytes: number;
  unpackedBytes: number;
  files: number;
}

function benchPackSize(): PackSize {
  const run = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  const [pack] = JSON.parse(run.stdout) as {
    size: number;
    unpackedSize: number;
    entryCount: number;
  }[];
  return { packedBytes: pack!.size, unpackedBytes: pack!.unpackedSize, files: pack!.entryCount };
}

/** What an on-demand chunk holds and when it loads, from the module esbuild named it after. */
function onDemandChunkName(chunkPath: string): string {
  const file = path.basename(chunkPath);
  if (file.startsWith('otel-')) return 'its OpenTelemetry chunk (loaded only with a provider)';
  if (file.startsWith('compiler-')) {
    return "zod's compiler chunk (loaded after the import, when the first client is made)";
  }
  return `an on-demand chunk (${file})`;
}

async function benchSizes(): Promise<SizeRow[]> {
  const rows: SizeRow[] = [];
  for (const entry of BUNDLES) {
    // Split as a partner's bundler splits: what `import()` loads (the OpenTelemetry code, only
    // when a provider is registered) is measured on its own row; what the entry imports
    // statically, a chunk of code shared with it included, loads with the entry.
    const result = await build({
      stdin: { contents: entry.contents, resolveDir: ROOT, loader: 'js' },
      bundle: true,
      format: 'esm',
      minify: true,
      splitting: true,
      outdir: 'bench-sizes',
      platform: entry.platform,
      external: ['msw', 'msw/*'],
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const { upFront, onDemand } = splitByLoading(result, 'stdin.js');
    const measured = (outputs: { contents: Uint8Array }[]) => ({
      minBytes: outputs.reduce((sum, output) => sum + output.contents.length, 0),
      gzipBytes: outputs.reduce((sum, o) => sum + gzipSync(o.contents, { level: 9 }).length, 0),
    });
    rows.push({ name: entry.name, ...measured(upFront) });
    if (entry.name.startsWith('partner-sdk (every')) {
      for (const chunk of onDemand) {
        rows.push({ name: `partner-sdk: ${onDemandChunkName(chunk.path)}`, ...measured([chunk]) });
      }
    }
  }
  process.stderr.write('.');
  return rows;
}

// ---------------------------------------------------------------------------------------------
// 5. Heap after many sequential calls (a child with --expose-gc and a fresh heap)
// ---------------------------------------------------------------------------------------------

interface HeapResult {
  calls: number;
  startMb: number;
  endMb: number;
}

async function heapChild(base: string, calls: number): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const client = new PartnerClient({ baseUrl: base, clientToken: BENCH_TOKEN });
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return process.memoryUsage().heapUsed / 2 ** 20;
  };
  // Warm-up: schemas compiled, connection pool and JIT settled.
  for (let i = 0; i < 200; i++) await client.products.retrieve('prd_0000000x');
  const startMb = await settle();
  for (let i = 0; i < calls; i++) await client.products.retrieve('prd_0000000x');
  const endMb = await settle();
  process.send?.({ calls, startMb, endMb } satisfies HeapResult);
}

async function benchHeap(base: string): Promise<HeapResult> {
  const child = fork(
    fileURLToPath(import.meta.url),
    ['--heap-child', base, QUICK ? '1000' : '10000'],
    {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const result = await new Promise<HeapResult>((resolve, reject) => {
    child.once('message', (message) => resolve(message as HeapResult));
    child.once('exit', (code) => reject(new Error(`heap child exited (${code})`)));
  });
  child.kill();
  process.stderr.write('.');
  return result;
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

/** The calls table: each call timed against ky and raw fetch, with its verdict. */
function callsReport(calls: CallRow[]): string[] {
  const lines: string[] = [];
  const out = (...more: string[]) => lines.push(...more);
  out(
    '## Calls',
    '',
    // This section may be measured on its own (--calls-only), apart from the header's run.
    `${new Date().toISOString()} · load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    '',
    '"raw" is `fetch` + `JSON.parse` of the same URL; "ky" is `ky.get(url).json()` on a `ky.create()` ' +
      "instance; \"SDK on/off\" is the SDK method with `validateResponses: 'strict'` / `'off'` (the " +
      'default logger, level `warn`). Same headers everywhere; the server is a child process on ' +
      "loopback. Each variant runs in a worker process of its own, as a partner's process runs the " +
      "SDK and not ky beside it: in one process the variants share ky's and undici's optimised " +
      'code, which then serves callers of different shapes and is deoptimised for whichever runs ' +
      'next, inflating one side of a ratio. Each worker warms up its own variant; then the rounds ' +
      'alternate across the workers, one timing a block while the others idle, so a busy machine ' +
      "slows both sides of a ratio alike. Wall time per call, and CPU time of the worker's own " +
      'process. Each cell: median (min–max) of the per-round ratios.',
    '',
    '| call | c | raw µs/call | ky ÷ raw | SDK on ÷ raw | SDK on ÷ ky | SDK off ÷ ky | SDK on ÷ ky, CPU | ≤ 1.1 × ky (wall / CPU) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const row of calls) {
    const target = row.target
      ? `${timingVerdict(row.onVsKy.median <= 1.1)} / ${timingVerdict(row.cpuOnVsKy.median <= 1.1)}`
      : '—';
    out(
      `| ${row.name} | ${row.concurrency} | ${fmt(row.rawUs, 0)} | ${fmtSpread(row.kyVsRaw)} | ` +
        `${fmtSpread(row.onVsRaw)} | ${fmtSpread(row.onVsKy)} | ${fmtSpread(row.offVsKy)} | ` +
        `${fmtSpread(row.cpuOnVsKy)} | ${target} |`,
    );
  }
  return lines;
}

function report(
  calls: CallRow[],
  references: ReferenceRow[],
  validation: ValidationRow[],
  imports: ImportRow[],
  sizes: SizeRow[],
  heap: HeapResult,
): string {
  const cpus = os.cpus();
  const lines: string[] = [];
  const out = (...more: string[]) => lines.push(...more);
  out(
    `# partner-sdk benchmark${QUICK ? ' (quick mode: few rounds, indicative only; timings read pass? / fail?, verdicts come from a full run)' : ''}`,
    '',
  );
  out(
    `${new Date().toISOString()} · Node ${process.version} · ${os.platform()} ${os.arch()} · ` +
      `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'} · load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    '',
    'Generated by `node bench/run.ts` (see its header). Verdicts are against the budgets; a busy machine ' +
      'shows in the min–max spreads, which is why every timing is a ratio of A/B rounds alternated ' +
      'block by block (one block timing at a time), and why CPU-time ratios are shown beside ' +
      'wall-clock ones.',
    '',
  );
  out(...callsReport(calls));
  out(
    '',
    '## The same calls through openai-node and stripe-node',
    '',
    'A ~5 KB list (3 products), the page and the product above, from the same server, each SDK ' +
      'its own way: openai-node as its methods call (`getAPIList()` with its `Page` for lists, as ' +
      '`models.list()` does; `get()` for the product, as `models.retrieve()` does), stripe-node by ' +
      '`rawRequest()` (on `node:http`, not `fetch`, so it can beat raw fetch), ours with strict ' +
      'validation (the others validate nothing). Ratios to raw `fetch` + `JSON.parse` of the same ' +
      'URL, and ours to openai-node, per round. The budget quotes openai-node at ≈ 1.8 × raw on a 5 KB ' +
      'list and asks ours to be ahead of it, and ≈ 1.4 × raw on the page.',
    '',
    '| call | c | raw µs/call | ky ÷ raw | partner-sdk ÷ raw | openai-node ÷ raw | stripe-node ÷ raw | partner-sdk ÷ openai-node (wall / CPU) | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const row of references) {
    const target = row.name.startsWith('products.list (3')
      ? `ahead of openai-node: ${timingVerdict(row.sdkVsOpenai.median < 1)}`
      : row.name.startsWith('products.list (50')
        ? `≤ 1.4 × raw: ${timingVerdict(row.vsRaw.sdk.median <= 1.4)}`
        : '—';
    out(
      `| ${row.name} | ${row.concurrency} | ${fmt(row.rawUs, 0)} | ${fmtSpread(row.vsRaw.ky)} | ` +
        `${fmtSpread(row.vsRaw.sdk)} | ${fmtSpread(row.vsRaw.openai)} | ${fmtSpread(row.vsRaw.stripe)} | ` +
        `${fmtSpread(row.sdkVsOpenai)} / ${fmtSpread(row.cpuSdkVsOpenai)} | ${target} |`,
    );
  }
  out(
    '',
    '## Response validation alone (CPU, per payload)',
    '',
    '"SDK" is what a call runs: zod\'s check (`z.validate`) on the schema zod compiled (`z.compile`, ' +
      "built on the schema's first use); a body that passes is returned as it came, no copy built. " +
      "zod's interpreted parser and `z.compile`'s parser called directly are shown for reference. " +
      'Ratios are to the `JSON.parse` of the same body, per round.',
    '',
    '| payload | bytes | JSON.parse µs | SDK µs (÷ parse) | zod runtime µs (÷ parse) | z.compile µs (÷ parse) | SDK ≤ 0.5 × parse |',
    '|---|---:|---:|---:|---:|---:|---|',
  );
  for (const row of validation) {
    out(
      `| ${row.name} | ${row.bytes} | ${fmt(row.parseUs, 1)} | ${fmt(row.sdkUs, 1)} (${fmtSpread(row.sdk)}) | ` +
        `${fmt(row.runtimeUs, 1)} (${fmtSpread(row.runtime)}) | ${fmt(row.compiledUs, 1)} (${fmtSpread(row.compiled)}) | ` +
        `${row.target ? timingVerdict(row.sdk.median <= 0.5) : '—'} |`,
    );
  }
  out(
    '',
    '## Cold import (a whole process, minus an empty script)',
    '',
    "ms, median (min–max) over fresh processes, round-robin. CPU is the process's own CPU time " +
      '(every thread), which load elsewhere barely moves. Ratios are taken per round, then their ' +
      'median (min–max): to our dependencies (ky + zod/mini, "deps"), and to ky + zod, the ' +
      "baseline the budget names (`zod`'s main entry, which loads more than zod/mini). The target " +
      "is checked against both; the stricter, ky + zod/mini, is the SDK's own cost.",
    '',
    '| import | wall ms | CPU ms | wall ÷ deps | CPU ÷ deps | wall / CPU ÷ ky + zod | ≤ 1.1 × ky + zod (wall / CPU) | ≤ 1.1 × deps (wall / CPU) | below openai and stripe (wall / CPU) |',
    '|---|---:|---:|---:|---:|---:|---|---|---|',
  );
  const otherSdks = imports.filter((row) => row.name.endsWith('(reference)'));
  const below = (of: (row: ImportRow) => number, row: ImportRow) =>
    timingVerdict(otherSdks.every((other) => of(row) < of(other)));
  for (const row of imports.slice(1)) {
    const ours = row.name === 'partner-sdk';
    out(
      `| ${row.name} | ${fmtSpread(row.wall, 1)} | ${fmtSpread(row.cpu, 1)} | ${fmtSpread(row.wallRatio)} | ${fmtSpread(row.cpuRatio)} | ` +
        `${fmt(row.wallVsZod.median)} / ${fmt(row.cpuVsZod.median)} | ` +
        `${ours ? `${timingVerdict(row.wallVsZod.median <= 1.1)} / ${timingVerdict(row.cpuVsZod.median <= 1.1)}` : '—'} | ` +
        `${ours ? `${timingVerdict(row.wallRatio.median <= 1.1)} / ${timingVerdict(row.cpuRatio.median <= 1.1)}` : '—'} | ` +
        `${ours ? `${below((r) => r.wall.median, row)} / ${below((r) => r.cpu.median, row)}` : '—'} |`,
    );
  }
  out('', ...sizesReport(sizes, benchPackSize()));
  const growth = heap.endMb - heap.startMb;
  out(
    '',
    '## Heap',
    '',
    'A fresh process with `--expose-gc`: 200 warm-up calls, GC, then sequential calls, GC.',
    '',
    '| sequential products.retrieve calls | heap after warm-up, MB | heap after, MB | growth MB | ≤ 5 MB |',
    '|---:|---:|---:|---:|---|',
    `| ${heap.calls} | ${fmt(heap.startMb)} | ${fmt(heap.endMb)} | ${fmt(growth)} | ${verdict(growth <= 5)} |`,
    '',
  );
  return lines.join('\n');
}

/** The bundle-size table and the published tarball's size: one section of RESULTS.md. */
function sizesReport(sizes: SizeRow[], pack: PackSize): string[] {
  const lines: string[] = [];
  const out = (...more: string[]) => lines.push(...more);
  out(
    '## Bundle size (esbuild, ESM, minified, with dependencies)',
    '',
    `${new Date().toISOString()} · measured on the built \`dist/\`, split as a partner's bundler splits it: the root rows count what loads with the import; the chunks loaded later have rows of their own.`,
    '',
    'KB here is 1,024 bytes (KiB); the gzip size is also given in bytes.',
    '',
    '| entry | min KB | min+gzip KB | min+gzip bytes | root ≤ 48 KiB |',
    '|---|---:|---:|---:|---|',
  );
  // The root's ceiling, the same as `npm run lint:bundle` holds (scripts/check-bundle.mjs).
  const ceilingBytes = 48 * 1024;
  for (const row of sizes) {
    const ours = row.name.startsWith('partner-sdk (every');
    out(
      `| ${row.name} | ${fmt(row.minBytes / 1024, 1)} | ${fmt(row.gzipBytes / 1024, 1)} | ` +
        `${row.gzipBytes} | ` +
        `${ours ? verdict(row.gzipBytes <= ceilingBytes) : '—'} |`,
    );
  }
  out(
    '',
    'The published tarball (`npm pack` of the built package: what `npm install partner-sdk` downloads):',
    '',
    '| package | packed KB | unpacked KB | files |',
    '|---|---:|---:|---:|',
    `| partner-sdk | ${fmt(pack.packedBytes / 1024, 1)} | ${fmt(pack.unpackedBytes / 1024, 1)} | ${pack.files} |`,
  );
  return lines;
}

/** Runs only the sizes; writes their section into RESULTS.md in place. */
async function sizesOnly(): Promise<void> {
  const section = [...sizesReport(await benchSizes(), benchPackSize()), ''].join('\n');
  process.stderr.write('\n');
  console.log(section);
  replaceSection('## Bundle size', section);
}

/** Replaces the section of RESULTS.md starting with `heading` (or appends it). */
function replaceSection(heading: string, section: string): void {
  const file = new URL('./RESULTS.md', import.meta.url);
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(heading);
  const end = start === -1 ? -1 : text.indexOf('\n## ', start + 1);
  const next =
    start === -1
      ? `${text.trimEnd()}\n\n${section}`
      : `${text.slice(0, start)}${section}${end === -1 ? '' : text.slice(end)}`;
  writeFileSync(file, next);
}

/** Runs only the calls table; writes its section into RESULTS.md in place. */
async function callsOnly(): Promise<void> {
  const server = await startServer();
  try {
    const section = [...callsReport(await benchCalls(server.base)), ''].join('\n');
    process.stderr.write('\n');
    console.log(section);
    if (!QUICK) replaceSection('## Calls\n', section);
  } finally {
    server.stop();
  }
}

/** Runs only the bulk row; a full run writes its section into RESULTS.md in place. */
async function bulkOnly(): Promise<void> {
  const section = bulkReport(await benchBulk(QUICK), timingVerdict).join('\n');
  process.stderr.write('\n');
  console.log(section);
  if (QUICK) return;
  replaceSection('## Bulk:', section);
}

/** Runs only the fleet row; a full run writes its section into RESULTS.md in place. */
async function fleetOnly(): Promise<void> {
  const section = fleetReport(await benchFleet(QUICK), timingVerdict).join('\n');
  process.stderr.write('\n');
  console.log(section);
  if (!QUICK) replaceSection('## Fleet:', section);
}

/** Counts only the calls in instructions; writes their section into RESULTS.md in place. */
async function instructionsOnly(): Promise<void> {
  const section = [...instructionsReport(await benchInstructions(false), verdict)].join('\n');
  process.stderr.write('\n');
  console.log(section);
  replaceSection('## Calls in instructions', section);
}

/** Counts only the telemetry rows in instructions; writes their section into RESULTS.md in place. */
async function telemetryInstructionsOnly(): Promise<void> {
  const result = await benchTelemetryInstructions(false);
  const section = telemetryInstructionsReport(result, verdict).join('\n');
  process.stderr.write('\n');
  console.log(section);
  replaceSection('## Telemetry in instructions', section);
}

/** Runs only the telemetry rows; a full run writes their section into RESULTS.md in place. */
async function telemetryOnly(): Promise<void> {
  const server = await startServer();
  try {
    const rows = await benchTelemetry({
      base: server.base,
      token: BENCH_TOKEN,
      quick: QUICK,
      alternateBlocks,
    });
    const section = telemetryReport(rows, timingVerdict).join('\n');
    process.stderr.write('\n');
    console.log(section);
    if (!QUICK) replaceSection('## Telemetry:', section);
  } finally {
    server.stop();
  }
}

async function main(): Promise<void> {
  const heapArg = process.argv.indexOf('--heap-child');
  if (heapArg !== -1) {
    await heapChild(process.argv[heapArg + 1]!, Number(process.argv[heapArg + 2]));
    return;
  }
  if (CALLS_ONLY) {
    await callsOnly();
    return;
  }
  if (BULK_ONLY) {
    await bulkOnly();
    return;
  }
  if (SIZES_ONLY) {
    await sizesOnly();
    return;
  }
  const server = await startServer();
  try {
    const calls = await benchCalls(server.base);
    const references = await benchReferences(server.base);
    const validation = await benchValidation(server.base);
    const heap = await benchHeap(server.base);
    const imports = benchImports();
    const sizes = await benchSizes();
    const bulk = await benchBulk(QUICK);
    const fleet = await benchFleet(QUICK);
    const telemetry = await benchTelemetry({
      base: server.base,
      token: BENCH_TOKEN,
      quick: QUICK,
      alternateBlocks,
    });
    const instructions = await benchInstructions(QUICK);
    const telemetryInstructions = await benchTelemetryInstructions(QUICK);
    const text = [
      report(calls, references, validation, imports, sizes, heap),
      ...instructionsReport(instructions, verdict),
      ...bulkReport(bulk, timingVerdict),
      '',
      ...fleetReport(fleet, timingVerdict),
      '',
      ...telemetryReport(telemetry, timingVerdict),
      '',
      ...telemetryInstructionsReport(telemetryInstructions, verdict),
    ].join('\n');
    process.stderr.write('\n');
    console.log(text);
    if (!QUICK) writeFileSync(new URL('./RESULTS.md', import.meta.url), text);
  } finally {
    server.stop();
  }
}

await main();
