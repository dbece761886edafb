/**
 * Typed webhook events and {@link parseWebhookEvent}, which turns a delivery's body into one.
 *
 * @module
 */

import type * as z from 'zod/mini';
import { type ValidationIssue, WebhookPayloadError } from '../core/errors';
import { shortened } from '../shared/cut-text';
import type {
  BankAccountDeletedEvent,
  BankAccountUpdatedEvent,
  SubscriptionEndedEvent,
  WebhookEnvelope,
} from './event-types';
import {
  bankAccountDeletedEventSchema,
  bankAccountUpdatedEventSchema,
  subscriptionEndedEventSchema,
  webhookEnvelopeSchema,
} from './schemas';

export type {
  BankAccountDeletedEvent,
  BankAccountEventPayload,
  BankAccountUpdatedEvent,
  SubscriptionBuyer,
  SubscriptionCommissionItem,
  SubscriptionCommissions,
  SubscriptionCommissionUser,
  SubscriptionEndedEvent,
  SubscriptionEndedPayload,
  WebhookEnvelope,
  WebhookEnvelopeFields,
  WebhookMetadata,
} from './event-types';

/** The events whose payload the spec shows, each with its typed payload. */
export type KnownWebhookEvent =
  | SubscriptionEndedEvent
  | BankAccountUpdatedEvent
  | BankAccountDeletedEvent;

/** Names of the events with a typed payload: `subscription_ended`, `bank_account_updated`, `bank_account_deleted`. */
export type KnownWebhookEventName = KnownWebhookEvent['event'];

/**
 * Any event whose payload the spec does not show (for example `user_updated`): the envelope as
 * sent, with `payload` kept intact as a plain object.
 */
export type GenericWebhookEvent = WebhookEnvelope;

/**
 * A webhook event as delivered by the service (spec §6), discriminated on `event`.
 *
 * - Typed payloads: `subscription_ended` ({@link SubscriptionEndedEvent}), `bank_account_updated`
 *   ({@link BankAccountUpdatedEvent}) and `bank_account_deleted` ({@link BankAccountDeletedEvent}).
 * - Every other name arrives as a {@link GenericWebhookEvent}, payload intact: nothing is dropped.
 *   The spec also names `user_updated`, and these event families, whose names and payloads it
 *   does not show: user registration and update; bank accounts; products, offers, affiliates and
 *   co-producers; refund, withdrawal and anticipation; fee tiers (create, update, delete); orders
 *   (create, update); charges (creation and status change, first purchase and renewals);
 *   subscriptions (life cycle, charges, trial).
 *
 * TypeScript cannot narrow on `event` while a generic event (any name) is in the union: first
 * narrow with {@link isKnownWebhookEvent}, then `switch (event.event)`. `createWebhookHandler`'s
 * `on` map gives each handler its typed event directly.
 */
export type WebhookEvent = KnownWebhookEvent | GenericWebhookEvent;

/**
 * The names of the events with a typed payload.
 *
 * @example
 * ```ts
 * KNOWN_WEBHOOK_EVENTS.includes('subscription_ended'); // true
 * ```
 */
export const KNOWN_WEBHOOK_EVENTS: ReadonlyArray<KnownWebhookEventName> = [
  'subscription_ended',
  'bank_account_updated',
  'bank_account_deleted',
];

const knownSchemas: Record<KnownWebhookEventName, z.ZodMiniType<KnownWebhookEvent>> = {
  subscription_ended: subscriptionEndedEventSchema,
  bank_account_updated: bankAccountUpdatedEventSchema,
  bank_account_deleted: bankAccountDeletedEventSchema,
};

/**
 * Whether `event` is one of the events with a typed payload; narrows it so that
 * `switch (event.event)` then types each payload.
 *
 * @example
 * ```ts
 * const event = parseWebhookEvent(body);
 * if (isKnownWebhookEvent(event)) {
 *   switch (event.event) {
 *     case 'subscription_ended':
 *       console.log(event.payload.end_reason); // 'completed', 'delinquency', another string, null or undefined
 *       break;
 *     case 'bank_account_updated':
 *     case 'bank_account_deleted':
 *       console.log(event.payload.status, event.payload.reason);
 *   }
 * } else {
 *   console.log('other event', event.event, event.payload);
 * }
 * ```
 */
