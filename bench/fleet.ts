/**
 * The fleet row: four processes share one rate limit. 4 × N refund requests against
 * the testing kit's loopback server (`bulk-server.ts`, its own process) limited to R a second
 * with a few milliseconds of latency, run (a) by four processes each pacing itself
 * (`requestRefunds`), (b) by four processes through one `fleetPace` on a real redis-server, and
 * (c) by four BullMQ workers (`refundProcessor`, their client on the same fleet pace) fed by one
 * producer. Verdicts for (b) and (c): within 1.1 × 4N / R s, under 1 % of requests answered 429,
 * no duplicate refund; (a) is shown beside them. Run alone: `node bench/fleet.ts [--quick]`.
 */

import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { enqueueRefunds, followBatch } from 'partner-sdk/bullmq';

const { startRedisServer } = (await import(
  new URL('../test/helpers/redis-server.ts', import.meta.url).href
)) as typeof import('../test/helpers/redis-server');

const PROCESSES = 4;
const LATENCY_MS = 3;

export interface FleetRun {
  name: string;
  seconds: number;
  requests: number;
  rateLimited: number;
  failed: number;
  refunded: number;
  duplicates: number;
  /** Redis commands the pace sent per refund request, where a fleet pace ran. */
  redisPerCall: number | undefined;
}

export interface FleetResult {
  perProcess: number;
  /** Refund requests per second four processes got from the kit unlimited, just before. */
  capacity: number;
  requestsPerSecond: number;
  idealSeconds: number;
  runs: FleetRun[];
}

interface Service {
  url: string;
  clientToken: string;
  sellerToken: string;
  hashes: string[];
  stats(): Promise<{ requests: number; rateLimited: number; duplicates: number; refunded: number }>;
}

async function startService(count: number, requestsPerSecond: number): Promise<Service> {
  const child = fork(fileURLToPath(new URL('./bulk-server.ts', import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.send({ count, requestsPerSecond, latencyMs: LATENCY_MS });
  const ready = await nextMessage<Omit<Service, 'stats'>>(child);
  return {
    ...ready,
    stats: async () => {
      child.send({ type: 'stats' });
      const stats = await nextMessage<Awaited<ReturnType<Service['stats']>>>(child);
      child.kill();
      return stats;
    },
  };
}

function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const gone = (code: number | null) => reject(new Error(`child exited (${code})`));
    child.once('exit', gone);
    child.once('message', (message) => {
      child.off('exit', gone);
      resolve(message as T);
    });
  });
}

function startWorkers(mode: string, service: Service, redisUrl: string, rate: number, queue = '') {
  return Array.from({ length: PROCESSES }, () =>
    fork(fileURLToPath(new URL('./fleet-worker.ts', import.meta.url)), {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: {
        ...process.env,
        MODE: mode,
        BASE_URL: service.url,
        CLIENT_TOKEN: service.clientToken,
        SELLER_TOKEN: service.sellerToken,
        REDIS_URL: redisUrl,
        RATE: String(rate),
        QUEUE: queue,
      },
    }),
  );
}

interface Done {
  failed: number;
  redisCommands: number;
}

/** (a) and (b): each process gets its share of the hashes; timed from the go to the last answer. */
async function runShares(name: string, mode: string, n: number, rate: number, redisUrl: string) {
  const service = await startService(PROCESSES * n, rate);
  const workers = startWorkers(mode, service, redisUrl, rate);
  await Promise.all(workers.map((w) => nextMessage(w)));
  const answers = workers.map((w) => nextMessage<Done>(w));
  const t0 = performance.now();
  for (const [i, w] of workers.entries()) {
    w.send({ hashes: service.hashes.slice(i * n, (i + 1) * n) });
  }
  const done = await Promise.all(answers);
  const seconds = (performance.now() - t0) / 1000;
  return finish(name, mode !== 'local', seconds, done, service);
}

/** (c): one producer (this process) enqueues every refund; timed until the batch is done. */
async function runQueue(n: number, rate: number, redisUrl: string) {
  const service = await startService(PROCESSES * n, rate);
  const url = new URL(redisUrl);
  const connection = { host: url.hostname, port: Number(url.port), maxRetriesPerRequest: null };
  const queue = new Queue('bench-refunds', { connection });
  const workers = startWorkers('bullmq', service, redisUrl, rate, 'bench-refunds');
  await Promise.all(workers.map((w) => nextMessage(w)));
  const t0 = performance.now();
  const items = service.hashes.map((transactionHash) => ({ transactionHash }));
  await enqueueRefunds(queue, items, { backoffMs: 200 });
  const last = await followBatch(queue, { total: items.length, intervalMs: 100 });
  const seconds = (performance.now() - t0) / 1000;
  const answers = workers.map((w) => nextMessage<Done>(w));
  for (const w of workers) w.send({ stop: true });
  const done = (await Promise.all(answers)).map((d) => ({ ...d, failed: 0 }));
  done[0]!.failed = last.failed;
  await queue.close();
  return finish('(c) BullMQ, 4 workers (fleet pace)', true, seconds, done, service);
}

