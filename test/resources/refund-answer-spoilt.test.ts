/**
 * A refund request the service acted on (it made the refund and answered 202) whose answer then
 * reached the SDK spoilt: its body cut short, half a gzip stream, an HTML page, an empty body, JSON
 * of another shape. The refund completes meanwhile, so a blind repeat would make a second one: the
 * call returns what the service did, or fails with an error that names the 202, and the service
 * holds exactly one refund.
 */

import { APIConnectionError, PartnerClient, ResponseValidationError } from 'partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import type { Spoilt } from '../helpers/lossy-proxy';
import { type SpoiltRefunds, startSpoiltRefunds } from '../helpers/spoilt-refunds';

let service: SpoiltRefunds | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function requestThrough(how: Spoilt, maxRetries: number) {
  service = await startSpoiltRefunds(how);
  const client = new PartnerClient({
    baseUrl: service.proxy.baseUrl,
    clientToken: service.mock.credentials.clientToken,
    logLevel: 'off',
    maxRetries,
  });
  const hash = service.transactions[0]!;
  const outcome = await client
    .forUser(service.sellerToken)
    .refunds.request(hash)
    .then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error }),
    );
  return { ...outcome, refunds: await service.refundsOf(hash), posts: service.posts() };
}

describe('a refund request answered 202 with a spoilt body', () => {
  it.each(['cut-body-after', 'cut-chunked-after', 'cut-gzip-after'] as const)(
    'after %s, returns the refund the service made, found by reading the refunds',
    async (how) => {
      const { result, refunds, posts } = await requestThrough(how, 2);
      expect(result).toMatchObject({
        kind: 'existing',
        recovered: true,
        refund: { status: 'completed' },
      });
      expect(refunds).toHaveLength(1);
      expect(posts).toBe(1);
    },
  );

  it.each(['cut-body-after', 'cut-chunked-after', 'cut-gzip-after'] as const)(
    'after %s with maxRetries 0, throws an APIConnectionError naming the 202 and keeping the start of the body',
    async (how) => {
      const { error, refunds, posts } = await requestThrough(how, 0);
      expect(error).toBeInstanceOf(APIConnectionError);
      const broken = error as APIConnectionError;
      expect(broken.message).toMatch(
        /→ 202 Accepted, but its (gzip )?body broke off after \d+ bytes/,
      );
      expect(broken.status).toBe(202);
      expect(broken.body).toMatch(/^\{"status":"processing"/);
      expect(refunds).toHaveLength(1);
      expect(posts).toBe(1);
    },
  );

  it.each(['html-after', 'empty-after'] as const)(
    "after %s, gives kind 'accepted': the 202 is the outcome",
    async (how) => {
      const { result, refunds, posts } = await requestThrough(how, 2);
      expect(result).toMatchObject({ kind: 'accepted', transactionHash: service!.transactions[0] });
      expect(refunds).toHaveLength(1);
      expect(posts).toBe(1);
    },
  );

  it('after JSON of another shape, throws ResponseValidationError with the 202 and the body, sent once', async () => {
    const { error, refunds, posts } = await requestThrough('reshaped-after', 2);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const reshaped = error as ResponseValidationError;
    expect(reshaped.status).toBe(202);
    expect(reshaped.message).toContain('→ 202 Accepted');
    expect(reshaped.body).toEqual({ status: 'success', message: 'ok', data: 'done' });
    expect(refunds).toHaveLength(1);
    expect(posts).toBe(1);
  });
});
