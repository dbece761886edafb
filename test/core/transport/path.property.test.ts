/**
 * A path parameter always stays one segment: whatever string a caller passes, it is refused with
 * `RequestValidationError` (empty, `.`, `..`) or encoded so that the URL has exactly the segments
 * of its template, and decoding the segment gives the value back.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../src/core/errors';
import { path } from '../../../src/core/transport/path';

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('.', '..', '', ' ', '/', '%2F', '..%2F', '?a=1', '#x', '\\', '%', '%%2e%2e'),
  fc
    .array(fc.constantFrom('.', '/', '%', '?', '#', '\\', 'a', '2', 'e', 'F'), { maxLength: 8 })
    .map((parts) => parts.join('')),
);

describe('path parameters', () => {
  it('always stay one segment, or are refused before anything is sent', () => {
    fc.assert(
      fc.property(hostile, hostile, (transactionHash, other) => {
        let built: string;
        try {
          built = path`/financial/refund/${{ transactionHash }}/status/${{ other }}`;
        } catch (error) {
          expect(error).toBeInstanceOf(RequestValidationError);
          return;
        }
        const url = new URL(`https://partner.example.com/api/v1${built}`);
        const segments = url.pathname.split('/');
        expect(segments).toHaveLength(8);
        expect(segments.slice(0, 4)).toEqual(['', 'api', 'v1', 'financial']);
        expect(segments[4]).toBe('refund');
        expect(decodeURIComponent(segments[5]!)).toBe(transactionHash);
        expect(segments[6]).toBe('status');
        expect(decodeURIComponent(segments[7]!)).toBe(other);
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
      }),
      { numRuns: 500 },
    );
  });
});

describe('a number as a path parameter', () => {
  it('is sent as its digits, and refused when it is NaN or infinite', () => {
    expect(path`/products/${{ productHash: 42 }}`).toBe('/products/42');
    for (const productHash of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => path`/products/${{ productHash }}`).toThrow(RequestValidationError);
    }
  });
});
