import { MemoryDedupeStore as PublicMemoryDedupeStore } from 'partner-sdk/webhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

describe('MemoryDedupeStore: full of live claims', () => {
  // Deliveries still being handled fill the store; making room keeps them apart from the keys it
  // may drop, and must drop exactly what the rule says: the least recently used expired claim or
  // handled mark, and a live claim (the least recently used) only when nothing else is left.
  afterEach(() => vi.useRealTimers());
  const lease = (leaseMs: number) => ({ leaseMs, owner: 'o' });

  it('drops the least recently used expired claim, never a live one, whichever expired first', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    const store = new PublicMemoryDedupeStore({ maxEntries: 4 });
    await store.claim('live-1', lease(60_000));
    await store.claim('short', lease(1_000));
    await store.claim('shorter', lease(500));
    await store.claim('live-2', lease(60_000));
    vi.setSystemTime(2_000);
    // 'shorter' expired first, but 'short' was used less recently: it goes.
    expect(await store.claim('new-1', lease(60_000))).toBe('claimed');
    expect(await store.claim('new-2', lease(60_000))).toBe('claimed');
    expect(store.size).toBe(4);
    for (const key of ['live-1', 'live-2', 'new-1', 'new-2']) {
      expect(await store.claim(key, lease(60_000)), key).toBe('in-progress');
    }
    // Nothing expired or handled is left: the least recently used live claim goes.
    expect(await store.claim('new-3', lease(60_000))).toBe('claimed');
    expect(await store.claim('live-1', lease(60_000))).toBe('claimed');
  });

  it('drops an expired claim used less recently than the oldest handled mark before that mark', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    const store = new PublicMemoryDedupeStore({ maxEntries: 3 });
    await store.claim('expiring', lease(1_000));
    await store.claim('done', lease(60_000));
    await store.complete('done', { ttlMs: 60_000, owner: 'o' });
    await store.claim('live', lease(60_000));
    vi.setSystemTime(5_000);
    await store.claim('new', lease(60_000));
    expect(await store.claim('done', lease(60_000))).toBe('handled');
    expect(await store.claim('live', lease(60_000))).toBe('in-progress');
    expect(store.size).toBe(3);
  });

  it('answers every call as the rule, walked key by key, says over thousands of random calls', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    const maxEntries = 8;
    const store = new PublicMemoryDedupeStore({ maxEntries });
    // The rule, over a Map kept in order of use (least recent first).
    const model = new Map<
      string,
      { state: 'claimed' | 'handled'; owner?: string; until: number }
    >();
    const use = (
      key: string,
      entry: { state: 'claimed' | 'handled'; owner?: string; until: number },
    ) => {
      model.delete(key);
      model.set(key, entry);
      if (model.size <= maxEntries) return;
      const now = Date.now();
      const droppable = [...model].find(([, e]) => e.until <= now || e.state === 'handled');
      model.delete(droppable ? droppable[0] : [...model.keys()][0]!);
    };
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let step = 0; step < 5_000; step++) {
      const key = `k${random(20)}`;
      const owner = `o${random(3)}`;
      const now = Date.now();
      const action = random(10);
      if (action < 6) {
        const leaseMs = 1 + random(3_000);
        const entry = model.get(key);
        let expected: string;
        if (entry && entry.until > now) {
          model.delete(key);
          model.set(key, entry);
          expected = entry.state === 'handled' ? 'handled' : 'in-progress';
        } else {
          use(key, { state: 'claimed', owner, until: now + leaseMs });
          expected = 'claimed';
        }
        expect(await store.claim(key, { leaseMs, owner }), `step ${step}`).toBe(expected);
      } else if (action < 8) {
        const ttlMs = 1 + random(3_000);
        await store.complete(key, { ttlMs, owner });
        use(key, { state: 'handled', until: now + ttlMs });
      } else if (action < 9) {
        await store.release(key, { owner });
        const entry = model.get(key);
        if (entry?.state === 'claimed' && entry.owner === owner) model.delete(key);
      } else {
        vi.setSystemTime(now + random(1_000));
      }
      expect(store.size, `step ${step}`).toBe(model.size);
    }
  });
});
