/**
 * A query value reaches the service as the text given, whatever it holds (`+`, `&`, `=`, `#`, `%`,
 * spaces, accents in either normal form, emoji, NUL): each is percent-encoded, so a form-style
 * reading (PHP's, `URLSearchParams`'), where `+` is a space, gives the value back and no other
 * parameter appears. Through the public client against a loopback stub that records the raw URL.
 */

import fc from 'fast-check';
import { PartnerClient } from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { assertWithinBudget } from '../../helpers/property-budget';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';

const startStub = stubsClosedAfterEach();

const tricky = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary-ascii' }),
  fc
    .array(
      fc.constantFrom('+', '&', '=', '#', '%', '%2B', ' ', '?', '/', 'e\u0301', 'é', '😀', '\0'),
      {
        maxLength: 8,
      },
    )
    .map((parts) => parts.join('')),
);

describe('query values', () => {
  it('reach the service as given, one parameter each', async () => {
    const stub = await startStub((_request, res) =>
      json(res, 200, { data: [], meta: { current_page: 1, last_page: 1, per_page: 15, total: 0 } }),
    );
    const client = new PartnerClient({
      baseUrl: stub.baseUrl,
      clientToken: 'client-token',
      logLevel: 'off',
      maxRetries: 0,
    });
    await assertWithinBudget(
      fc.asyncProperty(tricky, tricky, async (search, tag) => {
        stub.requests.length = 0;
        await client.products.list({ page: 2 }, { extraQuery: { search, tag } });
        const raw = stub.requests[0]!.path;
        expect(raw).not.toContain('#');
        const query = new URLSearchParams(raw.slice(raw.indexOf('?') + 1));
        expect([...query.keys()]).toEqual(['page', 'search', 'tag']);
        expect(query.get('search')).toBe(search);
        expect(query.get('tag')).toBe(tag);
      }),
      { numRuns: 200, minRuns: 20, budgetMs: 5_000 },
    );
  }, 30_000);
});
