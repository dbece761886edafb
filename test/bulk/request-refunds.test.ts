import {
  InternalServerError,
  NotFoundError,
  PartnerClient,
  RequestValidationError,
  UnprocessableEntityError,
} from 'partner-sdk';
import { type BulkOutcome, requestRefunds } from 'partner-sdk/bulk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { collect, setup } from './support';

const byKey = <T extends { key: string }>(outcomes: T[]) =>
  Object.fromEntries(outcomes.map((outcome) => [outcome.key, outcome]));

describe('requestRefunds', () => {
  it('reports one outcome per item: accepted, existing, and typed failures, none stopping the others', async () => {
    const { mock, seller, refundPosts } = setup();
    const [fresh1, fresh2] = mock.transactions.refundable;
    const items = [
      fresh1!,
      'trx_does_not_exist',
      mock.transactions.withActiveRefund,
      '..',
      { transactionHash: fresh2!, params: { reason: 'x'.repeat(1001) } },
      { transactionHash: mock.addTransaction(), params: { user_id: 'usr_nobody' } },
    ];
    const job = requestRefunds(seller, items, { concurrency: 3 });
    const outcomes = byKey(await collect(job));
    const summary = await job;

    expect(outcomes[fresh1!]).toMatchObject({ status: 'succeeded', result: { kind: 'accepted' } });
    expect(outcomes[mock.transactions.withActiveRefund]).toMatchObject({
      status: 'existing',
      result: { kind: 'existing', refund: { status: 'requested' } },
    });
    const notFound = outcomes.trx_does_not_exist as Extract<
      BulkOutcome<unknown, unknown>,
      { status: 'failed' }
    >;
    expect(notFound.status).toBe('failed');
    expect(notFound.error).toBeInstanceOf(NotFoundError);
    expect(notFound.inDoubt).toBe(false);
    expect(outcomes['..']).toMatchObject({ status: 'failed', attempts: 0 });
    expect((outcomes['..'] as { error: unknown }).error).toBeInstanceOf(RequestValidationError);
    expect((outcomes[fresh2!] as { error: unknown }).error).toBeInstanceOf(RequestValidationError);
    const unknownUser = Object.values(outcomes).find(
      (o) => o.status === 'failed' && o.error instanceof UnprocessableEntityError,
    );
    expect(unknownUser).toBeDefined();
    expect(summary).toMatchObject({
      total: 6,
      succeeded: 1,
      existing: 1,
      failed: 4,
      skipped: 0,
      interrupted: 0,
      aborted: false,
    });
    // Invalid items were never sent; each valid one was sent once.
    expect(refundPosts(fresh2)).toBe(0);
    expect(refundPosts()).toBe(4);
  });

  it('reports an item whose login failed as never sent, and one whose own request failed as in doubt', async () => {
    const mock = createMockPartnerApi();
    const { clientToken: _named, ...loginOnly } = mock.credentials;
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      ...loginOnly,
      maxRetries: 0,
      logLevel: 'off',
    });
    const seller = client.forUser(mock.sellers.person.publicToken);
    const [hash] = mock.transactions.refundable;
    mock.failNext({ status: 500, times: 2, path: '/auth' });
    const loginFailed = await collect(requestRefunds(seller, [hash!], { maxAttempts: 2 }));
    expect(loginFailed).toEqual([
      expect.objectContaining({ status: 'failed', inDoubt: false, attempts: 2 }),
    ]);
    expect((loginFailed[0] as { error: unknown }).error).toBeInstanceOf(InternalServerError);
    expect(mock.requests.filter((r) => r.method === 'POST' && r.path !== '/auth')).toEqual([]);

    mock.failNext({ status: 500, times: 10, path: `/financial/refund/${hash}` });
    const ownFailed = await collect(requestRefunds(seller, [hash!], { maxAttempts: 1 }));
    expect(ownFailed).toEqual([expect.objectContaining({ status: 'failed', inDoubt: true })]);
  });

  it('streams each outcome as it finishes, then resolves the summary', async () => {
    const { mock, seller } = setup({ latencyMs: 5 });
    const hashes = Array.from({ length: 20 }, () => mock.addTransaction());
    const job = requestRefunds(seller, hashes, { concurrency: 4 });
    const seen: number[] = [];
    for await (const outcome of job) {
      expect(outcome.status).toBe('succeeded');
      seen.push(job.progress.done);
    }
    expect(seen).toHaveLength(20);
    expect(seen.at(-1)).toBe(20);
    expect((await job).succeeded).toBe(20);
  });

  it('pulls items lazily from an async generator, never more than it can run', async () => {
    const { mock, seller } = setup({ latencyMs: 5 });
    let pulled = 0;
    let maxAhead = 0;
    const done = () => job.progress.done;
    const job: ReturnType<typeof requestRefunds> = requestRefunds(
      seller,
      (async function* () {
        for (let i = 0; i < 30; i++) {
          pulled++;
          maxAhead = Math.max(maxAhead, pulled - done());
          yield mock.addTransaction();
        }
      })(),
      { concurrency: 2, maxConcurrency: 2 },
    );
    const summary = await job;
    expect(summary.succeeded).toBe(30);
    expect(maxAhead).toBeLessThanOrEqual(3);
  });

  it('validates every item and sends nothing in a dry run', async () => {
    const { mock, seller } = setup();
    const before = mock.stats.requests;
    const job = requestRefunds(
      seller,
      [
        mock.transactions.refundable[0]!,
        '',
        { transactionHash: 'trx_1', params: { reason: 'y'.repeat(1001) } },
      ],
      { dryRun: true },
    );
    const outcomes = await collect(job);
    expect(outcomes.map((o) => o.status)).toEqual(['valid', 'failed', 'failed']);
    expect(await job).toMatchObject({ valid: 1, failed: 2 });
    expect(mock.stats.requests).toBe(before);
  });

  it("acts for each item's own seller when items carry a seller token", async () => {
    const { mock, client } = setup();
    const [a, b] = mock.transactions.refundable;
    const summary = await requestRefunds(client, [
      { transactionHash: a!, sellerToken: mock.sellers.person.publicToken },
      { transactionHash: b!, sellerToken: mock.sellers.company.publicToken },
    ]);
    expect(summary.succeeded).toBe(2);
    const bearerOf = (hash: string) =>
      mock.requests.find((r) => r.method === 'POST' && r.path.endsWith(hash))?.headers
        .authorization;
    expect(bearerOf(a!)).toBe(`Bearer ${mock.sellers.person.publicToken}`);
    expect(bearerOf(b!)).toBe(`Bearer ${mock.sellers.company.publicToken}`);
  });

  it('a dry run on a seller client fails an item naming another seller, as the real run does', async () => {
    const { mock, seller } = setup();
    const [a, b] = mock.transactions.refundable;
    const items = [a!, { transactionHash: b!, sellerToken: mock.sellers.company.publicToken }];
    const before = mock.stats.requests;
    const dry = await collect(requestRefunds(seller, items, { dryRun: true }));
    expect(dry.map((o) => o.status)).toEqual(['valid', 'failed']);
    expect(mock.stats.requests).toBe(before);
    const real = byKey(await collect(requestRefunds(seller, items)));
    expect(real[a!]?.status).toBe('succeeded');
    for (const outcome of [dry[1], real[b!]]) {
      expect(outcome).toMatchObject({ status: 'failed', inDoubt: false });
      expect(String((outcome as { error: Error }).error.message)).toContain('root client');
    }
  });

  it('after a lost answer, finds the refund the request made instead of sending it again', async () => {
    const { mock, seller, refundPosts, refundsOf } = setup({ refundPolls: 0 });
    const hash = mock.addTransaction();
    // The refund is made, then the connection drops before the answer: a blind repeat after it
    // completes would make a second refund.
    const fetchAndDrop = mock.fetch;
    let dropped = false;
    const lossy = new (await import('partner-sdk')).PartnerClient({
      baseUrl: mock.baseUrl,
      ...mock.credentials,
      clientToken: mock.credentials.clientToken,
      logLevel: 'off',
      fetch: async (input, init) => {
        const response = await fetchAndDrop(input, init);
        const request = new Request(input, init);
        if (!dropped && request.method === 'POST' && request.url.endsWith(hash)) {
          dropped = true;
          await seller.refunds.retrieveStatus(hash); // the refund completes meanwhile
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
          });
        }
        return response;
      },
    }).forUser(mock.sellers.person.publicToken);
    const outcomes = await collect(requestRefunds(lossy, [hash]));
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({
      status: 'succeeded',
      reconciled: true,
      result: { kind: 'existing' },
    });
    expect(refundPosts(hash)).toBe(1);
    expect(await refundsOf(hash)).toHaveLength(1);
  });

  it('after a 503, reconciles before sending again and makes exactly one refund', async () => {
    const { mock, seller, refundPosts, refundsOf } = setup();
    const hash = mock.addTransaction();
    mock.failNext({
      status: 503,
      retryAfter: 0,
      path: `/financial/refund/${hash}`,
      method: 'POST',
    });
    const outcomes = await collect(requestRefunds(seller, [hash]));
    expect(outcomes[0]).toMatchObject({ status: 'succeeded', reconciled: false });
    expect(refundPosts(hash)).toBe(2);
    expect(await refundsOf(hash)).toHaveLength(1);
    const reads = mock.requests.filter(
      (r) => r.method === 'GET' && r.path === `/financial/refund/${hash}`,
    );
    expect(reads.length).toBeGreaterThanOrEqual(2); // the reconciliation, then the check above
  });
});
