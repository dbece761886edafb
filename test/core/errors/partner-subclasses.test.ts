/**
 * The narrowing a partner writes over the SDK's errors, their own classes among them: a partner's
 * application error built on `PartnerError` (so one `instanceof PartnerError` catches both) must
 * not claim every error of the SDK as its own.
 */

import { NotFoundError, PartnerError } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { kitClients } from '../../helpers/kit-clients';

/** A partner's own error, on the SDK's base so one catch takes both. */
class CheckoutStepError extends PartnerError {}

describe("a partner's own subclass of PartnerError", () => {
  it("matches its own instances only, not the SDK's errors", async () => {
    const { client } = kitClients(createMockPartnerApi());
    const sdkError = await client.products.retrieve('prd_none').catch((e: unknown) => e);
    expect(sdkError).toBeInstanceOf(NotFoundError);
    expect(sdkError instanceof CheckoutStepError).toBe(false);
    const own = new CheckoutStepError('the cart expired');
    expect(own).toBeInstanceOf(CheckoutStepError);
    expect(own).toBeInstanceOf(PartnerError);
    expect(own instanceof NotFoundError).toBe(false);
    expect(own.name).toBe('CheckoutStepError');
  });

  it('matches through a subclass of its own too', () => {
    class ExpiredCartError extends CheckoutStepError {}
    expect(new ExpiredCartError('late')).toBeInstanceOf(CheckoutStepError);
    expect(new CheckoutStepError('x') instanceof ExpiredCartError).toBe(false);
  });
});
