/**
 * A partner's one-off bulk script: a job (the scenario named by `SCENARIO`) over the testing kit
 * that the parent runs on loopback, its file journal closed after, then it prints what still keeps
 * the event loop alive and ends without `process.exit`. Started by bulk-exits.test.ts.
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient } from 'partner-sdk';
import { FileJournal, requestRefunds, runBulk, waitForRefunds } from 'partner-sdk/bulk';

const env = (name: string) => process.env[name] ?? '';
const transactions = env('TRANSACTIONS').split(',');
const seller = new PartnerClient({
  baseUrl: env('BASE_URL'),
  clientToken: env('CLIENT_TOKEN'),
  logLevel: 'off',
}).forUser(env('SELLER_TOKEN'));

const scenarios: Record<string, () => PromiseLike<unknown>> = {
  'refunds with a journal and progress': async () => {
    const store = await FileJournal.open(
      join(mkdtempSync(join(tmpdir(), 'bulk-exits-')), 'j.jsonl'),
    );
    try {
      return await requestRefunds(seller, transactions, {
        journal: { store, job: 'exits' },
        onProgress: () => {},
      });
    } finally {
      await store.close();
    }
  },
  'refunds paused by a 429': () => requestRefunds(seller, transactions, { concurrency: 4 }),
  'refunds waited': async () => {
    await requestRefunds(seller, transactions);
    return waitForRefunds(seller, transactions, { pollOptions: { interval: 20 } });
  },
  'aborted during back-off': () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300).unref();
    return runBulk(
      transactions,
      {
        key: (hash) => hash,
        run: (hash, options) => seller.refunds.retrieveStatus(hash, options),
        replaySafe: true,
      },
      { signal: controller.signal, onProgress: () => {} },
    );
  },
};

const scenario = scenarios[env('SCENARIO')];
if (!scenario) throw new Error(`no scenario ${env('SCENARIO')}`);
const outcome = await scenario().then(
  (summary) => JSON.stringify(summary, ['succeeded', 'failed', 'interrupted', 'aborted']),
  (error: Error) => error.name,
);
await new Promise((resolve) => setImmediate(resolve));
const holding = process
  .getActiveResourcesInfo()
  .filter((kind) => kind !== 'PipeWrap' && kind !== 'TCPSocketWrap');
process.stdout.write(`${JSON.stringify({ outcome, holding })}\n`);
