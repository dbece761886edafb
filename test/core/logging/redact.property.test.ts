/**
 * Redaction (core/logging/redact.ts) never lets a registered secret through, whatever surrounds it, in
 * text, in structures (as a value or as a key) and in headers; and it runs in linear time:
 * whatever unit an attacker repeats, sixteen times the text costs about sixteen times the work,
 * never two hundred and fifty-six. The growth is judged on the ratio of the best of several runs at
 * two sizes, with a generous bound, not on a time budget.
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
function best(work: () => void, runs = 5): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

/** A secret short enough to be masked only where it stands as a word (some services issue such). */
const SHORT_SECRET = 'Zq9';

describe('redaction runs in linear time', () => {
  // One text sixteen times as long costs what sixteen texts of the first length cost when the work
  // is linear, and sixteen times that when it is quadratic: the ratio of the two tells them apart
  // whatever the machine's speed or load, since both runs read as much. Allocation of the longer
  // strings costs a little more, hence a bound well above 1 and well below 16.
  it('whatever unit is repeated, one 16x text costs about what 16 texts cost', () => {
    const unit = fc.stringMatching(/^[eyJa.\-_:="'?& ]{1,8}$/);
    const adversarial = fc.oneof(
      fc.constantFrom('eyJ', 'eyJa.', 'eyJaaaa.aaaa', 'client_token ', 'client_token=', 'Bearer '),
      // A URL query's credential parameters are masked too: runs of names without `=`, or of
      // parameters, must not cost a pass per character.
      fc.constantFrom('?', '?sig', '&signature', '?sig=', '&key=v', 'a', 'key'),
      // A URL's password: runs of `://` with a user and a password but no `@`, or of whole ones.
      fc.constantFrom('://a:b', 'x://user:pw', '://:', 'a:b@', '://u:p@h ', ':@'),
      // A short secret is masked only as a word of its own: runs of it, alone or inside words.
      fc.constantFrom(SHORT_SECRET, `${SHORT_SECRET} `, `x${SHORT_SECRET}`, `${SHORT_SECRET}x `),
      unit,
    );
    registerSecret(SHORT_SECRET);
    fc.assert(
      fc.property(adversarial, (piece) => {
        const small = piece.repeat(Math.ceil(25_000 / piece.length));
        const large = small.repeat(16);
        // A loaded machine can stall a measurement, and in a full shuffled run it stalled three
        // in a row on a text that costs linear time alone: the best of up to five ratios counts,
        // since a quadratic cost shows in every one of them.
        let ratio = Number.POSITIVE_INFINITY;
        for (let trial = 0; trial < 5 && ratio >= 6; trial++) {
          const manySmall = best(() => {
            for (let copy = 0; copy < 16; copy++) redactText(small);
          });
          const oneLarge = best(() => redactText(large));
          ratio = Math.min(ratio, oneLarge / Math.max(manySmall, 0.5));
        }
        expect(ratio).toBeLessThan(6);
      }),
      { numRuns: 15 },
    );
  });
});
