import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { runBulk } from 'partner-sdk/bulk';
import { expect, it } from 'vitest';

function collectGarbage(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

it('runs a generator of 1,000,000 items within a bounded heap', async () => {
  const gc = collectGarbage();
  const heapMb = () => {
    gc();
    return process.memoryUsage().heapUsed / 2 ** 20;
  };
  const COUNT = 1_000_000;
  let baseline = 0;
  let peak = 0;
  function* items() {
    for (let i = 0; i < COUNT; i++) yield { id: `trx_${i}`, amount: i };
  }
  const job = runBulk(
    items(),
    {
      key: (item) => item.id,
      // Every 7th item fails: failures must not pile up either.
      run: async (item) => {
        if (item.amount % 7 === 0) throw new Error(`refused ${item.id}`);
        return { hash: `rfd_${item.amount}` };
      },
    },
    { concurrency: 16 },
  );
  let seen = 0;
  for await (const _outcome of job) {
    seen++;
    if (seen === 20_000) baseline = heapMb();
    if (seen % 200_000 === 0) peak = Math.max(peak, heapMb());
  }
  const summary = await job;
  expect(seen).toBe(COUNT);
  expect(summary.total).toBe(COUNT);
  expect(summary.failed).toBe(Math.ceil(COUNT / 7));
  // Holding even a tenth of the outcomes would take well over 30 MB.
  expect(peak - baseline).toBeLessThan(16);
}, 120_000);
