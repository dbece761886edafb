/**
 * Redaction (core/logging/redact.ts) runs in linear time: whatever unit an attacker repeats,
 * sixteen times the text costs about sixteen times the work, never two hundred and fifty-six. The
 * growth is judged on the ratio of the best of several runs at two sizes, with a generous bound,
 * not on a time budget; in CPU time, so that another process taking the core does not count. It
 * runs in a process of its own (the integration project): in the unit project's shared worker,
 * the secrets every other file had registered and the heap they had grown were in its timings,
 * and full shuffled runs stalled it on texts that cost linear time alone.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../../src/core/logging/known-secrets';
import { redactText } from '../../../src/core/logging/redact';

/** The least CPU time, in milliseconds, that `work` took in `runs` runs. */
function best(work: () => void, runs = 5): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    const started = process.cpuUsage();
    work();
    const { user, system } = process.cpuUsage(started);
    fastest = Math.min(fastest, (user + system) / 1000);
  }
  return fastest;
}

/** A secret short enough to be masked only where it stands as a word (some services issue such). */
const SHORT_SECRET = 'Zq9';

describe('redaction runs in linear time', () => {
  // One text sixteen times as long costs what sixteen texts of the first length cost when the work
  // is linear, and sixteen times that when it is quadratic: the ratio of the two tells them apart
  // whatever the machine's speed or load, since both runs read as much. Allocation of the longer
  // strings costs a little more, hence a bound well above 1 and well below 16. Both lengths are
  // past the size from which V8 keeps a string apart from the others (its large-object space):
  // crossing it, a text's cost per character steps up once (several times over for runs of
  // `://u:p@h `), a step a ratio across it would read as growth.
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
        const small = piece.repeat(Math.ceil(200_000 / piece.length));
        const large = small.repeat(16);
        // A collection can land in one measurement: the best of up to five ratios counts, since a
        // quadratic cost shows in every one of them.
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
    // Texts of megabytes, several runs each: seconds of CPU, more on a loaded machine.
  }, 60_000);
});
