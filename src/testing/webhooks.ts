/**
 * Webhook helpers for a partner's receiver tests: event factories following spec §6 (hand-written
 * wire data, overridable) and `deliver`, which POSTs an event the way the service does: JSON with
 * `Content-Type: application/json` and no other header of its own (spec §6 shows no signature).
 *
 * @module
 */

import { bankAccountDefaults, subscriptionEndedDefaults } from './fixtures/events';

/** The envelope every event shares (spec §6). */
export interface MockWebhookEvent<E extends string = string, P = Record<string, unknown>> {
  /** Event name, e.g. `subscription_ended`. */
  event: E;
  /** The webhook URL the event is addressed to. */
  endpoint: string;
  /** The event's data. */
  payload: P;
  /** Where the event came from and which API call it tracks. */
  metadata: {
    /** Origin marker, `partner-api` by default. */
    origin: string;
    /** Tracking id of the API call behind the event: a fresh UUID by default. */
    request_id: string;
    /** Correlation id, `null` by default. */
    correlation_id: string | null;
  };
  /** ISO 8601 with microseconds and `Z`; now by default. */
  created_at: string;
  /** ISO 8601 with microseconds and `Z`; now by default. */
  updated_at: string;
}

/** Envelope fields a factory lets you override. */
export type WebhookEnvelopeOverrides = Partial<
  Pick<MockWebhookEvent, 'endpoint' | 'created_at' | 'updated_at'> & {
    /** Metadata fields to override; the rest keep their defaults. */
    metadata: Partial<MockWebhookEvent['metadata']>;
  }
>;

/** Payload of `subscription_ended` (spec §6.1). */
export interface SubscriptionEndedPayload {
  /** Code of the subscription that ended. */
  subscription_code: string;
  /** Always `ended`. */
  status: 'ended';
  /** When it ended, ISO 8601. */
  ended_at: string;
  /** `completed`: the maximum number of charges was reached; `delinquency`: prolonged delinquency. */
  end_reason: 'completed' | 'delinquency';
  /** Number of charges made. */
  total_charges: number;
  /** Hash of the subscribed product. */
  product_hash: string;
  /** Code of the subscribed offer. */
  offer_code: string;
  /** The subscriber. */
  buyer: {
    /** The buyer's name. */
    name: string;
    /** The buyer's e-mail. */
    email: string;
  };
  /** The commission split (which charge's: not shown). */
  commissions: {
    /** Hash of the transaction the split belongs to. */
    transaction_hash: string;
    /** Amount paid, in cents. */
    paid_amount: number;
    /** One line per recipient. */
    items: Array<{
      /** Who receives this share, e.g. `producer` or `affiliate`. */
      type: string;
      /** Amount of this share, in cents. */
      amount: number;
      /** The recipient. */
      user: {
        /** The user's code. */
        code: string;
        /** The user's name. */
        name: string;
        /** The user's e-mail. */
        email: string;
      };
    }>;
  };
  /** `YYYY-MM-DD HH:mm:ss`. */
  created_at: string;
  /** `YYYY-MM-DD HH:mm:ss`. */
  updated_at: string;
}

/**
 * Payload fields of `subscription_ended` to override: those of its nested objects one by one, as
 * spec §6.1 names them (`commissions.transaction_hash`), so giving the transaction keeps the split.
 */
export type SubscriptionEndedOverrides = Partial<
  Omit<SubscriptionEndedPayload, 'buyer' | 'commissions'> & {
    /** Fields of the default buyer to replace; the others are kept. */
    buyer: Partial<SubscriptionEndedPayload['buyer']>;
    /** Fields of the default split to replace (`transaction_hash`…); `items`, an array, replaces whole. */
    commissions: Partial<SubscriptionEndedPayload['commissions']>;
  }
>;

/** Payload of `bank_account_updated` and `bank_account_deleted` (spec §6.2). */
export interface BankAccountEventPayload {
  /** Unique account code. */
  code: string;
  /** Bank code. */
  bank_code: string;
  /** Account holder name. */
  holder_name: string;
  /** PIX key, or `null`. */
  pix_key: string | null;
  /** `pix`, `bank` or another value. */
  receiver_type: string;
  /** Branch number. */
  branch_number: string;
  /** Branch check digit. */
  branch_check_digit: string;
  /** Account number. */
  account_number: string;
  /** Account check digit. */
  account_check_digit: string;
  /** `approved`, `pending` or `reproved`. */
  status: string;
  /** Why the status changed, or `null`. */
  reason: string | null;
  /** Reference to the bank document, or `null`. */
  bank_document: string | null;
}

/** The time of the last event built, in microseconds since the epoch. */
let lastMicros = 0;

/**
 * Now, ISO 8601 with microseconds and `Z`, and always later than the last event's: two events
 * built in one millisecond still differ, as two events of the service do.
 */
function eventTime(): string {
  lastMicros = Math.max(Date.now() * 1000, lastMicros + 1);
  const micros = String(lastMicros % 1000).padStart(3, '0');
  return new Date(Math.floor(lastMicros / 1000)).toISOString().replace(/Z$/, `${micros}Z`);
}

