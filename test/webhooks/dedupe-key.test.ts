/**
 * `defaultDedupeKey` as its JSDoc describes it: `<event>:<request_id>:<sha256>`, the last part the
 * SHA-256 (hex) of the event's canonical JSON (keys sorted, no white space), the first two cut at
 * 64 characters, an empty middle part for an event without a `request_id`.
 */

import { createHash } from 'node:crypto';
import { defaultDedupeKey, parseWebhookEvent } from 'partner-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { subscriptionEndedBody } from '../helpers/webhook-bodies';

/** JSON with every object's keys sorted and no white space, written here from the sentence. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${sortedJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('defaultDedupeKey', () => {
  it('is the event name, the request_id and the SHA-256 of the canonical JSON', async () => {
    const event = parseWebhookEvent(JSON.stringify(subscriptionEndedBody));
    const requestId = subscriptionEndedBody.metadata.request_id;
    expect(await defaultDedupeKey(event)).toBe(
      `subscription_ended:${requestId}:${sha256(sortedJson(event))}`,
    );
  });

  it('cuts the name and the request_id at 64 characters, the digest covering them whole', async () => {
    const name = `order_${'x'.repeat(94)}`;
    const requestId = 'r'.repeat(100);
    const event = parseWebhookEvent(
      JSON.stringify({
        ...subscriptionEndedBody,
        event: name,
        metadata: { ...subscriptionEndedBody.metadata, request_id: requestId },
      }),
    );
    const [shownName, shownId, digest] = (await defaultDedupeKey(event)).split(':');
    expect(shownName).toBe(name.slice(0, 64));
    expect(shownId).toBe(requestId.slice(0, 64));
    expect(digest).toBe(sha256(sortedJson(event)));
  });

  it('leaves the middle part empty for an event without a request_id', async () => {
    const { request_id: _, ...metadata } = subscriptionEndedBody.metadata;
    const event = parseWebhookEvent(JSON.stringify({ ...subscriptionEndedBody, metadata }));
    expect(await defaultDedupeKey(event)).toBe(`subscription_ended::${sha256(sortedJson(event))}`);
  });
});
