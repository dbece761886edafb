/**
 * "Typed errors for every failure … all under `PartnerError`" (README): every error class the
 * other entry points export is caught by the root entry's `PartnerError`, and an error one entry
 * throws is the class the root exports under its name. (That `instanceof` also holds between the
 * built ESM and CJS copies is `test/package`'s to show.)
 */

import { PartnerError, WebhookPayloadError } from 'partner-sdk';
import * as bulk from 'partner-sdk/bulk';
import * as bullmq from 'partner-sdk/bullmq';
import * as redis from 'partner-sdk/redis';
import * as webhooks from 'partner-sdk/webhooks';
import { describe, expect, it } from 'vitest';

const entries = {
  'partner-sdk/bulk': bulk,
  'partner-sdk/bullmq': bullmq,
  'partner-sdk/redis': redis,
  'partner-sdk/webhooks': webhooks,
};

/** The classes an entry exports under a name ending in `Error`. */
function errorClasses(entry: object): [string, { prototype: object }][] {
  return Object.entries(entry).filter(
    (pair): pair is [string, { prototype: object }] =>
      pair[0].endsWith('Error') && typeof pair[1] === 'function',
  );
}

describe('the error classes of the other entry points', () => {
  for (const [name, entry] of Object.entries(entries)) {
    it(`${name}: each is caught by the root's PartnerError`, () => {
      const classes = errorClasses(entry);
      expect(classes.length).toBeGreaterThan(0);
      for (const [className, ErrorClass] of classes) {
        expect({ className, partner: ErrorClass.prototype instanceof PartnerError }).toEqual({
          className,
          partner: true,
        });
      }
    });
  }

  it("partner-sdk/bullmq's errors keep their names and match only their own instances", () => {
    const busy = new bullmq.RefundLeaseBusyError('lease of tx_1 kept elsewhere');
    const missing = new bullmq.BatchNotRecordedError('cohort-7', 'refunds');
    // BullMQ shows a failed job's reason as `name: message`; the processors read it back by name.
    expect([busy.name, missing.name]).toEqual(['RefundLeaseBusyError', 'BatchNotRecordedError']);
    expect(String(busy)).toBe('RefundLeaseBusyError: lease of tx_1 kept elsewhere');
    expect(missing.batchId).toBe('cohort-7');
    expect(busy).toBeInstanceOf(PartnerError);
    expect(busy).not.toBeInstanceOf(bullmq.BatchNotRecordedError);
    expect(new bulk.JournalLockedError('journal taken')).not.toBeInstanceOf(
      bullmq.RefundLeaseBusyError,
    );
    expect(missing.toJSON()).toMatchObject({ name: 'BatchNotRecordedError', batchId: 'cohort-7' });
  });

  it("parseWebhookEvent's WebhookPayloadError is the root's WebhookPayloadError, not just a PartnerError", () => {
    let thrown: unknown;
    try {
      webhooks.parseWebhookEvent('{not json');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(WebhookPayloadError);
    expect(thrown).toBeInstanceOf(webhooks.WebhookPayloadError);
    expect((thrown as WebhookPayloadError).issues).toEqual([]);
    expect(thrown).not.toBeInstanceOf(bulk.JournalLockedError);
  });
});
