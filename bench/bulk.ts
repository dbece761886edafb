/**
 * The bulk row: refund requests against the testing kit's loopback server, limited to
 * a rate R with a few milliseconds of latency, run by `requestRefunds` (adaptive concurrency) and,
 * for comparison, by a naive `Promise.all` over `p-limit` with the SDK's own retries. Verdicts:
 * completion within 1.1 × the ideal count / R, 429s under 2 % of requests, no duplicate refund.
 * Then the pace sweep: the same job against R in {20, 60, 200, 1000} a second and bursts of 1, 10
 * and R.
 */

import { fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { PartnerClient, RateLimitError, type SellerClient } from 'partner-sdk';
import { requestRefunds } from 'partner-sdk/bulk';

export interface BulkRun {
  name: string;
  count: number;
  seconds: number;
  requests: number;
  rateLimited: number;
  failed: number;
  refunded: number;
  duplicates: number;
}

export interface BulkResult {
  count: number;
  requestsPerSecond: number;
  /** Refund requests per second the kit served here, unlimited, 16 at a time (before the runs). */
  capacity: number;
  latencyMs: number;
  idealSeconds: number;
  runs: BulkRun[];
  sweep: SweepResult;
}

/** One job of the pace sweep: `requestRefunds` against the kit limited to `rate` and `burst`. */
export interface SweepRun extends BulkRun {
  rate: number;
  burst: number;
  idealSeconds: number;
}

export interface SweepResult {
  /** Seconds of work at the service's rate in each job (the count is this × R). */
  seconds: number;
  runs: SweepRun[];
  /** With a bucket of one, the same job sent by a sender told R (see {@link toldRate}). */
  told: SweepRun[];
  /** The limit halved a third of the way in and restored at two thirds (ideal: `seconds`). */
  change: SweepRun | undefined;
  /** Rates left out: above 60 % of what the kit served here, so the kit and not R would limit. */
  skipped: number[];
}

interface Service {
  url: string;
  clientToken: string;
  sellerToken: string;
  hashes: string[];
  /** Changes the service's limit now (a fresh bucket, the same burst). */
  setRate(requestsPerSecond: number): void;
  stats(): Promise<{ requests: number; rateLimited: number; duplicates: number; refunded: number }>;
}

async function startService(
  count: number,
  requestsPerSecond: number,
  latencyMs: number,
  burst?: number,
): Promise<Service> {
  const child = fork(fileURLToPath(new URL('./bulk-server.ts', import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.send({ count, requestsPerSecond, latencyMs, burst });
  const ready = await new Promise<Omit<Service, 'stats' | 'setRate'>>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Omit<Service, 'stats' | 'setRate'>));
    child.once('exit', (code) => reject(new Error(`bulk server exited (${code})`)));
  });
  return {
    ...ready,
    setRate: (rate) => child.send({ type: 'rate', requestsPerSecond: rate }),
    stats: async () => {
      child.send({ type: 'stats' });
      const stats = await new Promise<Awaited<ReturnType<Service['stats']>>>((resolve) =>
        child.once('message', (message) => resolve(message as never)),
      );
      child.kill();
      return stats;
    },
  };
}

async function measure(
  name: string,
  count: number,
  rate: number,
  latencyMs: number,
  job: (service: Service) => Promise<number>,
  burst?: number,
): Promise<BulkRun> {
  const service = await startService(count, rate, latencyMs, burst);
  const t0 = performance.now();
  const failed = await job(service);
  const seconds = (performance.now() - t0) / 1000;
  const stats = await service.stats();
  process.stderr.write('.');
  return { name, count, seconds, failed, ...stats };
}

const clientFor = (service: Service) =>
  new PartnerClient({
    baseUrl: service.url,
    clientToken: service.clientToken,
    logLevel: 'off',
  }).forUser(service.sellerToken);

/** Refund requests per second the kit serves on this machine now, with no limit. */
async function capacity(latencyMs: number): Promise<number> {
  const service = await startService(400, 1e9, latencyMs);
  const seller = clientFor(service);
  const limit = pLimit(16);
  const t0 = performance.now();
  await Promise.all(service.hashes.map((hash) => limit(() => seller.refunds.request(hash))));
  const rate = (service.hashes.length * 1000) / (performance.now() - t0);
  await service.stats();
  return rate;
}

/** R: 500 a second (250 quick), or 60 % of what the kit can serve here if that is lower. */
const rateFor = (quick: boolean, served: number) =>
  Math.max(20, Math.min(quick ? 250 : 500, Math.floor((served * 0.6) / 10) * 10));

/**
 * The pace sweep: R in {20, 60, 200, 1000} a second and bursts of 1, 10 and R, a job of
 * `seconds` of work each. The pace needs about two 429s (a second each when the burst is small)
 * to learn a limit, so the verdict (1.15 × ideal) is for a minute of work; a quick run is shown.
 */
