/**
 * A partner typing a callback of a bulk job's outcomes names it from `partner-sdk/bulk` alone:
 * `RefundOutcome`, `RefundWaitOutcome` and `OfferUpdateOutcome` are what each operation's job
 * yields, and `BulkOutcome<I>` (its result `unknown`) serves a handler of any job's outcomes.
 */

import type { Offer, RefundRequestResult, RefundStatus } from 'partner-sdk';
import type {
  BulkJob,
  BulkOutcome,
  OfferUpdateItem,
  OfferUpdateOutcome,
  RefundOutcome,
  RefundRequestItem,
  RefundWaitItem,
  RefundWaitOutcome,
  requestRefunds,
  updateOffers,
  waitForRefunds,
} from 'partner-sdk/bulk';
import { describe, expectTypeOf, test } from 'vitest';

type OutcomeOf<J> = J extends AsyncIterable<infer O> ? O : never;

describe('the outcome of each bulk operation has a name in partner-sdk/bulk', () => {
  test('each is what its job yields', () => {
    expectTypeOf<OutcomeOf<ReturnType<typeof requestRefunds>>>().toEqualTypeOf<RefundOutcome>();
    expectTypeOf<OutcomeOf<ReturnType<typeof waitForRefunds>>>().toEqualTypeOf<RefundWaitOutcome>();
    expectTypeOf<OutcomeOf<ReturnType<typeof updateOffers>>>().toEqualTypeOf<OfferUpdateOutcome>();
  });

  test('each is the general outcome of its item and result', () => {
    expectTypeOf<RefundOutcome>().toEqualTypeOf<
      BulkOutcome<RefundRequestItem, RefundRequestResult>
    >();
    expectTypeOf<RefundWaitOutcome>().toEqualTypeOf<BulkOutcome<RefundWaitItem, RefundStatus>>();
    expectTypeOf<OfferUpdateOutcome>().toEqualTypeOf<BulkOutcome<OfferUpdateItem, Offer>>();
  });

  test('a callback typed with one reads its result narrowed on status', () => {
    const onOutcome = (outcome: RefundOutcome) => {
      if (outcome.status === 'succeeded') {
        expectTypeOf(outcome.result).toEqualTypeOf<RefundRequestResult>();
      }
      if (outcome.status === 'failed') expectTypeOf(outcome.error).toEqualTypeOf<unknown>();
    };
    expectTypeOf(onOutcome).parameter(0).toEqualTypeOf<RefundOutcome>();
  });

  test('BulkOutcome and BulkJob take the result as unknown when it is not named', () => {
    expectTypeOf<BulkOutcome<string>>().toEqualTypeOf<BulkOutcome<string, unknown>>();
    expectTypeOf<BulkJob<string>>().toEqualTypeOf<BulkJob<string, unknown>>();
    // Any job's outcome fits a handler of the general one.
    expectTypeOf<OfferUpdateOutcome>().toExtend<BulkOutcome<OfferUpdateItem>>();
  });
});