export function isKnownWebhookEvent(event: WebhookEvent): event is KnownWebhookEvent {
  return Object.hasOwn(knownSchemas, event.event);
}

/**
 * Reads a webhook delivery's body into a typed {@link WebhookEvent}.
 *
 * `body` may be the raw body as a string or bytes (`Uint8Array`, `Buffer`, `ArrayBuffer`, any
 * `ArrayBufferView`; decoded as UTF-8), or a value already parsed from JSON (for example Express's
 * `req.body` after `express.json()`). Unknown keys are kept, and an event with a name other than
 * the three typed ones is returned as a {@link GenericWebhookEvent}, payload intact.
 *
 * @throws {WebhookPayloadError} when the body is not UTF-8 JSON, or not the documented envelope
 *   (or, for a typed event, its payload is not the documented shape); `issues` says where (empty
 *   for a body that is not UTF-8 JSON).
 *
 * @example
 * ```ts
 * import { parseWebhookEvent, WebhookPayloadError } from 'partner-sdk/webhooks';
 *
 * export async function POST(request: Request): Promise<Response> {
 *   try {
 *     const event = parseWebhookEvent(await request.text());
 *     console.log(event.event, event.metadata?.request_id);
 *     return new Response(null, { status: 200 });
 *   } catch (err) {
 *     if (err instanceof WebhookPayloadError) return new Response(null, { status: 400 });
 *     throw err;
 *   }
 * }
 * ```
 */
export function parseWebhookEvent(body: unknown): WebhookEvent {
  const value = readJson(body);
  const envelope = webhookEnvelopeSchema.safeParse(value);
  if (!envelope.success) {
    throw new WebhookPayloadError(
      'webhook body is not a valid event envelope',
      toValidationIssues(envelope.error.issues, value),
    );
  }
  const name = envelope.data.event;
  if (!Object.hasOwn(knownSchemas, name)) return envelope.data;
  const typed = knownSchemas[name as KnownWebhookEventName].safeParse(value);
  if (!typed.success) {
    throw new WebhookPayloadError(
      `webhook event ${name} does not have the documented payload`,
      toValidationIssues(typed.error.issues, value),
    );
  }
  return typed.data;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Turns text or bytes into a JSON value; anything else is taken as already parsed. */
function readJson(body: unknown): unknown {
  let text: string;
  if (typeof body === 'string') {
    text = body;
  } else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    try {
      text = utf8.decode(body as Uint8Array);
    } catch (cause) {
      throw new WebhookPayloadError('webhook body is not valid UTF-8 text', [], cause);
    }
  } else {
    return body;
  }
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (cause) {
    const shown = shortened(text, 40);
    throw new WebhookPayloadError(
      text.trim() === ''
        ? 'webhook body is empty (expected a JSON event)'
        : `webhook body is not JSON (starts with ${JSON.stringify(shown)})`,
      [],
      cause,
    );
  }
}

/**
 * zod/mini ships without message locales, so its messages read "Invalid input": say what was
 * expected and what came instead.
 */
function toValidationIssues(
  issues: ReadonlyArray<z.core.$ZodIssue>,
  input: unknown,
  prefix: PropertyKey[] = [],
): ValidationIssue[] {
  return issues.flatMap((found) => {
    const issue = { ...found, path: [...prefix, ...found.path] } as z.core.$ZodIssue;
    // An object that may come as `[]` is a union: the object alternative (fewest issues) says
    // what is wrong, as it would without the `[]` allowance.
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const closest = issue.errors.reduce((best, next) =>
        next.length < best.length ? next : best,
      );
      if (closest.length > 0) return toValidationIssues(closest, input, issue.path);
    }
    return [
      {
        path: issue.path,
        code: issue.code,
        message: describeIssue(issue, valueAt(input, issue.path)),
      },
    ];
  });
}

function describeIssue(issue: z.core.$ZodIssue, received: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return received === undefined
        ? `required (expected ${issue.expected})`
        : `expected ${issue.expected}, received ${typeName(received)}`;
    case 'invalid_value':
      return `expected ${issue.values.map(show).join(' or ')}, received ${show(received)}`;
    default:
      return issue.message;
  }
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return shortened(text, 40);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'non-integer number';
  return typeof value;
}