async function sweepPace(quick: boolean, served: number, latencyMs: number): Promise<SweepResult> {
  const seconds = quick ? 10 : 60;
  const runs: SweepRun[] = [];
  const told: SweepRun[] = [];
  const skipped: number[] = [];
  for (const rate of [20, 60, 200, 1000]) {
    if (rate > served * 0.6) {
      skipped.push(rate);
      continue;
    }
    for (const burst of [1, 10, rate]) {
      const count = rate * seconds;
      const run = await measure(
        `R = ${rate}, burst ${burst}`,
        count,
        rate,
        latencyMs,
        async (service) => {
          const summary = await requestRefunds(clientFor(service), service.hashes, {
            concurrency: 4,
          });
          return summary.failed;
        },
        burst,
      );
      runs.push({ ...run, rate, burst, idealSeconds: count / rate });
    }
    const count = rate * seconds;
    const run = await measure(
      `R = ${rate}, burst 1, told R`,
      count,
      rate,
      latencyMs,
      (service) => toldRate(clientFor(service), service.hashes, rate),
      1,
    );
    told.push({ ...run, rate, burst: 1, idealSeconds: count / rate });
  }
  // The change at 200 a second, or the highest swept rate the kit can serve here.
  const changeRate = [200, 60, 20].find((rate) => rate <= served * 0.6);
  const change =
    changeRate === undefined ? undefined : await limitChange(changeRate, seconds, latencyMs);
  return { seconds, runs, told, change, skipped };
}

/**
 * A sender told the service's rate, the floor of a bucket of one: each refund request goes 1/R
 * after the previous one went (a late timer's lateness is kept, never caught up: with no spare
 * token, a request sent early is refused), and a refused one goes back in line after its
 * `Retry-After`. No pace that has to find R does better; what it still loses to the ideal time and
 * to 429s is what this machine's timers and loopback leave. Resolves to the requests that failed
 * otherwise.
 */
async function toldRate(seller: SellerClient, hashes: string[], rate: number): Promise<number> {
  const interval = 1000 / rate;
  const line = [...hashes].reverse();
  let pending = 0;
  let failed = 0;
  let wake: () => void = () => {};
  const send = async (hash: string) => {
    try {
      await seller.refunds.request(hash, {}, { maxRetries: 0 });
    } catch (error) {
      if (!(error instanceof RateLimitError)) failed++;
      else {
        await new Promise((resolve) => setTimeout(resolve, error.retryAfterMs ?? 1_000));
        line.push(hash);
      }
    }
    pending--;
    wake();
  };
  let last = Number.NEGATIVE_INFINITY;
  while (line.length > 0 || pending > 0) {
    const wait = last + interval - performance.now();
    if (line.length === 0 || wait > 0) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (line.length > 0) setTimeout(resolve, wait);
      });
      continue;
    }
    last = performance.now();
    pending++;
    void send(line.pop()!);
  }
  return failed;
}

/**
 * A limit that changes mid-job: R for the first third of `seconds`, R / 2 for the second, R again
 * for the last. The job holds (5 / 6) × R × `seconds` refunds, so its ideal time is `seconds`.
 */
async function limitChange(rate: number, seconds: number, latencyMs: number): Promise<SweepRun> {
  const burst = 10;
  const count = Math.round((5 / 6) * rate * seconds);
  const third = (seconds * 1000) / 3;
  const run = await measure(
    `R = ${rate} → ${rate / 2} → ${rate}, burst ${burst}`,
    count,
    rate,
    latencyMs,
    async (service) => {
      const halve = setTimeout(() => service.setRate(rate / 2), third);
      const restore = setTimeout(() => service.setRate(rate), 2 * third);
      try {
        const summary = await requestRefunds(clientFor(service), service.hashes, {
          concurrency: 4,
        });
        return summary.failed;
      } finally {
        clearTimeout(halve);
        clearTimeout(restore);
      }
    },
    burst,
  );
  return { ...run, rate, burst, idealSeconds: seconds };
}

export async function benchBulk(quick: boolean): Promise<BulkResult> {
  const latencyMs = 3;
  const served = await capacity(latencyMs);
  const requestsPerSecond = rateFor(quick, served);
  // A quick run (CI) lasts about 8 s a job whatever R is.
  const count = quick ? Math.min(1_000, requestsPerSecond * 8) : 10_000;
  const sdk = await measure(
    'partner-sdk/bulk `requestRefunds`',
    count,
    requestsPerSecond,
    latencyMs,
    async (service) => {
      const summary = await requestRefunds(clientFor(service), service.hashes, { concurrency: 4 });
      return summary.failed;
    },
  );
  const naive = await measure(
    'naive `Promise.all` + `p-limit(16)`',
    count,
    requestsPerSecond,
    latencyMs,
    async (service) => {
      const seller = clientFor(service);
      const limit = pLimit(16);
      const results = await Promise.allSettled(
        service.hashes.map((hash) => limit(() => seller.refunds.request(hash))),
      );
      return results.filter((r) => r.status === 'rejected').length;
    },
  );
  return {
    count,
    requestsPerSecond,
    capacity: served,
    latencyMs,
    idealSeconds: count / requestsPerSecond,
    runs: [sdk, naive],
    sweep: await sweepPace(quick, served, latencyMs),
  };
}

