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
