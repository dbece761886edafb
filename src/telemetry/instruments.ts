/**
 * The SDK's metric instruments on one meter: each HTTP attempt's duration (the stable HTTP client
 * convention), each call's, and the counters of what the SDK decided (retries, re-logins, 429s,
 * reconciliations) and of what the webhooks and bulk jobs saw.
 */

import type { Counter, Histogram, Meter } from '@opentelemetry/api';
import type { CounterName } from './types';

/** The bucket bounds the stable HTTP conventions advise for a duration in seconds. */
const HTTP_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** The instruments, made once per meter. */
export interface Instruments {
  attempt: Histogram;
  call: Histogram;
  counters: Record<
    'retries' | 'relogins' | 'rateLimited' | 'reconciliations' | CounterName,
    Counter
  >;
}

/** Makes the instruments on `meter`. */
export function instruments(meter: Meter): Instruments {
  // An integer count's unit names what it counts, in the singular (the metrics guidelines).
  const counter = (name: string, unit: string, description: string) =>
    meter.createCounter(name, { description, unit });
  return {
    attempt: meter.createHistogram('http.client.request.duration', {
      description: 'Duration of HTTP client requests.',
      unit: 's',
      advice: { explicitBucketBoundaries: HTTP_SECONDS },
    }),
    // Without advice an SDK buckets as for milliseconds, and nearly every call would share the first
    // bucket; a call's retries and waits run on up to its `totalTimeout`.
    call: meter.createHistogram('partner_sdk.operation.duration', {
      description: 'Duration of SDK calls, retries, waits and re-logins included.',
      unit: 's',
      advice: { explicitBucketBoundaries: [...HTTP_SECONDS, 30, 60, 120] },
    }),
    counters: {
      retries: counter('partner_sdk.retries', '{retry}', 'Attempts repeated after a failure.'),
      relogins: counter(
        'partner_sdk.relogins',
        '{login}',
        'Logins again after the service refused a client token.',
      ),
      rateLimited: counter(
        'partner_sdk.rate_limited',
        '{request}',
        'Attempts answered 429 Too Many Requests.',
      ),
      reconciliations: counter(
        'partner_sdk.reconciliations',
        '{reconciliation}',
        'Lost answers looked up before a replay, by verdict.',
      ),
      'webhook.deliveries': counter(
        'partner_sdk.webhook.deliveries',
        '{delivery}',
        'Webhook deliveries received, by verdict.',
      ),
      'bulk.items': counter(
        'partner_sdk.bulk.items',
        '{item}',
        'Bulk job items finished, by outcome.',
      ),
    },
  };
}
