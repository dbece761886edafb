/**
 * The `@example` blocks of the public API that can run against the testing kit do run, the way
 * `snippets-run.test.ts` runs the guides' snippets (`snippet-runner.ts`): each as the partner's
 * file `jsdoc-example-module.ts` makes of it, its assumed names bound to real objects
 * (`snippet-scope.ts`: a client and a seller on the kit over loopback HTTP, a Redis client on a
 * `redis-server` started here…). A statement whose comment writes out its value
 * (`console.log(DEFAULT_ASSUMPTIONS.login.path); // '/auth'`) is checked to give it. The
 * examples' placeholder ids (`'tx_123'`) run as the kit's seeded ones, and the store an example
 * of a store's method calls is made for it (`MADE_AS`). An example that cannot run
 * on a test machine is listed below with the reason, and the last test lists what ran and what
 * did not.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type Snippet } from '../helpers/doc-snippets';
import { type JsdocExample, publicExamples } from '../helpers/jsdoc-examples';
import { type RedisServer, startRedisServer } from '../helpers/redis-server';
import { type PartnerFile, partnerFile, withClaimsChecked } from './jsdoc-example-module';
import { runSnippet, SNIPPET_BOUND_MS } from './snippet-runner';
import { SCOPE } from './snippet-scope';

/** The examples' placeholder ids and service address, each run as the kit's own. */
const PLACEHOLDERS: [from: string, to: string][] = [
  ["'tx_123'", 'trx'],
  ["'tx_1'", 'trx'],
  ["'prd_123'", 'productHash'],
  ["'prd_1'", 'productHash'],
  ["'off_456'", 'offerCode'],
  ["'off_1'", 'offerCode'],
  ["'ant_123'", 'hash'],
  ["'acc_123'", 'accountHash'],
  ["'exp_123'", 'exportHash'],
  ["'https://partner.example.com/api/v1'", 'baseUrl'],
  ["'my-client-id'", 'clientId'],
];

const WRITES_HERE = 'it writes in the working directory, a temporary one when run';
const FIXED_PORT = 'a fixed port may be taken: a free one on loopback when run, closed after';
const LEFT_OPEN = 'it keeps no handle on what it opens: closed after the run';
const WITH_REFUND = "a transaction that has a refund: the kit's fresh ones have none";
const IOREDIS = "new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')";
const LISTEN_3000 = 'http.createServer(handler.node).listen(3000)';
const LISTEN_FREE = "opened(http.createServer(handler.node).listen(0, '127.0.0.1'))";
const REFUND_WORKER =
  "new Worker('refunds', refundProcessor(seller, { queue }), { connection, concurrency: 8 })";
const WAIT_WORKER =
  "new Worker('refund-waits', refundWaitProcessor(seller, { queue }), { connection })";
const OFFER_WORKER =
  "new Worker('offers', offerUpdateProcessor(seller, { queue }), { connection })";
const STAGING_QUEUE = "new Queue('refunds', { connection, prefix: 'staging' })";

