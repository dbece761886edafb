/**
 * What a long-lived service's SDK holds stays bounded however long it runs: per seller (a seller
 * client, or a whole client, per seller, with credentials of its own or not; a few thousand
 * sellers calling again and again through one shared client and a derived client per request),
 * per refused seller, per error body, per URL, per schema a raw call brings, per call given one
 * long-lived signal, per webhook delivery. Each scenario runs in a child process with `--expose-gc`; the heap used after a
 * full collection must stop growing once the documented bounds are full (the first checkpoint is
 * past every bound: 256 recent sellers' tokens, 1,024 refused ones, 10,000 webhook deliveries).
 */

import { describe, expect, it } from 'vitest';
import { runToExit } from './helpers/children';

/** Far under what any per-use leak over the last three quarters of the run would hold. */
const GROWTH_WITHIN_MB = 1;

describe('memory of a long-lived service', () => {
  it.each([
    ['a seller client per seller', 20_000],
    ['a client per seller', 20_000],
    ['a client with credentials of its own per seller', 20_000],
    ['calls of a few thousand sellers on one shared client', 50_000],
    ['refused sellers', 20_000],
    ['distinct error bodies', 20_000],
    ['distinct URLs, traced and logged', 10_000],
    ['one shutdown signal for every call', 20_000],
    ['a schema built per raw call', 20_000],
    ['webhook deliveries', 40_000],
  ])(
    'stays bounded over %s (%i times)',
    async (scenario, count) => {
      const { printed } = await runToExit<{ heapMb: number[] }>(
        'test/client-memory.child.ts',
        { SCENARIO: scenario, COUNT: String(count) },
        110_000,
        ['--expose-gc'],
      );
      const [first, , , last] = printed.heapMb;
      expect(
        last! - first!,
        `heap used at each checkpoint, MB: ${printed.heapMb.join(', ')}`,
      ).toBeLessThan(GROWTH_WITHIN_MB);
    },
    120_000,
  );
});
