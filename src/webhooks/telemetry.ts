/**
 * A webhook delivery in telemetry: a span per delivery under the span active when the request came
 * in (the partner's HTTP server span), the partner's handler running inside it, its verdict as an
 * attribute, and the count of deliveries by verdict.
 *
 * @module
 */

import { TelemetrySource } from '../telemetry/gate';
import type { SpanScope, TelemetryOptions } from '../telemetry/types';
import type { DeliveryInput } from './delivery';
import type { Outcome } from './outcomes';
import { SPEC_EVENT_NAMES } from './shown-event-name';

type Deliver = (input: DeliveryInput, span?: SpanScope) => Promise<Outcome>;

/**
 * An event's name as telemetry records it: one the spec lists as it is, any other as `_OTHER`
 * (OpenTelemetry's value for outside a known set), since a sender may name events without bound.
 */
export function recordedEventName(name: string): string {
  return SPEC_EVENT_NAMES.has(name) ? name : '_OTHER';
}

/** What an answer says of its delivery. */
function verdictOf(outcome: Outcome): string {
  if (outcome.status === 200) return outcome.body.duplicate === true ? 'duplicate' : 'handled';
  if (outcome.status === 401) return 'unauthorized';
  if (outcome.status === 503) return 'in_progress';
  return outcome.status >= 500 ? 'failed' : 'invalid';
}

/** `deliver`, recorded by the telemetry `option` chooses (the global providers by default). */
export function tracedDelivery(
  deliver: Deliver,
  option: false | TelemetryOptions | undefined,
): (input: DeliveryInput) => Promise<Outcome> {
  const source = new TelemetrySource(option);
  return async (input) => {
    const pending = source.current();
    const telemetry = pending && (await pending);
    if (!telemetry) return deliver(input);
    return telemetry.span('webhooks.delivery', {}, async (span) => {
      const outcome = await deliver(input, span);
      const verdict = verdictOf(outcome);
      span.set({
        'partner_sdk.webhook.verdict': verdict,
        'http.response.status_code': outcome.status,
      });
      if (verdict === 'failed') span.failed({ name: 'HandlerFailed' });
      telemetry.count('webhook.deliveries', { 'partner_sdk.webhook.verdict': verdict });
      return outcome;
    });
  };
}