/** Pieces of an example replaced when it runs, by the symbol it documents, each with why. */
const RUN_WITH: Record<string, [from: string, to: string, why: string][]> = {
  'Refunds.retrieveStatus': [["'tx_123'", 'refundedTransaction', WITH_REFUND]],
  PollOptions: [["'tx_123'", 'refundedTransaction', WITH_REFUND]],
  toFile: [["await readFile('avatar.png')", 'avatarBytes', 'a file of the working directory']],
  ReadableStreamLike: [
    [
      "createReadStream('avatar.png')",
      'Readable.from([avatarBytes])',
      'a file of the working directory',
    ],
  ],
  'Statements.download': [["'statement.csv'", "tempPath('statement.csv')", WRITES_HERE]],
  FileJournal: [["'refunds.journal.jsonl'", "tempPath('refunds.journal.jsonl')", WRITES_HERE]],
  'FileJournal.open': [
    ["'./offers.journal.jsonl'", "tempPath('offers.journal.jsonl')", WRITES_HERE],
  ],
  requestRefunds: [["'cohort.journal.jsonl'", "tempPath('cohort.journal.jsonl')", WRITES_HERE]],
  deliver: [["'http://127.0.0.1:3000/webhooks'", 'receiverUrl', FIXED_PORT]],
  'partner-sdk/webhooks': [[LISTEN_3000, LISTEN_FREE, FIXED_PORT]],
  'WebhookHandler.node': [[LISTEN_3000, LISTEN_FREE, FIXED_PORT]],
  'partner-sdk/bullmq': [
    ['port: 6379', 'port: redisPort', FIXED_PORT],
    [REFUND_WORKER, `opened(${REFUND_WORKER})`, LEFT_OPEN],
  ],
  refundWaitProcessor: [[WAIT_WORKER, `opened(${WAIT_WORKER})`, LEFT_OPEN]],
  offerUpdateProcessor: [[OFFER_WORKER, `opened(${OFFER_WORKER})`, LEFT_OPEN]],
  'ProducerQueue.toKey': [[STAGING_QUEUE, `opened(${STAGING_QUEUE})`, LEFT_OPEN]],
  RedisJournalStore: [[IOREDIS, `opened(${IOREDIS})`, LEFT_OPEN]],
};

/** Names an example may assume that the runner does not bind, and why. */
const NEEDS: Record<string, string> = {
  err: 'an error the reader caught: the example is the body of a `catch`',
  error: 'an error the reader caught: the example is the body of a `catch`',
  sleep: "the reader's own wait",
  worker: 'a BullMQ worker that failed a job',
  job: 'a running bulk job, both an iterable and a promise: the scope would hand over its summary',
};

/** The receivers the runner binds, by name, and the owners its value is one of. */
const BOUND_AS: Record<string, string[]> = {
  client: ['PartnerClient'],
  mock: ['MockPartnerApi'],
  handler: ['WebhookHandler'],
  tracerProvider: ['TracerProviderLike'],
  meterProvider: ['MeterProviderLike'],
  redis: ['NodeRedisClient'],
  store: ['FileJournal'],
  // A BullMQ Queue, with a worker: what the SDK asks of a queue, it has.
  queue: ['RateLimitedQueue', 'ProducerQueue', 'CountedQueue', 'BatchQueue'],
};

/** Receivers the runner makes, by their owner: how, imported from where, from what in the scope. */
const MEMORY_STORE = {
  make: 'new MemoryDedupeStore()',
  from: "import { MemoryDedupeStore } from 'partner-sdk/webhooks';",
  uses: [],
};
const MADE_AS: Record<string, { make: string; from: string; uses: string[] }> = {
  MemoryDedupeStore: MEMORY_STORE,
  // The contract, as the SDK's own in-memory store keeps it.
  WebhookDedupeStore: MEMORY_STORE,
  RedisDedupeStore: {
    make: 'new RedisDedupeStore(redis)',
    from: "import { RedisDedupeStore } from 'partner-sdk/redis';",
    uses: ['redis'],
  },
  RedisJournalStore: {
    make: 'new RedisJournalStore(redis)',
    from: "import { RedisJournalStore } from 'partner-sdk/redis';",
    uses: ['redis'],
  },
};

/** Examples that assume only names the runner binds and still cannot run, and why. */
const NOT_RUN: Record<string, string> = {
  Logger: 'pino is not installed here',
  'WebhookHandler.fetch':
    "it mounts the receiver on Hono, which the runner's `app` (Express) is not",
  'PartnerClient.request':
    'it calls an operation spec §4.12 names without a path or a shape, which the kit does not serve',
  'BatchQueue.toKey':
    "its comment's key is a queue named `refunds`; the run's queue has its own name",
  'CountedQueue.getJobCounts': "its comment's counts are an illustration, not this queue's",
};

const { examples, exportsOf } = publicExamples();
const dir = `${ROOT}.tmp/jsdoc-examples-run`;

