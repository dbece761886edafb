/**
 * Redaction (core/logging/redact.ts) never lets a registered secret through, whatever surrounds it, in
 * text, in structures (as a value or as a key) and in headers. That it does so in linear time is
 * `redact-linear-time.test.ts`'s to show.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../../src/core/logging/known-secrets';
import { redactDeep, redactHeaders, redactText } from '../../../src/core/logging/redact';

/** Token-like secrets, as clients and sellers have (long enough that no word is one). */
const secret = fc.stringMatching(/^[A-Za-z0-9._~+/=-]{12,48}$/);

describe('a registered secret never gets through', () => {
  it('in text, whatever surrounds it', () => {
    fc.assert(
      fc.property(secret, fc.string(), fc.string(), fc.nat(3), (value, before, after, times) => {
        registerSecret(value);
        const text = before + value.repeat(times + 1) + after;
        expect(redactText(text)).not.toContain(value);
      }),
      { numRuns: 300 },
    );
  });

  it('in a structure, as a value or as a key, at any depth', () => {
    fc.assert(
      fc.property(secret, fc.string(), fc.jsonValue({ maxDepth: 3 }), (value, around, noise) => {
        registerSecret(value);
        const body = {
          noise,
          [value]: `${around}${value}`,
          nested: [{ [`${around}${value}`]: { deep: value } }],
        };
        expect(JSON.stringify(redactDeep(body))).not.toContain(value);
      }),
      { numRuns: 200 },
    );
  });

  it('in response headers', () => {
    fc.assert(
      fc.property(secret, fc.stringMatching(/^[a-z][a-z-]{0,20}$/), (value, name) => {
        registerSecret(value);
        const headers = new Headers({ [name]: `x ${value} y`, authorization: `Bearer ${value}` });
        const shown: string[] = [];
        redactHeaders(headers).forEach((v) => {
          shown.push(v);
        });
        expect(shown.join('\n')).not.toContain(value);
      }),
    );
  });
});

/** The best of `runs` timings of `work`, in milliseconds. */
