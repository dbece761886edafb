/**
 * zod schemas of the webhook events the spec documents (spec §6): the envelope every event shares,
 * and the payloads of `subscription_ended` (§6.1) and `bank_account_updated`/`bank_account_deleted`
 * (§6.2).
 *
 * Like every response-side schema of the SDK (DESIGN §5) they check types and structure, never
 * string formats; unknown keys are kept; a field is required only when the event cannot be
 * understood without it (the event name, the payload, and the payload's own identity code), and
 * every other field may be absent or `null`. Every enum is open, even where the spec shows a full
 * set (`end_reason`, the bank account `status`): a value the service adds later must not turn a
 * delivery into a 400 that the sender eventually gives up on, losing the event. Any string passes,
 * typed as the known values `| (string & {})`.
 *
 * @module
 */

import * as z from 'zod/mini';

/**
 * A string field whose full set of values the spec does not show: any string passes, and the type
 * still offers the known values to the editor.
 */
function openEnum<const Known extends readonly string[]>(
  description: string,
  _known: Known,
): z.ZodMiniType<Known[number] | (string & {})> {
  return z.string().check(z.describe(description)) as z.ZodMiniType<Known[number] | (string & {})>;
}

/** `metadata` of the envelope: where the event came from and which API call it tracks. */
export const webhookMetadataSchema = z.looseObject({
  origin: z.nullish(z.string().check(z.describe('Origin marker.'))),
  request_id: z.nullish(
    z
      .string()
      .check(
        z.describe(
          'Tracking id of the API call behind the event. Not an event id: one call may emit several events under it.',
        ),
      ),
  ),
  correlation_id: z.nullish(z.string()),
});

/** Metadata of a webhook event (`metadata` of the envelope, spec §6). */
export type WebhookMetadata = z.infer<typeof webhookMetadataSchema>;

const envelopeShape = {
  event: z.string().check(z.describe('Event name, e.g. `subscription_ended`.')),
  endpoint: z.nullish(z.string().check(z.describe("The client's configured webhook URL."))),
  metadata: z.nullish(webhookMetadataSchema),
  created_at: z.nullish(z.string().check(z.describe('ISO8601 with microseconds and Z.'))),
  updated_at: z.nullish(z.string().check(z.describe('ISO8601 with microseconds and Z.'))),
};

/**
 * The envelope every webhook event shares (spec §6). `payload` is any object here; the events
 * whose payload the spec shows narrow it (see {@link subscriptionEndedEventSchema} and
 * {@link bankAccountUpdatedEventSchema}).
 *
 * @example
 * ```ts
 * const result = webhookEnvelopeSchema.safeParse(JSON.parse(body));
 * if (result.success) console.log(result.data.event, result.data.metadata?.request_id);
 * ```
 */
export const webhookEnvelopeSchema = z.looseObject({
  ...envelopeShape,
  // The payloads of most events are not shown (spec §6): anything the service sends passes intact.
  payload: z.nullish(z.record(z.string(), z.unknown())),
});

/** The envelope of any webhook event, its payload untyped. */
export type WebhookEnvelope = z.infer<typeof webhookEnvelopeSchema>;

/** One line of a subscription's commission split (`commissions.items[]`, spec §6.1). */
export const subscriptionCommissionItemSchema = z.looseObject({
  type: z.nullish(
    openEnum('Who receives this share; other values: not shown.', ['producer', 'affiliate']),
  ),
  amount: z.nullish(z.int().check(z.describe('Amount in cents.'))),
  user: z.nullish(
    z.looseObject({
      code: z.nullish(z.string()),
      name: z.nullish(z.string()),
      email: z.nullish(z.string()),
    }),
  ),
});

/** Payload of `subscription_ended` (spec §6.1). */
export const subscriptionEndedPayloadSchema = z.looseObject({
  subscription_code: z.string(),
  status: z.nullish(openEnum('`ended` is the only value seen.', ['ended'])),
  ended_at: z.nullish(z.string().check(z.describe('ISO8601.'))),
  end_reason: z.nullish(
    openEnum(
      '`completed`: the maximum number of charges was reached; `delinquency`: ended for prolonged delinquency.',
      ['completed', 'delinquency'],
    ),
  ),
  total_charges: z.nullish(z.int()),
  product_hash: z.nullish(z.string()),
  offer_code: z.nullish(z.string()),
  buyer: z.nullish(
    z.looseObject({
      name: z.nullish(z.string()),
      email: z.nullish(z.string()),
    }),
  ),
  commissions: z.nullish(
    z.looseObject({
      transaction_hash: z.nullish(z.string()),
      paid_amount: z.nullish(z.int().check(z.describe('Amount paid, in cents.'))),
      items: z.nullish(z.array(subscriptionCommissionItemSchema)),
    }),
  ),
  created_at: z.nullish(z.string().check(z.describe('`YYYY-MM-DD HH:mm:ss`.'))),
  updated_at: z.nullish(z.string().check(z.describe('`YYYY-MM-DD HH:mm:ss`.'))),
});

/** Payload of `subscription_ended`: the subscription that ended, why, and its commission split. */
export type SubscriptionEndedPayload = z.infer<typeof subscriptionEndedPayloadSchema>;

/**
 * Payload shared by `bank_account_updated` and `bank_account_deleted` (spec §6.2): the bank
 * account (spec §2.4) plus `reason` and `bank_document`.
 */
export const bankAccountEventPayloadSchema = z.looseObject({
  code: z.string().check(z.describe('Unique account code.')),
  bank_code: z.nullish(z.string()),
  holder_name: z.nullish(z.string()),
  pix_key: z.nullish(z.string()),
  receiver_type: z.nullish(
    openEnum('`pix`, `bank`, or other values such as an account type; the full set: not shown.', [
      'pix',
      'bank',
    ]),
  ),
  branch_number: z.nullish(z.string()),
  branch_check_digit: z.nullish(z.string()),
  account_number: z.nullish(z.string()),
  account_check_digit: z.nullish(z.string()),
  status: z.nullish(
    openEnum('Approval status of the account.', ['approved', 'pending', 'reproved']),
  ),
  reason: z.nullish(z.string().check(z.describe('Why the status changed, when it says.'))),
  // "null or document reference": the reference's shape is not shown, so any value passes.
  bank_document: z.nullish(
    z.unknown().check(z.describe('Reference to the bank document; shape not shown.')),
  ),
});

/** Payload of `bank_account_updated` and `bank_account_deleted`. */
export type BankAccountEventPayload = z.infer<typeof bankAccountEventPayloadSchema>;

/** The whole `subscription_ended` event: envelope and typed payload. */
export const subscriptionEndedEventSchema = z.looseObject({
  ...envelopeShape,
  event: z.literal('subscription_ended'),
  payload: subscriptionEndedPayloadSchema,
});

/** The whole `bank_account_updated` event: envelope and typed payload. */
export const bankAccountUpdatedEventSchema = z.looseObject({
  ...envelopeShape,
  event: z.literal('bank_account_updated'),
  payload: bankAccountEventPayloadSchema,
});

/** The whole `bank_account_deleted` event: envelope and typed payload. */
export const bankAccountDeletedEventSchema = z.looseObject({
  ...envelopeShape,
  event: z.literal('bank_account_deleted'),
  payload: bankAccountEventPayloadSchema,
});
