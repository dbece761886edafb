/**
 * How the receiver names an event in its log lines and error messages, where the name comes from
 * the sender; and the names the spec shows.
 *
 * @module
 */

import { shortened } from '../shared/cut-text';

/** The event names the spec lists (§6): every other name is one it does not show. */
export const SPEC_EVENT_NAMES: ReadonlySet<string> = new Set([
  'user_updated',
  'bank_account_updated',
  'bank_account_deleted',
  'subscription_ended',
]);

/**
 * The name the spec shows that `name` probably meant, when `name` is not one but differs from it
 * only in case, spaces or separators (`subscription.ended`, `Bank-Account-Updated`).
 *
 * @example
 * ```ts
 * nearSpecEventName('subscription.ended'); // 'subscription_ended'
 * nearSpecEventName('order_created'); // undefined
 * ```
 */
export function nearSpecEventName(name: string): string | undefined {
  if (SPEC_EVENT_NAMES.has(name)) return undefined;
  const folded = name
    .trim()
    .toLowerCase()
    .replace(/[\s.:-]+/g, '_');
  return SPEC_EVENT_NAMES.has(folded) ? folded : undefined;
}

const MAX_SHOWN = 64;
// Up to MAX_SHOWN word characters (and `.`, `:`, `-`): shown as they are.
const PLAIN_NAME = /^[\w.:-]{1,64}$/;

/**
 * An event's name as a log line or an error message shows it: a plain name (word characters, up
 * to 64) as it is, any other quoted and cut at 64 characters. The name comes from the sender, so
 * a line break or a terminal escape in it must not write lines of its own into the partner's log,
 * nor a megabyte-long name fill it.
 *
 * @example
 * ```ts
 * shownEventName('subscription_ended'); // 'subscription_ended'
 * shownEventName('x\n[partner-sdk] forged'); // '"x\\n[partner-sdk] forged"'
 * ```
 */
export function shownEventName(name: string): string {
  if (PLAIN_NAME.test(name)) return name;
  return JSON.stringify(shortened(name, MAX_SHOWN));
}
