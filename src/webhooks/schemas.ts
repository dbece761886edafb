/**
 * zod schemas of the webhook events the spec documents (spec §6): the envelope every event shares,
 * and the payloads of `subscription_ended` (§6.1) and `bank_account_updated`/`bank_account_deleted`
 * (§6.2).
 *
 * Like every response-side schema of the SDK, they check types and structure, never string formats;
 * unknown keys are kept; a field is required only when the event cannot be understood without it
 * (the event name, the payload, and the payload's own identity code), and every other field may be
 * absent or `null`. Every enum is open, even where the spec shows a full set (`end_reason`, the
 * bank account `status`): a value the service adds later must not turn a delivery into a 400 that
 * the sender eventually gives up on, losing the event. Any string passes, typed as the known values
 * `| (string & {})`. A PHP sender's types are allowed for too: an integer field takes a string of
 * digits, and a text field an integer, each read as the type the spec shows.
 *
 * @module
 */

import * as z from 'zod/mini';
import { withKeywords } from '../schemas/json-keywords';
import { ISO_TIMESTAMP, openEnum } from '../schemas/response-fields';

/** An empty JSON array: an array whose every item is refused. */
const EMPTY_LIST = z.array(z.never());

/**
 * An object of a delivery that may be absent or `null`, and that may come as `[]` when empty: PHP
 * has one array type, so a PHP sender's `json_encode` writes an empty object as `[]`. That `[]` is
 * kept as it came and reads as `{}` would; any other array is a wrong type. Typed as the object
 * alone, so that reading a field (`event.metadata?.request_id`) needs no check for an array.
 */
function maybeObject<T extends z.ZodMiniType>(schema: T): z.ZodMiniOptional<z.ZodMiniNullable<T>> {
  return z.nullish(z.union([schema, EMPTY_LIST])) as unknown as z.ZodMiniOptional<
    z.ZodMiniNullable<T>
  >;
}

/** A string of decimal digits a JavaScript number holds exactly (up to 15 of them), with its sign. */
const DIGITS = /^-?\d{1,15}$/;

/**
 * An integer field of a payload (cents, counts). A PHP sender writes a column its database read as
 * text as a string of digits (`"12"`): that is still the integer the spec shows, and refusing the
 * delivery with 400 would lose the event, since the sender may never deliver it again. Such a
 * string is read as the number before the check; anything else (a fraction, an exponent, spaces,
 * words) fails it as a wrong type. The OpenAPI document shows the spec's type.
 */
const INTEGER_FIELD = withKeywords(
  z.pipe(
    z.transform((value: unknown) =>
      typeof value === 'string' && DIGITS.test(value) ? Number(value) : value,
    ),
    z.int(),
  ),
  { type: 'integer' },
);

/**
 * A text field of a payload (codes, names, a bank account's numbers). A PHP sender writes a
 * numeric code held as an integer (a bank code, an account number) as a JSON number: it is read as
 * its digits before the check; anything else but a string fails it as a wrong type.
 */
const TEXT_FIELD = withKeywords(
  z.pipe(
    z.transform((value: unknown) => (Number.isSafeInteger(value) ? String(value) : value)),
    z.string(),
  ),
  { type: 'string' },
);

/**
 * `metadata` of the envelope: where the event came from and which API call it tracks. Its ids are
 * text fields as the payloads' are (a numeric id may come as a number): the envelope is every
 * event's, so a 400 here would lose whichever event carried it.
 */
export const webhookMetadataSchema = z.looseObject({
  /** Origin marker of the event. */
  origin: z.nullish(TEXT_FIELD),
  /**
   * Tracking id of the API call behind the event. Not an event id: one call may emit several
   * events under it.
   */
  request_id: z.nullish(TEXT_FIELD),
  /** Correlation id, when the service sets one. */
  correlation_id: z.nullish(TEXT_FIELD),
});

const envelopeShape = {
  /** Event name, e.g. `subscription_ended`. */
  event: z.string(),
  /** The client's configured webhook URL. */
  endpoint: z.nullish(z.string()),
  // An empty object may come as `[]` from a PHP sender (`maybeObject`), here and in the payloads.
  /** Where the event came from and which API call it tracks. */
  metadata: maybeObject(webhookMetadataSchema),
  /** When the event was created: ISO 8601 with microseconds and `Z`. */
  created_at: z.nullish(ISO_TIMESTAMP),
  /** When the event was last updated: ISO 8601 with microseconds and `Z`. */
  updated_at: z.nullish(ISO_TIMESTAMP),
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
  /** The event's data; its shape depends on the event. */
  payload: maybeObject(z.record(z.string(), z.unknown())),
});

