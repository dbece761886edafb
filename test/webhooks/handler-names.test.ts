/**
 * `on` takes any event name (the spec lists few, §6), so a handler under a near-miss of a name the
 * spec shows (`subscription.ended`) compiles and never runs: the event goes to `onUnknown` or is
 * acknowledged unhandled. The receiver says so once, when it is made.
 */

import { createWebhookHandler, type Logger } from 'partner-sdk/webhooks';
import { describe, expect, it } from 'vitest';

function recorder(): { logger: Logger; warn: string[] } {
  const warn: string[] = [];
  const ignore = () => {};
  return {
    warn,
    logger: {
      debug: ignore,
      info: ignore,
      warn: (line: string) => void warn.push(line),
      error: ignore,
    },
  };
}

const handler = async () => {};

describe('a handler under a near-miss of an event name the spec shows', () => {
  it('is named in one warning with the name it probably meant', () => {
    const { logger, warn } = recorder();
    createWebhookHandler({
      on: {
        'subscription.ended': handler,
        'Bank-Account-Updated': handler,
        ' user_updated': handler,
        user_updated: handler,
        order_created: handler,
      },
      verify: () => true,
      logger,
    });
    expect(warn).toHaveLength(3);
    expect(warn[0]).toMatch(/on\["subscription\.ended"\].*subscription_ended/);
    expect(warn[1]).toMatch(/on\["Bank-Account-Updated"\].*bank_account_updated/);
    expect(warn[2]).toMatch(/on\[" user_updated"\].*user_updated/);
  });

  it('is not repeated for a second receiver on the same logger, and names sent by the service pass quietly', () => {
    const { logger, warn } = recorder();
    const options = { on: { 'subscription-ended': handler }, verify: () => true, logger };
    createWebhookHandler(options);
    createWebhookHandler(options);
    expect(warn).toHaveLength(1);
    createWebhookHandler({
      on: { subscription_ended: handler, bank_account_deleted: handler, charge_created: handler },
      verify: () => true,
      logger,
    });
    expect(warn).toHaveLength(1);
  });
});
