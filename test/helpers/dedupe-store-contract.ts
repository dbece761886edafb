/**
 * The promises every `WebhookDedupeStore` makes (see its TSDoc in src/webhooks/dedupe.ts), as a
 * vitest suite to run on each implementation:
 *
 * ```ts
 * describeDedupeStoreContract('MemoryDedupeStore', () => new MemoryDedupeStore());
 * describeDedupeStoreContract('RedisDedupeStore (ioredis)', () => redisDedupeStore(client));
 * ```
 *
 * Every test uses fresh random keys, so a store shared between tests (one Redis database) needs
 * no flushing. Expiry tests wait a little past short leases (`shortMs`, default 150 ms) and ask
 * nothing of the store while one lasts, as a loaded machine may take that long to ask; the waits
 * stay well under a second.
 */

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { WebhookDedupeStore } from '../../src/webhooks/index';
import { sleep } from './waits';

export interface DedupeStoreContractOptions {
  /** A lease or time to live that ends during the test; default 150 ms. */
  shortMs?: number;
  /** How many receivers race for one key; default 50. */
  racers?: number;
}

const LONG_MS = 60_000;
const TTL_MS = 60_000;

const freshKey = (label = 'contract') => `${label}:${randomUUID()}`;
const owner = () => randomUUID();

/**
 * Runs the contract's tests on the store that `makeStore` gives (called once per test).
 *
 * @example
 * ```ts
 * describeDedupeStoreContract('MemoryDedupeStore', () => new MemoryDedupeStore());
 * ```
 */
