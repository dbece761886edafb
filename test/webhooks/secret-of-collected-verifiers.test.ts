/**
 * A receiver that makes a `secretVerifier` per request or per seller, each with a secret of its
 * own, must not grow the set of secrets every masked text is scanned for: once such a verifier is
 * collected its secrets join the 256 recently used ones, and the oldest are let go, as a collected
 * client's credentials do. A verifier still reachable (its handler in use) keeps its own masked,
 * as written and as a URL carries them, however many come and go.
 *
 * Collection is forced with V8's `gc`, and the release it causes is awaited a turn at a time, for
 * at most five seconds.
 */

import { describe, expect, it } from 'vitest';
import { createWebhookHandler, secretVerifier } from '../../src/webhooks/index';
import { AT_MOST_MASKED, collectUntil, maskedAmong, numbered } from '../helpers/collected-secrets';

const VERIFIERS = 400;

describe('the secrets of webhook verifiers since collected', () => {
  it(`are let go past the 256 recent ones once ${VERIFIERS} verifiers with secrets of their own are dropped`, async () => {
    const secrets = numbered('collected-webhook-secret', VERIFIERS);
    for (const secret of secrets) secretVerifier({ secret, query: 'token' });
    await collectUntil(async () => (await maskedAmong(secrets)) <= AT_MOST_MASKED);
    expect(await maskedAmong(secrets)).toBeLessThanOrEqual(AT_MOST_MASKED);
  });

  it('stay masked for a verifier still in use, as written and URL-encoded, and for each of a rotation', async () => {
    const live = ['collected-live-webhook/secret+1', 'collected-live-webhook-next'];
    const handler = createWebhookHandler({
      on: {},
      verify: secretVerifier({ secret: live, query: 'token' }),
    });
    const others = numbered('collected-other-webhook-secret', VERIFIERS);
    for (const secret of others) {
      createWebhookHandler({ on: {}, verify: secretVerifier({ secret, header: 'x-token' }) });
    }
    await collectUntil(async () => (await maskedAmong(others)) <= AT_MOST_MASKED);
    expect(await maskedAmong(others)).toBeLessThanOrEqual(AT_MOST_MASKED);
    const forms = [...live, encodeURIComponent(live[0]!)];
    expect(await maskedAmong(forms)).toBe(forms.length);
    // The handler is still in use: it refuses a delivery without the secret.
    const refused = await handler.fetch(
      new Request('http://receiver.test/webhooks?token=wrong-token', {
        method: 'POST',
        body: '{}',
      }),
    );
    expect(refused.status).toBe(401);
  });
});
