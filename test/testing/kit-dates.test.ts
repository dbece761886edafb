/**
 * The kit writes the times it makes on its own clock, in the formats the spec names for each field
 * (a refund's `DD/MM/YYYY HH:mm:ss` without an offset, an anticipation's ISO8601 with one), and
 * the SDK reads each back as the kit's instant, across a São Paulo midnight the kit's clock was
 * moved to.
 */

import { describe, expect, it } from 'vitest';
import { PartnerClient, parseTimestamp } from '../../src';
import {
  createMockPartnerApi,
  type MockPartnerApi,
  subscriptionEndedEvent,
} from '../../src/testing';

const DAY_MS = 86_400_000;
const SAO_PAULO_MS = -3 * 3_600_000;

/** Moves the kit's clock to `beforeMs` before the next São Paulo midnight. */
function toBeforeSaoPauloMidnight(mock: MockPartnerApi, beforeMs: number): void {
  const now = mock.now().getTime();
  const midnight = Math.ceil((now + SAO_PAULO_MS) / DAY_MS) * DAY_MS - SAO_PAULO_MS;
  mock.advanceClock(midnight + (midnight - now < beforeMs ? DAY_MS : 0) - beforeMs - now);
}

function seller(mock: MockPartnerApi) {
  return new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    clientToken: mock.credentials.clientToken,
    logLevel: 'off',
  }).forUser(mock.sellers.person.publicToken);
}

describe("the kit's dates, on its clock, read back by the SDK", () => {
  it("writes a refund's created_at as the kit's São Paulo wall clock, found from a call begun the day before", async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const trx = mock.addTransaction(4990);
    toBeforeSaoPauloMidnight(mock, 2_000);
    const since = new Date();
    mock.advanceClock(3_000); // the request goes out past midnight on the kit's clock
    const madeAt = mock.now().getTime();
    await seller(mock).refunds.request(trx);
    const [refund] = await seller(mock).refunds.list(trx);
    expect(refund?.created_at).toMatch(/^\d{2}\/\d{2}\/\d{4} 00:00:0\d$/);
    const read = parseTimestamp(refund!.created_at!).getTime();
    expect(read).toBeGreaterThan(madeAt - 1_000);
    expect(read).toBeLessThanOrEqual(madeAt + 1_000);
    await seller(mock).refunds.waitForCompletion(trx, { interval: 1, timeout: 5_000 });
    expect((await seller(mock).refunds.findCreatedSince(trx, since))?.hash).toBe(refund?.hash);
    // A call begun a minute after the refund finds none: the completed refund is older.
    const later = new Date(Date.now() + 60_000);
    expect(await seller(mock).refunds.findCreatedSince(trx, later)).toBeUndefined();
  });

  it("writes a confirmed anticipation's created_at in ISO8601 with an offset, the kit's instant", async () => {
    const mock = createMockPartnerApi();
    toBeforeSaoPauloMidnight(mock, 500);
    mock.advanceClock(1_000);
    const at = mock.now().getTime();
    const [hash] = mock.anticipations.confirmable;
    const confirmed = await seller(mock).anticipations.confirm(hash!, { scenario: 'above' });
    expect(confirmed.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:0\d-03:00$/);
    const read = parseTimestamp(confirmed.created_at!).getTime();
    expect(Math.abs(read - at)).toBeLessThan(1_000);
  });

  it("dates an event on this machine's clock, and on the kit's when given its time", () => {
    const mock = createMockPartnerApi();
    mock.advanceClock(3_600_000);
    const before = Date.now();
    const event = subscriptionEndedEvent();
    const read = parseTimestamp(event.created_at).getTime();
    expect(event.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThan(mock.now().getTime() - 3_000_000);
    const onKit = subscriptionEndedEvent({}, { created_at: mock.now().toISOString() });
    expect(
      Math.abs(parseTimestamp(onKit.created_at).getTime() - mock.now().getTime()),
    ).toBeLessThan(1_000);
  });
});