/**
 * Builds an event of any name with the spec §6 envelope around `payload`.
 *
 * @example
 * ```ts
 * const event = webhookEvent('user_updated', { code: 'usr_8f3k2m9q' });
 * ```
 */
export function webhookEvent<E extends string, P>(
  event: E,
  payload: P,
  overrides: WebhookEnvelopeOverrides = {},
): MockWebhookEvent<E, P> {
  const now = eventTime();
  return {
    event,
    endpoint: overrides.endpoint ?? 'https://partner.example.com.br/webhooks/partner-api',
    payload,
    metadata: {
      origin: 'partner-api',
      request_id: crypto.randomUUID(),
      correlation_id: null,
      ...overrides.metadata,
    },
    created_at: overrides.created_at ?? now,
    updated_at: overrides.updated_at ?? now,
  };
}

/**
 * A `subscription_ended` event (spec §6.1), by default a weekly subscription that reached its
 * maximum number of charges. A field of `commissions` or `buyer` replaces that field only.
 *
 * @example
 * ```ts
 * const event = subscriptionEndedEvent({ end_reason: 'delinquency', total_charges: 3 });
 * // Another transaction, with the default split (the person seller as producer) kept.
 * const toRefund = subscriptionEndedEvent({ commissions: { transaction_hash: 'trx_9Fh2Kd81' } });
 * ```
 */
export function subscriptionEndedEvent(
  payload: SubscriptionEndedOverrides = {},
  overrides?: WebhookEnvelopeOverrides,
): MockWebhookEvent<'subscription_ended', SubscriptionEndedPayload> {
  return webhookEvent(
    'subscription_ended',
    overridden(subscriptionEndedDefaults(), payload),
    overrides,
  );
}

/**
 * The defaults with `over` laid on them. A nested object given (`commissions`, `buyer`) is laid on
 * the default one field by field, as spec §6.1 names its fields (`commissions.transaction_hash`):
 * giving the transaction keeps the producer's share. An array or `null` replaces whole.
 */
function overridden<P extends object>(defaults: P, over: object): P {
  const out = { ...defaults } as Record<string, unknown>;
  for (const [key, value] of Object.entries(over)) {
    const base = out[key];
    out[key] = isPlainObject(base) && isPlainObject(value) ? { ...base, ...value } : value;
  }
  return out as P;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bankAccountPayload(over: Partial<BankAccountEventPayload>): BankAccountEventPayload {
  return { ...bankAccountDefaults(), ...over };
}

/**
 * A `bank_account_updated` event (spec §6.2).
 *
 * @example
 * ```ts
 * const event = bankAccountUpdatedEvent({ status: 'reproved', reason: 'Titularidade divergente.' });
 * ```
 */
export function bankAccountUpdatedEvent(
  payload: Partial<BankAccountEventPayload> = {},
  overrides?: WebhookEnvelopeOverrides,
): MockWebhookEvent<'bank_account_updated', BankAccountEventPayload> {
  return webhookEvent('bank_account_updated', bankAccountPayload(payload), overrides);
}

/**
 * A `bank_account_deleted` event (spec §6.2).
 *
 * @example
 * ```ts
 * const event = bankAccountDeletedEvent({ code: 'bnk_3Rt8Vw1K' });
 * ```
 */
export function bankAccountDeletedEvent(
  payload: Partial<BankAccountEventPayload> = {},
  overrides?: WebhookEnvelopeOverrides,
): MockWebhookEvent<'bank_account_deleted', BankAccountEventPayload> {
  return webhookEvent('bank_account_deleted', bankAccountPayload(payload), overrides);
}

/**
 * POSTs an event to `url` as the service does and returns the receiver's HTTP status, a redirect's
 * included (never followed). A string is sent as is (to test malformed bodies). Bounded by `timeoutMs` (default 10 s). `headers` are
 * sent besides (a secret your receiver checks in a header; a `Content-Type` replaces the JSON one).
 *
 * @throws {TypeError} `url` is not an absolute `http:` or `https:` URL (the URL is not quoted).
 * @example
 * ```ts
 * const status = await deliver('http://127.0.0.1:3000/webhooks', subscriptionEndedEvent());
 * expect(status).toBe(200);
 * await deliver('http://127.0.0.1:3000/webhooks', subscriptionEndedEvent(), { headers: { 'x-webhook-token': 's3cr3t' } });
 * ```
 */
export async function deliver(
  url: string | URL,
  event: unknown,
  options: {
    timeoutMs?: number | undefined;
    signal?: AbortSignal | undefined;
    headers?: Record<string, string> | undefined;
  } = {},
): Promise<number> {
  const target = URL.parse(String(url));
  if (target?.protocol !== 'http:' && target?.protocol !== 'https:') {
    // Never quoted: a receiver's URL may carry its secret (`?token=…`).
    throw new TypeError(
      'deliver: expected an absolute http: or https: URL, scheme included (http://127.0.0.1:3000/webhooks)',
    );
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const headers = new Headers(options.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  const response = await fetch(target, {
    method: 'POST',
    headers,
    body: typeof event === 'string' ? event : JSON.stringify(event),
    signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    // The spec does not say the service follows a redirect (§6): the receiver's own 3xx is its
    // answer, never the status of the page it points to.
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return response.status;
}