/** One line of a subscription's commission split (`commissions.items[]`, spec §6.1). */
export const subscriptionCommissionItemSchema = z.looseObject({
  /** Who receives this share: `producer`, `affiliate`; other values: not shown. */
  type: z.nullish(openEnum(['producer', 'affiliate'])),
  /** Amount of this share, in cents. */
  amount: z.nullish(INTEGER_FIELD),
  /** The user who receives this share. */
  user: maybeObject(
    z.looseObject({
      /** The user's code. */
      code: z.nullish(TEXT_FIELD),
      /** The user's name. */
      name: z.nullish(TEXT_FIELD),
      /** The user's e-mail. */
      email: z.nullish(TEXT_FIELD),
    }),
  ),
});

/** Payload of `subscription_ended` (spec §6.1). */
export const subscriptionEndedPayloadSchema = z.looseObject({
  /** Code of the subscription that ended. */
  subscription_code: TEXT_FIELD,
  /** Status of the subscription: `ended` is the only value seen. */
  status: z.nullish(openEnum(['ended'])),
  /** When it ended, ISO 8601. */
  ended_at: z.nullish(ISO_TIMESTAMP),
  /**
   * Why it ended: `completed` (the maximum number of charges was reached) or `delinquency`
   * (ended for prolonged delinquency).
   */
  end_reason: z.nullish(openEnum(['completed', 'delinquency'])),
  /** Number of charges the subscription made. */
  total_charges: z.nullish(INTEGER_FIELD),
  /** Hash of the subscribed product. */
  product_hash: z.nullish(TEXT_FIELD),
  /** Code of the subscribed offer. */
  offer_code: z.nullish(TEXT_FIELD),
  /** The subscriber. */
  buyer: maybeObject(
    z.looseObject({
      /** The buyer's name. */
      name: z.nullish(TEXT_FIELD),
      /** The buyer's e-mail. */
      email: z.nullish(TEXT_FIELD),
    }),
  ),
  /** The commission split (which charge's: not shown). */
  commissions: maybeObject(
    z.looseObject({
      /** Hash of the transaction the split belongs to. */
      transaction_hash: z.nullish(TEXT_FIELD),
      /** Amount paid, in cents. */
      paid_amount: z.nullish(INTEGER_FIELD),
      /** One line per recipient. */
      items: z.nullish(z.array(subscriptionCommissionItemSchema)),
    }),
  ),
  /** When the subscription was created, `YYYY-MM-DD HH:mm:ss`. */
  created_at: z.nullish(TEXT_FIELD),
  /** When the subscription was last updated, `YYYY-MM-DD HH:mm:ss`. */
  updated_at: z.nullish(TEXT_FIELD),
});

/**
 * Payload shared by `bank_account_updated` and `bank_account_deleted` (spec §6.2): the bank
 * account (spec §2.4) plus `reason` and `bank_document`.
 */
export const bankAccountEventPayloadSchema = z.looseObject({
  /** Unique account code. */
  code: TEXT_FIELD,
  /** Bank code. */
  bank_code: z.nullish(TEXT_FIELD),
  /** Account holder name. */
  holder_name: z.nullish(TEXT_FIELD),
  /** PIX key. */
  pix_key: z.nullish(TEXT_FIELD),
  /** `pix`, `bank`, or other values such as an account type; the full set: not shown. */
  receiver_type: z.nullish(openEnum(['pix', 'bank'])),
  /** Branch number. */
  branch_number: z.nullish(TEXT_FIELD),
  /** Branch check digit. */
  branch_check_digit: z.nullish(TEXT_FIELD),
  /** Account number. */
  account_number: z.nullish(TEXT_FIELD),
  /** Account check digit. */
  account_check_digit: z.nullish(TEXT_FIELD),
  /** Approval status of the account: `approved`, `pending` or `reproved`. */
  status: z.nullish(openEnum(['approved', 'pending', 'reproved'])),
  /** Why the status changed, when it says. */
  reason: z.nullish(TEXT_FIELD),
  // "null or document reference": the reference's shape is not shown, so any value passes.
  /** Reference to the bank document; its shape: not shown. */
  bank_document: z.nullish(z.unknown()),
});

/** The whole `subscription_ended` event: envelope and typed payload. */
export const subscriptionEndedEventSchema = z.looseObject({
  ...envelopeShape,
  /** Always `subscription_ended`. */
  event: z.literal('subscription_ended'),
  /** The typed payload. */
  payload: subscriptionEndedPayloadSchema,
});

/** The whole `bank_account_updated` event: envelope and typed payload. */
export const bankAccountUpdatedEventSchema = z.looseObject({
  ...envelopeShape,
  /** Always `bank_account_updated`. */
  event: z.literal('bank_account_updated'),
  /** The typed payload. */
  payload: bankAccountEventPayloadSchema,
});

/** The whole `bank_account_deleted` event: envelope and typed payload. */
export const bankAccountDeletedEventSchema = z.looseObject({
  ...envelopeShape,
  /** Always `bank_account_deleted`. */
  event: z.literal('bank_account_deleted'),
  /** The typed payload. */
  payload: bankAccountEventPayloadSchema,
});