async function finish(
  name: string,
  paced: boolean,
  seconds: number,
  done: Done[],
  service: Service,
): Promise<FleetRun> {
  const stats = await service.stats();
  const commands = done.reduce((sum, d) => sum + d.redisCommands, 0);
  process.stderr.write('.');
  return {
    name,
    seconds,
    failed: done.reduce((sum, d) => sum + d.failed, 0),
    ...stats,
    redisPerCall: paced ? commands / stats.requests : undefined,
  };
}

/**
 * R: 500 a second (250 quick), or half of what four processes got from the kit unlimited here if
 * that is lower (the kit serves on the same cores as the fleet: past that, the machine and not R
 * would set the pace). Each process gets R × 5 s of work (R × 1 s quick): 2,500 at R = 500.
 */
async function choose(quick: boolean, redisUrl: string) {
  const probe = await runShares('capacity', 'local', 100, 1e9, redisUrl);
  const capacity = (PROCESSES * 100) / probe.seconds;
  const ceiling = quick ? 250 : 500;
  const requestsPerSecond = Math.max(20, Math.min(ceiling, Math.floor(capacity / 2 / 10) * 10));
  return { capacity, requestsPerSecond, perProcess: requestsPerSecond * (quick ? 1 : 5) };
}

export async function benchFleet(quick: boolean): Promise<FleetResult> {
  const redis = await startRedisServer();
  try {
    const { capacity, requestsPerSecond, perProcess } = await choose(quick, redis.url);
    const runs = [
      await runShares(
        '(a) 4 processes, each its own pace',
        'local',
        perProcess,
        requestsPerSecond,
        redis.url,
      ),
      await runShares(
        '(b) 4 processes, one fleet pace',
        'fleet',
        perProcess,
        requestsPerSecond,
        redis.url,
      ),
      await runQueue(perProcess, requestsPerSecond, redis.url),
    ];
    const idealSeconds = (PROCESSES * perProcess) / requestsPerSecond;
    return { perProcess, requestsPerSecond, capacity, idealSeconds, runs };
  } finally {
    await redis.close();
  }
}

/** The fleet section of the report. */
export function fleetReport(result: FleetResult, verdict: (ok: boolean) => string): string[] {
  const { perProcess, requestsPerSecond: rate, idealSeconds, capacity } = result;
  const total = PROCESSES * perProcess;
  const lines = [
    '## Fleet: four processes, one rate limit',
    '',
    `${new Date().toISOString()} · load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores. Four processes got ${capacity.toFixed(0)} refund ` +
      'requests a second from the kit unlimited just before; R is 500, or half that if lower, and each ' +
      'process gets R × 5 s of work (2,500 refunds at R = 500).',
    '',
    `${PROCESSES} processes × ${perProcess.toLocaleString('en')} refund requests against the testing kit on loopback ` +
      `(a child process) limited to R = ${rate} a second (token bucket, one second of burst, 429 with Retry-After in ` +
      `whole seconds) with ${LATENCY_MS} ms of latency, a real redis-server beside it; ideal ${total} / R = ` +
      `${idealSeconds.toFixed(1)} s. The fleet pace starts at R (\`requestsPerSecond: R\`) and adapts. ` +
      "Duplicates are counted from the kit's state. Redis per call: the pace's commands per request sent.",
    '',
    '| run | seconds | ÷ ideal | requests | 429s | 429 % | failed | duplicates | Redis per call | ≤ 1.1 × ideal | 429s < 1 % | 0 duplicates |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|',
  ];
  for (const run of result.runs) {
    const judged = !run.name.startsWith('(a)');
    const share = run.requests ? (run.rateLimited / run.requests) * 100 : 0;
    const ratio = run.seconds / idealSeconds;
    const clean = run.duplicates === 0 && run.refunded === total;
    const judge = (ok: boolean) => (judged ? verdict(ok) : '—');
    lines.push(
      `| ${run.name} | ${run.seconds.toFixed(1)} | ${ratio.toFixed(2)} | ${run.requests} | ${run.rateLimited} | ` +
        `${share.toFixed(2)} | ${run.failed} | ${run.duplicates} | ${run.redisPerCall?.toFixed(2) ?? '—'} | ` +
        `${judge(ratio <= 1.1)} | ${judge(share < 1)} | ${judge(clean)} |`,
    );
  }
  return lines;
}

// Run alone: `node bench/fleet.ts [--quick]` prints the section.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchFleet(process.argv.includes('--quick'));
  process.stderr.write('\n');
  console.log(fleetReport(result, (ok) => (ok ? 'yes' : '**no**')).join('\n'));
}
