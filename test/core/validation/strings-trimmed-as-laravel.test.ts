/**
 * A request's strings are judged and sent trimmed as a Laravel service trims them (`TrimStrings`,
 * which calls `Str::trim`: PCRE's Unicode `\s`, the byte-order mark, the zero-width space, the
 * left-to-right mark and NUL), through the public client against a loopback stub that records the
 * bytes it received. What Laravel keeps (other format characters, a right-to-left mark, a joiner)
 * is kept and counted.
 */

import fc from 'fast-check';
import { PartnerClient, RequestValidationError } from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { paulistaAddress } from '../../helpers/addresses';
import { assertWithinBudget } from '../../helpers/property-budget';
import { json, type StubServer, stubsClosedAfterEach } from '../../helpers/stub-server';

const startStub = stubsClosedAfterEach();

/** What Laravel's `Str::trim` removes at either end beyond JavaScript's `trim`. */
const LARAVEL_ONLY = ['\u200B', '\u200E', '\0', '\u0085', '\u180E'];
/** What both remove: ASCII and Unicode spaces, line and paragraph separators, the byte-order mark. */
const BOTH = [' ', '\t', '\n', '\r', '\v', '\f', '\u00A0', '\u2007', '\u2028', '\u3000', '\uFEFF'];
/** Format characters Laravel keeps, at the ends too: they are part of the text. */
const KEPT = ['\u200C', '\u200D', '\u200F', '\u2060', '\u202E'];

async function refundStub(): Promise<StubServer> {
  return startStub((_request, res) =>
    json(
      res,
      202,
      { status: 'processing', data: { transaction_hash: 'tx_1' } },
      { location: '/x' },
    ),
  );
}

function clientOf(stub: StubServer): PartnerClient {
  return new PartnerClient({
    baseUrl: stub.baseUrl,
    clientToken: 'client-token',
    logLevel: 'off',
    maxRetries: 0,
  });
}

/** The error `call` rejects with (a call that resolves fails the test). */
async function rejectionOf(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => expect.unreachable('the call was sent'),
    (error: unknown) => error,
  );
}

/** The `reason` the stub received in its only request. */
function sentReason(stub: StubServer): unknown {
  expect(stub.requests).toHaveLength(1);
  return (JSON.parse(stub.requests[0]!.body) as { reason?: unknown }).reason;
}

describe('request strings trimmed as Laravel trims them', () => {
  it.each(LARAVEL_ONLY.map((mark) => [JSON.stringify(mark), mark]))(
    'a reason of 1000 characters with %s at both ends is sent as its 1000 characters',
    async (_shown, mark) => {
      const stub = await refundStub();
      const reason = `${mark}${'á'.repeat(1000)}${mark}`;
      await clientOf(stub).refunds.request('tx_1', { reason });
      expect(sentReason(stub)).toBe('á'.repeat(1000));
    },
  );

  it('a name of two letters inside zero-width spaces and marks is refused, nothing sent', async () => {
    const stub = await refundStub();
    const seller = clientOf(stub).forUser('public-token');
    const error = await rejectionOf(
      seller.users.update({
        name: '\u200BJo\u200E\0',
        address: paulistaAddress,
        cpf: '529.982.247-25',
        birth: '1988-04-12',
      }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((issue) => issue.path)).toEqual([['name']]);
    expect(stub.requests).toHaveLength(0);
  });

  it.each(KEPT.map((mark) => [JSON.stringify(mark), mark]))(
    'keeps %s at the ends and counts it: 1000 characters with it are 1001',
    async (_shown, mark) => {
      const stub = await refundStub();
      const client = clientOf(stub);
      const error = await rejectionOf(
        client.refunds.request('tx_1', { reason: `${'a'.repeat(1000)}${mark}` }),
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      await client.refunds.request('tx_1', { reason: `${mark}${'a'.repeat(999)}` });
      expect(sentReason(stub)).toBe(`${mark}${'a'.repeat(999)}`);
    },
  );

  it('sends any text inside any run of what Laravel trims as that text', async () => {
    const edge = fc
      .array(fc.constantFrom(...LARAVEL_ONLY, ...BOTH), { maxLength: 4 })
      .map((chars) => chars.join(''));
    // Text that neither begins nor ends with what is trimmed, inner spaces and marks included.
    const inner = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
      .map((text) => `x${text}x`);
    await assertWithinBudget(
      fc.asyncProperty(edge, inner, edge, async (before, text, after) => {
        const stub = await refundStub();
        await clientOf(stub).refunds.request('tx_1', { reason: `${before}${text}${after}` });
        expect(sentReason(stub)).toBe(text);
        await stub.close();
      }),
      { numRuns: 100, minRuns: 10, budgetMs: 5_000 },
    );
  }, 30_000);
});