/** Why `example` does not run, or `undefined` when it does. */
function reasonNotRun(example: JsdocExample, file: PartnerFile): string | undefined {
  if (NOT_RUN[example.symbol]) return NOT_RUN[example.symbol];
  if (file.fragment) return 'one property of an options object: it type-checks inside one';
  const receivers = Object.entries(file.receivers)
    .filter(([name, owner]) => !BOUND_AS[name]?.includes(owner) && !MADE_AS[owner])
    .map(([name, owner]) => `${name} stands for a ${owner}, which the runner does not make`);
  const unbound = file.assumed
    .filter((name) => !(name in SCOPE))
    .map((name) => `${name}: ${NEEDS[name] ?? 'no value and no reason given'}`);
  const reasons = receivers.length > 0 ? receivers : unbound;
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}

/** The example as a snippet the runner takes: its imports, its checks, its replacements. */
function snippetOf(example: JsdocExample): Snippet {
  const file = partnerFile(example, exportsOf);
  const checked = withClaimsChecked(example.code, example.file, example.line + 1);
  const imports = [...file.imports];
  const vitest = "import { expect } from 'vitest';";
  if (checked.checks > 0 && !imports.includes(vitest)) imports.push(vitest);
  const made = Object.entries(file.receivers).filter(([, owner]) => MADE_AS[owner]);
  const assumed = file.assumed.filter((name) => !made.some(([receiver]) => receiver === name));
  const code = [checked.code];
  for (const [name, owner] of made) {
    const { make, from, uses } = MADE_AS[owner]!;
    if (!imports.includes(from)) imports.push(from);
    code.unshift(`const ${name} = ${make};`);
    assumed.push(...uses.filter((used) => !assumed.includes(used)));
  }
  const clauses = assumed.length > 0 ? [`assumes ${assumed.join(', ')}`] : [];
  const own = RUN_WITH[example.symbol] ?? [];
  for (const [from, to, why] of own) clauses.push(`run with \`${from}\` as \`${to}\`: ${why}`);
  for (const [from, to] of PLACEHOLDERS) {
    if (!checked.code.includes(from) || own.some((replaced) => replaced[0] === from)) continue;
    clauses.push(`run with \`${from}\` as \`${to}\`: the kit's own`);
  }
  return {
    file: example.file,
    line: example.line,
    section: example.symbol,
    marker: clauses.length > 0 ? clauses.join('; ') : undefined,
    code: `${imports.join('\n')}\n${code.join('\n')}`,
  };
}

const runs = examples.map((example) => ({
  example,
  reason: reasonNotRun(example, partnerFile(example, exportsOf)),
}));
const ran: JsdocExample[] = [];
let claims = 0;

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 30_000);
afterAll(async () => {
  await redis?.close();
});

describe('the @example blocks of the public API run against the testing kit', {
  shuffle: false,
}, () => {
  for (const { example } of runs.filter(({ reason }) => reason === undefined)) {
    it(
      `${example.symbol} (${example.file}:${example.line}) runs`,
      async () => {
        const snippet = snippetOf(example);
        await runSnippet(snippet, redis.url, dir);
        ran.push(example);
        claims += (snippet.code.match(/\.toEqual\(/g) ?? []).length;
      },
      SNIPPET_BOUND_MS + 15_000,
    );
  }

  it('ran every one it can; the others only type-check, each for a reason given', () => {
    const notRun = runs.filter(({ reason }) => reason !== undefined);
    console.info(
      `${ran.length} of ${examples.length} examples ran, ${claims} values their comments claim checked; not run:\n`,
      notRun
        .map(
          ({ example, reason }) => `${example.symbol} (${example.file}:${example.line}): ${reason}`,
        )
        .join('\n'),
    );
    const unexplained = notRun.filter(({ reason }) => reason!.includes('no reason given'));
    expect(unexplained.map(({ example }) => example.symbol)).toEqual([]);
    expect(ran.length).toBe(runs.length - notRun.length);
    for (const symbol of Object.keys({ ...NOT_RUN, ...RUN_WITH })) {
      expect(examples.map((example) => example.symbol)).toContain(symbol);
    }
  });
});
