import { MemoryDedupeStore as PublicMemoryDedupeStore } from 'partner-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { MemoryDedupeStore } from '../../src/webhooks';
import { describeDedupeStoreContract } from '../helpers/dedupe-store-contract';

describeDedupeStoreContract('MemoryDedupeStore', () => new MemoryDedupeStore());

describe('MemoryDedupeStore: its bound', () => {
  it('keeps at most maxEntries keys, dropping handled marks before live claims', async () => {
    const store = new MemoryDedupeStore({ maxEntries: 3 });
    const lease = { leaseMs: 60_000, owner: 'a' };
    expect(await store.claim('live', lease)).toBe('claimed');
    for (const key of ['h1', 'h2', 'h3']) {
      await store.claim(key, lease);
      await store.complete(key, { ttlMs: 60_000, owner: 'a' });
      expect(store.size).toBeLessThanOrEqual(3);
    }
    expect(store.size).toBe(3);
    // The claim is the oldest entry, yet still live: a handled mark went instead.
    expect(await store.claim('live', { leaseMs: 60_000, owner: 'b' })).toBe('in-progress');
    expect(await store.claim('h1', { leaseMs: 60_000, owner: 'b' })).toBe('claimed');
  });

  it('refuses a bound, a lease or a time to live that is not a positive integer', async () => {
    expect(new MemoryDedupeStore().maxEntries).toBe(10_000);
    expect(() => new MemoryDedupeStore({ maxEntries: 0 })).toThrow(RangeError);
    const store = new MemoryDedupeStore();
    await expect(store.claim('k', { leaseMs: 0, owner: 'a' })).rejects.toThrow(RangeError);
    await expect(store.complete('k', { ttlMs: Number.NaN, owner: 'a' })).rejects.toThrow(
      RangeError,
    );
  });
});

describe('MemoryDedupeStore: a large bound at its limit', () => {
  it('a call past 200,000 keys costs about what a call filling the store did, not a walk over what it dropped', async () => {
    const store = new PublicMemoryDedupeStore({ maxEntries: 200_000 });
    const digest = 'a'.repeat(64);
    const handle = async (i: number) => {
      const key = `subscription_ended:req_${i}:${digest}`;
      await store.claim(key, { leaseMs: 65_000, owner: 'o' });
      await store.complete(key, { ttlMs: 604_800_000, owner: 'o' });
    };
    const timed = async (from: number, count: number) => {
      const started = performance.now();
      for (let i = from; i < from + count; i++) await handle(i);
      return (performance.now() - started) / count;
    };
    const filling = await timed(0, 200_000);
    const past = await timed(200_000, 100_000);
    expect(store.size).toBe(200_000);
    expect(
      past / filling,
      `per call: ${filling} ms filling, ${past} ms past the bound`,
    ).toBeLessThan(6);
  }, 60_000);
});
