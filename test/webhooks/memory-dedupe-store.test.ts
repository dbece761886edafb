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

describe('MemoryDedupeStore: at its bound, over many evictions', () => {
  // Its own recency list, not a Map's insertion order (whose walk from the start slowed every call
  // at a large bound): the order it forgets in must be the one it always had.
  const claimOptions = { leaseMs: 65_000, owner: 'o' };
  const handled = async (store: PublicMemoryDedupeStore, key: string) => {
    await store.claim(key, claimOptions);
    await store.complete(key, { ttlMs: 604_800_000, owner: 'o' });
  };

  it('forgets the least recently used key first; a redelivery makes its key the most recent', async () => {
    const store = new PublicMemoryDedupeStore({ maxEntries: 1_000 });
    for (let i = 0; i < 1_000; i++) await handled(store, `k${i}`);
    // A redelivery of k0, answered as handled, makes it the most recent.
    expect(await store.claim('k0', claimOptions)).toBe('handled');
    for (let i = 1_000; i < 1_500; i++) await handled(store, `k${i}`);
    expect(store.size).toBe(1_000);
    for (const kept of ['k0', 'k501', 'k999', 'k1499']) {
      expect(await store.claim(kept, claimOptions), kept).toBe('handled');
    }
    for (const dropped of ['k1', 'k250', 'k500']) {
      expect(await store.claim(dropped, claimOptions), dropped).toBe('claimed');
    }
    expect(store.size).toBe(1_000);
  });

  it('drops a handled key before a live claim, and a live claim only when nothing else is left', async () => {
    const store = new PublicMemoryDedupeStore({ maxEntries: 3 });
    expect(await store.claim('slow', claimOptions)).toBe('claimed');
    await handled(store, 'a');
    await handled(store, 'b');
    await handled(store, 'c');
    // 'a' went, though 'slow' is older: its handler still runs.
    expect(await store.claim('slow', claimOptions)).toBe('in-progress');
    expect(await store.claim('a', claimOptions)).toBe('claimed');
  });
});
