/**
 * A wait's poll options given wrongly from plain JavaScript: a `RequestValidationError` before the
 * first poll (and before the refund `requestAndWait` would ask for), never a `TypeError` from the
 * loop and never a wait that runs on defaults after ignoring a misspelt option.
 */

import { RequestValidationError } from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { hostileService, outcomeOf } from '../helpers/hostile-inputs';

const start = hostileService();

describe('poll options from plain JavaScript', () => {
  it.each([
    ['null', null],
    ['a string', 'fast'],
    ['a misspelt key', { intervall: 5 }],
    ['a signal that is no AbortSignal', { signal: {} }],
  ])('refuse %s with a RequestValidationError, nothing sent', async (_, pollOptions) => {
    const { seller, sent } = await start();
    for (const wait of [
      () => seller.refunds.waitForCompletion('tx_1', pollOptions as never),
      () => seller.refunds.requestAndWait('tx_1', {}, pollOptions as never),
      () => seller.statements.waitForExport('exp_1', pollOptions as never),
    ]) {
      const outcome = await outcomeOf(wait);
      expect(outcome.kind === 'refused' && outcome.error).toBeInstanceOf(RequestValidationError);
    }
    expect(sent()).toEqual([]);
  });

  it('name the option at fault in the issue path, as a value out of range is', async () => {
    const { seller } = await start();
    for (const pollOptions of [{ signal: {} }, { onStatus: 'log' }, { interval: -1 }]) {
      const outcome = await outcomeOf(() =>
        seller.refunds.waitForCompletion('tx_1', pollOptions as never),
      );
      const error = outcome.kind === 'refused' ? outcome.error : undefined;
      expect(error).toBeInstanceOf(RequestValidationError);
      const [name] = Object.keys(pollOptions);
      expect((error as RequestValidationError).issues.map((issue) => issue.path)).toEqual([[name]]);
    }
  });
});