export function describeDedupeStoreContract(
  name: string,
  makeStore: () => WebhookDedupeStore | Promise<WebhookDedupeStore>,
  options: DedupeStoreContractOptions = {},
): void {
  const shortMs = options.shortMs ?? 150;
  const racers = options.racers ?? 50;

  describe(`${name}: the WebhookDedupeStore contract`, () => {
    it('gives a free key to the first claim, and answers in-progress to any later one', async () => {
      const store = await makeStore();
      const key = freshKey();
      expect(await store.claim(key, { leaseMs: LONG_MS, owner: owner() })).toBe('claimed');
      expect(await store.claim(key, { leaseMs: LONG_MS, owner: owner() })).toBe('in-progress');
      expect(await store.claim(key, { leaseMs: LONG_MS, owner: owner() })).toBe('in-progress');
    });

    it(`lets exactly one of ${racers} concurrent claims of one key win`, async () => {
      const store = await makeStore();
      const key = freshKey('race');
      const results = await Promise.all(
        Array.from({ length: racers }, () =>
          store.claim(key, { leaseMs: LONG_MS, owner: owner() }),
        ),
      );
      expect(results.filter((result) => result === 'claimed')).toHaveLength(1);
      expect(results.filter((result) => result === 'in-progress')).toHaveLength(racers - 1);
    });

    it('keeps keys apart: a claim on one never answers for another', async () => {
      const store = await makeStore();
      const base = freshKey();
      const keys = [base, `${base}:x`, `${base} `, `${base}ß`, `${base}${'k'.repeat(1000)}`];
      for (const key of keys) {
        expect(await store.claim(key, { leaseMs: LONG_MS, owner: owner() })).toBe('claimed');
      }
    });

    it('lets the next claim win at once after the owner releases', async () => {
      const store = await makeStore();
      const key = freshKey();
      const first = owner();
      await store.claim(key, { leaseMs: LONG_MS, owner: first });
      await store.release(key, { owner: first });
      const second = owner();
      expect(await store.claim(key, { leaseMs: LONG_MS, owner: second })).toBe('claimed');
      expect(await store.claim(key, { leaseMs: LONG_MS, owner: owner() })).toBe('in-progress');
    });

    it("leaves another owner's claim in place on release", async () => {
      const store = await makeStore();
      const key = freshKey();
      await store.claim(key, { leaseMs: LONG_MS, owner: owner() });
      await store.release(key, { owner: owner() });
      expect(await store.claim(key, { leaseMs: LONG_MS, owner: owner() })).toBe('in-progress');
    });

    it('answers handled to every claim, concurrent ones too, once the delivery is complete', async () => {
      const store = await makeStore();
      const key = freshKey();
      const first = owner();
      await store.claim(key, { leaseMs: LONG_MS, owner: first });
      await store.complete(key, { ttlMs: TTL_MS, owner: first });
      const results = await Promise.all(
        Array.from({ length: 10 }, () => store.claim(key, { leaseMs: LONG_MS, owner: owner() })),
      );
      expect(results).toEqual(Array(10).fill('handled'));
    });

    it('never lets a release remove a handled mark, by its owner or another', async () => {
      const store = await makeStore();
      const key = freshKey();
      const first = owner();
      await store.claim(key, { leaseMs: LONG_MS, owner: first });
      await store.complete(key, { ttlMs: TTL_MS, owner: first });
      await store.release(key, { owner: first });
      await store.release(key, { owner: owner() });
      expect(await store.claim(key, { leaseMs: LONG_MS, owner: owner() })).toBe('handled');
    });

    it("marks handled over another owner's claim, and on a key nobody claimed", async () => {
      const store = await makeStore();
      const claimedByOther = freshKey();
      await store.claim(claimedByOther, { leaseMs: LONG_MS, owner: owner() });
      await store.complete(claimedByOther, { ttlMs: TTL_MS, owner: owner() });
      expect(await store.claim(claimedByOther, { leaseMs: LONG_MS, owner: owner() })).toBe(
        'handled',
      );
      const neverClaimed = freshKey();
      await store.complete(neverClaimed, { ttlMs: TTL_MS, owner: owner() });
      expect(await store.claim(neverClaimed, { leaseMs: LONG_MS, owner: owner() })).toBe('handled');
    });

    it('resolves a release of a key nobody claimed, and changes nothing', async () => {
      const store = await makeStore();
      const key = freshKey();
      await expect(store.release(key, { owner: owner() })).resolves.toBeUndefined();
      expect(await store.claim(key, { leaseMs: LONG_MS, owner: owner() })).toBe('claimed');
    });

    it('lets a claim win once the previous lease ended (a crashed receiver never blocks forever)', async () => {
      const store = await makeStore();
      const key = freshKey();
      const crashed = owner();
      expect(await store.claim(key, { leaseMs: shortMs, owner: crashed })).toBe('claimed');
      // No claim is asked for while the lease lasts: on a loaded machine it could already have
      // ended (a live claim's in-progress is the first test's). A lease ends by time alone: this
      // test is about that time passing.
      await sleep(shortMs * 2 + 50);
      const next = owner();
      expect(await store.claim(key, { leaseMs: LONG_MS, owner: next })).toBe('claimed');
      // The crashed receiver's late release must not free the claim that replaced its own.
      await store.release(key, { owner: crashed });
      expect(await store.claim(key, { leaseMs: LONG_MS, owner: owner() })).toBe('in-progress');
    });

    it('forgets a handled mark once its time to live ended', async () => {
      const store = await makeStore();
      const key = freshKey();
      const first = owner();
      await store.claim(key, { leaseMs: LONG_MS, owner: first });
      await store.complete(key, { ttlMs: shortMs, owner: first });
      // No claim is asked for while the mark lasts: on a loaded machine it could already be gone
      // (a live mark's handled is tested above). A mark is forgotten by time alone: this test is
      // about that time passing.
      await sleep(shortMs * 2 + 50);
      expect(await store.claim(key, { leaseMs: LONG_MS, owner: owner() })).toBe('claimed');
    });

    it('gives each of many keys claimed at once to exactly one claimer', async () => {
      const store = await makeStore();
      const keys = Array.from({ length: 20 }, () => freshKey('many'));
      const attempts = keys.flatMap((key) =>
        Array.from({ length: 5 }, () =>
          store
            .claim(key, { leaseMs: LONG_MS, owner: owner() })
            .then((result) => ({ key, result })),
        ),
      );
      const results = await Promise.all(attempts);
      for (const key of keys) {
        const won = results.filter((entry) => entry.key === key && entry.result === 'claimed');
        expect(won, key).toHaveLength(1);
      }
    });
  });
}
