/**
 * The SDK's own cost, measured (issue 8). Run with the repo's Node 24 after a build:
 *
 *   npm run build && node bench/run.ts            full run, writes bench/RESULTS.md
 *   node bench/run.ts --quick                     seconds; prints only (CI: keeps the bench alive)
 *
 * It benchmarks the built `dist/` (the package imports itself by name, so `partner-sdk` resolves
 * through package.json `exports` to what partners install), with Node's own type stripping for
 * this file. Timings are ratios of A/B rounds alternated in one process, so a busy machine slows
 * both sides alike; verdicts are printed, never asserted: the exit code says only whether the
 * benchmark itself ran.
 */

import { fork, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import ky from 'ky';
import {
  AnticipationListResponseSchema,
  PartnerClient,
  ProductListResponseSchema,
  ProductSchema,
  RefundStatusResponseSchema,
  type Schema,
} from 'partner-sdk';
import * as z from 'zod/mini';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUICK = process.argv.includes('--quick');
const TOKEN = 'bench-client-token';

// ---------------------------------------------------------------------------------------------
// The loopback service (a child process)
// ---------------------------------------------------------------------------------------------

async function startServer(): Promise<{ base: string; stop: () => void }> {
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  return { base: `http://127.0.0.1:${port}/api/v1`, stop: () => child.kill() };
}

// ---------------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------------

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

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

// ---------------------------------------------------------------------------------------------
// 1. Calls: SDK vs ky vs raw fetch, alternated in rounds
// ---------------------------------------------------------------------------------------------

interface Case {
  name: string;
  path: string;
  schema: Schema;
  sdk: (client: PartnerClient) => PromiseLike<unknown>;
  /** Calls per variant per round at c=1 (c=32 uses twice as many). */
  calls: number;
  target: boolean;
}

const CASES: Case[] = [
  {
    name: 'products.list (50, ~75 KB)',
    path: '/products?per_page=50',
    schema: ProductListResponseSchema,
    sdk: (client) => client.products.list({ per_page: 50 }),
    calls: 60,
    target: true,
  },
  {
    name: 'products.retrieve (~1.5 KB)',
    path: '/products/prd_0000000x',
    schema: ProductSchema,
    sdk: (client) => client.products.retrieve('prd_0000000x'),
    calls: 300,
    target: true,
  },
  {
    name: 'anticipations.list (100)',
    path: '/financial/anticipation?per_page=100',
    schema: AnticipationListResponseSchema,
    sdk: (client) => client.anticipations.list({ per_page: 100 }),
    calls: 150,
    target: false,
  },
  {
    name: 'refunds.retrieveStatus',
    path: '/financial/refund/tx_0001/status',
    schema: RefundStatusResponseSchema,
    sdk: (client) => client.refunds.retrieveStatus('tx_0001'),
    calls: 300,
    target: false,
  },
];

type Call = () => PromiseLike<unknown>;

/** Milliseconds per call of `n` calls run `concurrency` at a time. */
async function timeCalls(call: Call, n: number, concurrency: number): Promise<number> {
  let started = 0;
  const worker = async () => {
    while (started++ < n) await call();
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (performance.now() - t0) / n;
}

interface CallRow {
  name: string;
  concurrency: number;
  target: boolean;
  rawUs: number;
  kyVsRaw: Spread;
  onVsRaw: Spread;
  onVsKy: Spread;
  offVsKy: Spread;
}

async function benchCalls(base: string): Promise<CallRow[]> {
  const headers = { Accept: 'application/json', 'X-Api-Client-Token': TOKEN };
  const api = ky.create({ headers });
  const clients = {
    on: new PartnerClient({ baseUrl: base, clientToken: TOKEN, validateResponses: 'strict' }),
    off: new PartnerClient({ baseUrl: base, clientToken: TOKEN, validateResponses: 'off' }),
  };
  const rounds = QUICK ? 3 : 15;
  const rows: CallRow[] = [];
  for (const testCase of CASES) {
    const url = `${base}${testCase.path}`;
    const variants: Record<'raw' | 'ky' | 'on' | 'off', Call> = {
      raw: async () => {
        const response = await fetch(url, { headers });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return JSON.parse(await response.text());
      },
      ky: () => api.get(url).json(),
      on: () => testCase.sdk(clients.on),
      off: () => testCase.sdk(clients.off),
    };
    const names = Object.keys(variants) as (keyof typeof variants)[];
    for (const concurrency of [1, 32]) {
      const n = Math.max(
        concurrency,
        Math.round((QUICK ? testCase.calls / 6 : testCase.calls) * (concurrency > 1 ? 2 : 1)),
      );
      for (const name of names) await timeCalls(variants[name], n, concurrency); // warm-up
      const ratios = { kyVsRaw: [], onVsRaw: [], onVsKy: [], offVsKy: [] } as Record<
        'kyVsRaw' | 'onVsRaw' | 'onVsKy' | 'offVsKy',
        number[]
      >;
      const raws: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const t = {} as Record<keyof typeof variants, number>;
        // Rotate the order so that no variant always runs first (or right after a GC-heavy one).
        for (let i = 0; i < names.length; i++) {
          const name = names[(i + round) % names.length]!;
          t[name] = await timeCalls(variants[name], n, concurrency);
        }
        raws.push(t.raw);
        ratios.kyVsRaw.push(t.ky / t.raw);
        ratios.onVsRaw.push(t.on / t.raw);
        ratios.onVsKy.push(t.on / t.ky);
        ratios.offVsKy.push(t.off / t.ky);
      }
      rows.push({
        name: testCase.name,
        concurrency,
        target: testCase.target,
        rawUs: median(raws) * 1000,
        kyVsRaw: spread(ratios.kyVsRaw),
        onVsRaw: spread(ratios.onVsRaw),
        onVsKy: spread(ratios.onVsKy),
        offVsKy: spread(ratios.offVsKy),
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
  runtimeUs: number;
  compiledUs: number;
  runtime: Spread;
  compiled: Spread;
  target: boolean;
}

/** Microseconds per run of `fn`, over enough iterations to last about `ms`. */
function timeSync(fn: () => unknown, iterations: number): number {
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  return ((performance.now() - t0) * 1000) / iterations;
}

async function benchValidation(base: string): Promise<ValidationRow[]> {
  const rows: ValidationRow[] = [];
  const rounds = QUICK ? 3 : 15;
  for (const testCase of CASES) {
    const text = await (await fetch(`${base}${testCase.path}`)).text();
    const value = JSON.parse(text);
    // The SDK runs its response schemas through zod's AOT compiler (falling back to the runtime
    // parser where `new Function` is refused); both are measured.
    const compiled = z.compile(testCase.schema);
    const check = (schema: Schema) => {
      const result = z.safeParse(schema, value);
      if (!result.success) throw new Error(`${testCase.name}: fixture does not validate`);
      return result;
    };
    check(testCase.schema);
    check(compiled);
    const iterations = Math.max(5, Math.round((QUICK ? 2_000_000 : 20_000_000) / text.length));
    const parse = () => JSON.parse(text);
    for (const fn of [parse, () => check(testCase.schema), () => check(compiled)]) {
      timeSync(fn, iterations); // warm-up
    }
    const p: number[] = [];
    const r: number[] = [];
    const c: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const tp = timeSync(parse, iterations);
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
    name: 'ky + zod/mini (our deps)',
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
];

interface ImportRow {
  name: string;
  ms: number;
  min: number;
  max: number;
}

function benchImports(): ImportRow[] {
  const runs = QUICK ? 3 : 12;
  const times = IMPORTS.map(() => [] as number[]);
  for (let run = 0; run < runs; run++) {
    // Round-robin, so that a burst of load elsewhere hits every entry alike.
    IMPORTS.forEach((entry, i) => {
      const t0 = performance.now();
      const result = spawnSync(process.execPath, [`--input-type=${entry.type}`, '-e', entry.code], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const elapsed = performance.now() - t0;
      if (result.status !== 0) throw new Error(`${entry.name}: ${result.stderr.toString()}`);
      times[i]!.push(elapsed);
    });
  }
  const empty = median(times[0]!);
  process.stderr.write('.');
  return IMPORTS.map((entry, i) => {
    const own = times[i]!.map((t) => t - empty);
    return { name: entry.name, ms: median(own), min: Math.min(...own), max: Math.max(...own) };
  });
}

// ---------------------------------------------------------------------------------------------
// 4. Bundle size of each entry point with its dependencies (esbuild, ESM, minified, gzip)
// ---------------------------------------------------------------------------------------------

interface SizeRow {
  name: string;
  minBytes: number;
  gzipBytes: number;
}

const BUNDLES: { name: string; contents: string; platform: 'browser' | 'node' }[] = [
  {
    name: 'partner-sdk (every export)',
    contents: "export * from 'partner-sdk';",
    platform: 'browser',
  },
  {
    name: 'partner-sdk ({ PartnerClient } only)',
    contents: "export { PartnerClient } from 'partner-sdk';",
    platform: 'browser',
  },
  {
    name: 'ky + zod/mini alone',
    contents: "export * from 'ky'; export * from 'zod/mini';",
    platform: 'browser',
  },
  {
    name: 'partner-sdk/webhooks',
    contents: "export * from 'partner-sdk/webhooks';",
    platform: 'node',
  },
  {
    name: 'partner-sdk/testing',
    contents: "export * from 'partner-sdk/testing';",
    platform: 'node',
  },
  {
    name: 'partner-sdk/testing/msw (msw external)',
    contents: "export * from 'partner-sdk/testing/msw';",
    platform: 'node',
  },
];

async function benchSizes(): Promise<SizeRow[]> {
  const rows: SizeRow[] = [];
  for (const entry of BUNDLES) {
    const result = await build({
      stdin: { contents: entry.contents, resolveDir: ROOT, loader: 'js' },
      bundle: true,
      format: 'esm',
      minify: true,
      platform: entry.platform,
      external: ['msw', 'msw/*'],
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.contents;
    rows.push({
      name: entry.name,
      minBytes: code.length,
      gzipBytes: gzipSync(code, { level: 9 }).length,
    });
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
  const client = new PartnerClient({ baseUrl: base, clientToken: TOKEN });
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

function report(
  calls: CallRow[],
  validation: ValidationRow[],
  imports: ImportRow[],
  sizes: SizeRow[],
  heap: HeapResult,
): string {
  const cpus = os.cpus();
  const lines: string[] = [];
  lines.push(`# partner-sdk benchmark${QUICK ? ' (quick mode: few rounds, indicative only)' : ''}`);
  lines.push('');
  lines.push(
    `${new Date().toISOString()} · Node ${process.version} · ${os.platform()} ${os.arch()} · ` +
      `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'} · load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  lines.push('');
  lines.push(
    'Ratios are per round (A/B alternated in one process, order rotated), shown as median (min–max). ' +
      '"raw" is `fetch` + `JSON.parse` of the same URL; "ky" is `ky.get(url).json()`; "SDK on/off" is ' +
      "the SDK method with `validateResponses: 'strict'` / `'off'`. The server is a child process on loopback.",
  );
  lines.push('');
  lines.push('## Calls');
  lines.push('');
  lines.push(
    '| call | c | raw µs/call | ky ÷ raw | SDK on ÷ raw | SDK on ÷ ky | SDK off ÷ ky | target ≤ 1.1 × ky |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const row of calls) {
    lines.push(
      `| ${row.name} | ${row.concurrency} | ${fmt(row.rawUs, 0)} | ${fmtSpread(row.kyVsRaw)} | ${fmtSpread(row.onVsRaw)} | ` +
        `${fmtSpread(row.onVsKy)} | ${fmtSpread(row.offVsKy)} | ${row.target ? verdict(row.onVsKy.median <= 1.1) : '—'} |`,
    );
  }
  lines.push('');
  lines.push('## Response validation alone (CPU, per payload)');
  lines.push('');
  lines.push(
    "The SDK compiles each response schema on first use with zod's AOT compiler (`z.compile`), and uses " +
      "zod's runtime parser where `new Function` is refused or `z.config({ jitless: true })` is set.",
  );
  lines.push('');
  lines.push(
    '| payload | bytes | JSON.parse µs | runtime parser µs (÷ parse) | compiled µs (÷ parse) | target ≤ 0.5 × parse |',
  );
  lines.push('|---|---:|---:|---:|---:|---|');
  for (const row of validation) {
    lines.push(
      `| ${row.name} | ${row.bytes} | ${fmt(row.parseUs, 1)} | ${fmt(row.runtimeUs, 1)} (${fmtSpread(row.runtime)}) | ` +
        `${fmt(row.compiledUs, 1)} (${fmtSpread(row.compiled)}) | ${row.target ? verdict(row.compiled.median <= 0.5) : '—'} |`,
    );
  }
  lines.push('');
  lines.push('## Cold import (whole process minus an empty script)');
  lines.push('');
  const deps = imports.find((row) => row.name.startsWith('ky + zod/mini'))!;
  lines.push('| import | ms, median (min–max) | ÷ ky + zod/mini | target ≤ 1.1 × |');
  lines.push('|---|---:|---:|---|');
  for (const row of imports.slice(1)) {
    const ratio = row.ms / deps.ms;
    lines.push(
      `| ${row.name} | ${fmt(row.ms, 1)} (${fmt(row.min, 1)}–${fmt(row.max, 1)}) | ${fmt(ratio)} | ` +
        `${row.name === 'partner-sdk' ? verdict(ratio <= 1.1) : '—'} |`,
    );
  }
  lines.push('');
  lines.push('## Bundle size (esbuild, ESM, minified, with dependencies)');
  lines.push('');
  lines.push('| entry | min KB | min+gzip KB | target ≤ 30 KB |');
  lines.push('|---|---:|---:|---|');
  for (const row of sizes) {
    lines.push(
      `| ${row.name} | ${fmt(row.minBytes / 1024, 1)} | ${fmt(row.gzipBytes / 1024, 1)} | ` +
        `${row.name.startsWith('partner-sdk (every') ? verdict(row.gzipBytes <= 30 * 1024) : '—'} |`,
    );
  }
  lines.push('');
  lines.push('## Heap');
  lines.push('');
  const growth = heap.endMb - heap.startMb;
  lines.push(
    '| sequential products.retrieve calls | heap after warm-up, MB | heap after, MB | growth MB | target ≤ 5 MB |',
  );
  lines.push('|---:|---:|---:|---:|---|');
  lines.push(
    `| ${heap.calls} | ${fmt(heap.startMb)} | ${fmt(heap.endMb)} | ${fmt(growth)} | ${verdict(growth <= 5)} |`,
  );
  lines.push('');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const heapArg = process.argv.indexOf('--heap-child');
  if (heapArg !== -1) {
    await heapChild(process.argv[heapArg + 1]!, Number(process.argv[heapArg + 2]));
    return;
  }
  const server = await startServer();
  try {
    const calls = await benchCalls(server.base);
    const validation = await benchValidation(server.base);
    const heap = await benchHeap(server.base);
    const imports = benchImports();
    const sizes = await benchSizes();
    const text = report(calls, validation, imports, sizes, heap);
    process.stderr.write('\n');
    console.log(text);
    if (!QUICK) writeFileSync(new URL('./RESULTS.md', import.meta.url), text);
  } finally {
    server.stop();
  }
}

await main();