/** The bulk section of the report. */
export function bulkReport(result: BulkResult, verdict: (ok: boolean) => string): string[] {
  const { count, requestsPerSecond, latencyMs, idealSeconds, capacity: served } = result;
  const lines = [
    '## Bulk: refund requests against a rate-limited service',
    '',
    `${new Date().toISOString()} · load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} ` +
      `(the kit serves every request on the same ${os.cpus().length} cores as the job: a loaded machine ` +
      'caps the rate it can serve, so R is 500 a second, or 60 % of what the kit served unlimited ' +
      `just before, if lower: here it served ${served.toFixed(0)} refund requests a second).`,
    '',
    `${count.toLocaleString('en')} refund requests against the testing kit on loopback (a child process), ` +
      `limited to R = ${requestsPerSecond} requests per second (token bucket, one second of burst, 429 with ` +
      `Retry-After in whole seconds) with ${latencyMs} ms of latency; ideal time ${count} / R = ${idealSeconds.toFixed(1)} s. ` +
      "Duplicates are counted from the kit's state (refunds per transaction beyond one). The naive loop uses the " +
      "SDK's own retries (2, honouring Retry-After); its failures are requests that gave up.",
    '',
    '| job | seconds | ÷ ideal | requests | 429s | 429 % | failed | refunded | duplicates | ≤ 1.1 × ideal | 429s < 2 % | 0 duplicates |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|',
  ];
  for (const run of result.runs) {
    const ours = run.name.startsWith('partner-sdk');
    const share = run.requests ? (run.rateLimited / run.requests) * 100 : 0;
    const ratio = run.seconds / idealSeconds;
    lines.push(
      `| ${run.name} | ${run.seconds.toFixed(1)} | ${ratio.toFixed(2)} | ${run.requests} | ${run.rateLimited} | ` +
        `${share.toFixed(2)} | ${run.failed} | ${run.refunded} | ${run.duplicates} | ` +
        `${ours ? verdict(ratio <= 1.1) : '—'} | ${ours ? verdict(share < 2) : '—'} | ${ours ? verdict(run.duplicates === 0 && run.refunded === run.count) : '—'} |`,
    );
  }
  lines.push('', ...sweepReport(result.sweep, verdict));
  return lines;
}

/** The pace sweep's table. */
function sweepReport(sweep: SweepResult, verdict: (ok: boolean) => string): string[] {
  const lines = [
    `### The pace sweep: ${sweep.seconds} s of work at each limit`,
    '',
    "`requestRefunds` (concurrency 4) against the kit limited to R a second with a bucket of B (the kit's " +
      'token bucket; `Retry-After` in whole seconds, at least 1), R × ' +
      `${sweep.seconds} refunds each. Targets: within 1.15 × the ideal R × ${sweep.seconds} / R s, under 3 % of requests answered 429, no duplicate.` +
      (sweep.skipped.length
        ? ` Left out: R = ${sweep.skipped.join(', ')}, above 60 % of what the kit served here (the kit, not R, would set the pace).`
        : ''),
    '',
    sweep.change
      ? `The last row's limit changes mid-job: halved a third of the way in, restored at two thirds (${sweep.change.count} refunds, ideal ${sweep.seconds} s).`
      : 'The mid-job change is left out: even R = 20 is above 60 % of what the kit served here.',
    '',
    'Rows marked "told R" are not a pace: the same job with a bucket of one sent by a sender told R, ' +
      'each request 1/R after the previous one went and a refused one back in line after its Retry-After. ' +
      "With no spare token, any two requests closer than 1/R at the kit are refused, so this is the floor of a bucket of one on this machine: a timer's lateness (whole milliseconds) and bunching on the way cost it time and 429s that no pace, which must also find R, can win back.",
    '',
    '| R | burst | seconds | ÷ ideal | requests | 429 % | duplicates | ≤ 1.15 × ideal | 429s < 3 % | 0 duplicates |',
    '|---:|---:|---:|---:|---:|---:|---:|---|---|---|',
  ];
  const told = new Map(sweep.told.map((run) => [run.rate, run]));
  const rows = sweep.runs.flatMap((run) => {
    const floor = run.burst === 1 ? told.get(run.rate) : undefined;
    return floor ? [run, floor] : [run];
  });
  if (sweep.change) rows.push(sweep.change);
  for (const run of rows) {
    const ratio = run.seconds / run.idealSeconds;
    const share = run.requests ? (run.rateLimited / run.requests) * 100 : 0;
    const clean = run.duplicates === 0 && run.refunded === run.count;
    const floor = sweep.told.includes(run);
    const rate =
      run === sweep.change ? `${run.rate} → ${run.rate / 2} → ${run.rate}` : String(run.rate);
    const verdicts = floor
      ? '— | — | — |'
      : `${verdict(ratio <= 1.15)} | ${verdict(share < 3)} | ${verdict(clean)} |`;
    lines.push(
      `| ${rate}${floor ? ', told R' : ''} | ${run.burst} | ${run.seconds.toFixed(1)} | ${ratio.toFixed(2)} | ${run.requests} | ` +
        `${share.toFixed(2)} | ${run.duplicates} | ${verdicts}`,
    );
  }
  lines.push('');
  return lines;
}
