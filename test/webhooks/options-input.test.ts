/**
 * The webhooks entry's constructors called wrongly from plain JavaScript: each wrong option is an
 * error in the SDK's words naming it, thrown when the receiver is made, never the runtime's own
 * `TypeError` from inside (a `null` read, a symbol turned into text).
 */

import { createWebhookHandler, MemoryDedupeStore, secretVerifier } from 'partner-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../helpers/hostile-inputs';

const verify = () => true;

describe('webhook constructors from plain JavaScript', () => {
  it.each([
    ['createWebhookHandler(null)', () => createWebhookHandler(null as never), 'options'],
    ['createWebhookHandler(5)', () => createWebhookHandler(5 as never), 'options'],
    ['logLevel: 3', () => createWebhookHandler({ verify, logLevel: 3 as never }), 'logLevel'],
    ['logLevel: null', () => createWebhookHandler({ verify, logLevel: null as never }), 'logLevel'],
    [
      'maxBodyBytes: a symbol',
      () => createWebhookHandler({ verify, maxBodyBytes: Symbol('n') as never }),
      'maxBodyBytes',
    ],
    ['new MemoryDedupeStore(null)', () => new MemoryDedupeStore(null as never), 'options'],
    [
      'maxEntries: a symbol',
      () => new MemoryDedupeStore({ maxEntries: Symbol('n') as never }),
      'maxEntries',
    ],
    ['secretVerifier()', () => secretVerifier(undefined as never), 'options'],
    ['secretVerifier(null)', () => secretVerifier(null as never), 'options'],
  ])('%s throws naming it', (_, make, named) => {
    expect(thrownBy(make).message).toContain(named);
  });
});
