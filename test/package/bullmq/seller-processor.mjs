// A BullMQ refund processor given a function of the seller (`SellerResolver`), run from the
// installed tarball with `bullmq` installed beside it (its peer), as a `Worker` calls a processor:
// `(job, token, signal)`. Against the testing kit in-process, with a queue of its own making (no
// Redis, so no lease: the processor's answer to BullMQ is the point, not BullMQ's Redis).
// `npm run test:runtimes` installs bullmq into the consumer project for it, after every check that
// needs a project without it.
import assert from 'node:assert/strict';
import { UnrecoverableError } from 'bullmq';
import { PartnerClient } from 'partner-sdk';
import { refundProcessor } from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';

const mock = createMockPartnerApi({ refundPolls: 0 });
const client = new PartnerClient({
  baseUrl: mock.baseUrl,
  fetch: mock.fetch,
  ...mock.credentials,
  logLevel: 'off',
});
const tokens = new Map([['acct-person', mock.sellers.person.publicToken]]);
const asked = [];
const processor = refundProcessor(
  async (account, job, signal) => {
    asked.push([account, job.id, signal instanceof AbortSignal]);
    return client.forUser(tokens.get(account));
  },
  { queue: { rateLimit: async () => {} } },
);

const hash = mock.addTransaction();
const job = (data) => ({
  id: `refund-request/${hash}`,
  data,
  timestamp: Date.now(),
  attemptsMade: 0,
  attemptsStarted: 1,
});
const signal = new AbortController().signal;
const done = await processor(job({ transactionHash: hash, seller: 'acct-person' }), 'lock', signal);
assert.deepEqual(done, {
  status: 'succeeded',
  key: hash,
  reconciled: false,
  result: { kind: 'accepted' },
});
assert.deepEqual(asked, [['acct-person', `refund-request/${hash}`, true]]);
const posts = mock.requests.filter(
  (r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`,
);
assert.deepEqual(
  posts.map((r) => r.headers.authorization),
  [`Bearer ${mock.sellers.person.publicToken}`],
);
// A job marked for no seller on a worker of a function fails for good, with BullMQ's own class.
await assert.rejects(processor(job({ transactionHash: hash }), 'lock', signal), UnrecoverableError);
assert.equal(asked.length, 1);
console.log('bullmq: a processor of a seller function refunded with the seller token');
