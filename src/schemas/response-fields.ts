/**
 * The lenient building blocks of every response schema: they check types and structure only (no
 * string formats, no ranges, no closed enums), because the service may add values, send `null` for
 * empty columns or grow new keys, and none of that may break a partner's call. They also stay
 * cheap, since every response goes through them. Request rules, which are strict, live in
 * `request-rules.ts`.
 *
 * @module
 */

import * as z from 'zod/mini';
import { withKeywords } from './json-keywords';

/**
 * Any zod schema (classic or mini).
 *
 * @inline
 */
type AnySchema = z.core.$ZodType;

/**
 * Shared leaves of the response schemas. A schema holds no state, so one instance serves every field
 * of its type; building a fresh one per field would make every import pay for thousands of them.
 */
export const STRING = z.string();
/** The shared response number (see {@link STRING}). */
export const NUMBER = z.number();
/**
 * The shared response number for a field the spec gives as an integer (cents, days, counts): any
 * whole number JavaScript holds exactly (no ranges, see the module note). A fraction there is a
 * wrong type, not a value to pass on: `19.9` where cents are due is most likely reais, and a
 * partner reading it as cents would be off by a hundred. So is a whole number past 2^53, which
 * `JSON.parse` has already rounded to another one. `1990.0` is the integer 1990 and `-0` is 0.
 * The OpenAPI document says `integer`, so a client generated from it reads the field into an
 * integer type.
 */
export const INTEGER = withKeywords(
  z.number().check(
    // A check of our own rather than `z.int()`, whose bounds the OpenAPI document would print; its
    // issues keep `z.int()`'s shapes, so code reading `code` reads them alike.
    z.check<number>((payload) => {
      const input = payload.value;
      if (Number.isSafeInteger(input)) return;
      const max = Number.MAX_SAFE_INTEGER;
      let issue: object = { code: 'invalid_type', expected: 'int' };
      if (input > max) issue = { code: 'too_big', origin: 'int', maximum: max, inclusive: true };
      if (input < -max)
        issue = { code: 'too_small', origin: 'int', minimum: -max, inclusive: true };
      payload.issues.push({ ...issue, input } as z.core.$ZodRawIssue);
    }),
  ),
  { type: 'integer' },
);
/**
 * The shared response string for a timestamp the spec gives as ISO 8601. Read as any string, as
 * {@link STRING} is (timestamps stay what the service sent); the OpenAPI document says
 * `date-time`. The two other formats of the spec are plain strings there.
 */
export const ISO_TIMESTAMP = withKeywords(z.string(), { format: 'date-time' });
/** The shared response boolean (see {@link STRING}). */
export const BOOLEAN = z.boolean();

/**
 * The type of an open enum: the known values for autocompletion, and any other string.
 *
 * @example
 * ```ts
 * const status: OpenEnum<'approved' | 'pending'> = 'something-new'; // compiles
 * ```
 */
export type OpenEnum<Known extends string> = Known | (string & {});

/**
 * A string field whose full set of values the spec does not show (or that may grow): any string
 * passes, and the type offers the known values first. Used for every enum in responses and webhook
 * events, so a new value the service starts sending never breaks a partner's call.
 *
 * @example
 * ```ts
 * const Status = openEnum(['requested', 'success']);
 * Status.parse('chargeback'); // 'chargeback': accepted
 * type Status = z.infer<typeof Status>; // 'requested' | 'success' | (string & {})
 * ```
 */
export function openEnum<const Known extends string>(
  _known: readonly Known[],
): z.ZodMiniType<OpenEnum<Known>, OpenEnum<Known>> {
  // The known values only shape the type: checking them would defeat the purpose.
  return STRING as z.ZodMiniType<OpenEnum<Known>, OpenEnum<Known>>;
}

/** `maybe` wrappers already built, per inner schema, so shared leaves stay shared. */
const nullishOf = new WeakMap<AnySchema, AnySchema>();

/**
 * A response field that may be absent or `null` (a Laravel service sends `null` for empty columns).
 * Built once per inner schema and then reused.
 *
 * @example
 * ```ts
 * const about = maybe(STRING);
 * about.parse(null); // null
 * ```
 */
export function maybe<T extends AnySchema>(schema: T): z.ZodMiniOptional<z.ZodMiniNullable<T>> {
  let wrapper = nullishOf.get(schema);
  if (!wrapper) {
    wrapper = z.nullish(schema);
    nullishOf.set(schema, wrapper);
  }
  return wrapper as z.ZodMiniOptional<z.ZodMiniNullable<T>>;
}

/**
 * A response object: the documented fields, checked leniently, and every other key the service
 * sends kept as it came (a field the service adds reaches the partner, never a failure). Its
 * inferred type lists the documented fields only, without an `[x: string]: unknown` index: a hover
 * then reads as the named interface, and a misspelled field read (`product.nmae`) is a compile
 * error instead of an `unknown`. An undocumented key is still there at run time, for a partner who
 * reads it knowingly (`(product as Record<string, unknown>).new_field`).
 *
 * @example
 * ```ts
 * const Links = responseObject({ sales_page_url: maybe(STRING) });
 * Links.parse({ sales_page_url: null, extra: 1 }); // { sales_page_url: null, extra: 1 }
 * ```
 */
export function responseObject<Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
): z.ZodMiniObject<Shape, z.core.$strip> {
  // `$strip` only shapes the type (no index signature); the run-time object is loose.
  return z.looseObject(shape) as unknown as z.ZodMiniObject<Shape, z.core.$strip>;
}

/**
 * The common response envelope of the financial, fee-tier and anticipation endpoints (spec §2).
 * Methods return its `data`; the envelope shows only in the `…Response` body types.
 */
export interface Envelope<T> {
  /**
   * `success` when done; `processing` for asynchronous work accepted (a refund's 202). Other
   * values: not shown (any string passes). Absent or `null` when not sent. Spec §2, §4.2.
   */
  status?: OpenEnum<'success' | 'processing'> | null;
  /** Human-readable text about the outcome. Absent or `null` when not sent. Spec §2. */
  message?: string | null;
  /** The resource; its shape depends on the endpoint. Always present. Spec §2. */
  data: T;
}

/**
 * How the SDK's methods read their result from a body each schema checks, for the schemas whose
 * body wraps it: built by {@link envelope} (the `data`) or {@link envelopedOrBare}. Declared here,
 * with the schema, so that no method unwraps a body by hand.
 */
const resultReaders = new WeakMap<object, (body: unknown) => unknown>();

/**
 * The common response envelope `{ status, message, data }` of the financial, fee-tier and
 * anticipation endpoints (spec §2). `data` is required (it is what the SDK's methods return);
 * `status` and `message` may be absent or `null`, and `status` is an open enum.
 *
 * @example
 * ```ts
 * const RefundListResponse = envelope(z.array(RefundSchema));
 * RefundListResponse.parse({ status: 'success', message: 'ok', data: [] }).data; // []
 * ```
 */
export function envelope<T extends AnySchema>(dataSchema: T) {
  const schema = responseObject({
    /** `success` when done; `processing` for asynchronous work accepted. Other values: not shown. */
    status: maybe(openEnum(['success', 'processing'])),
    /** Human-readable text. */
    message: maybe(STRING),
    /** The resource: shape per endpoint. */
    data: dataSchema,
  });
  resultReaders.set(schema, dataOf);
  return schema;
}

/**
 * The type of a schema built by {@link envelope} around `T`.
 *
 * @inline
 */
export type EnvelopeSchema<T extends AnySchema> = ReturnType<typeof envelope<T>>;

/**
 * For answers that come in the envelope or bare (an assumption, see `assumptions.ts`): a schema
 * choice for a call, taking the envelope when the body has a `data` key and the bare resource
 * otherwise. Where spec §4 gives a single resource bare (a user, a bank account, an offer, a
 * product), a Laravel service answering through a `JsonResource` wraps it in `data` by default:
 * those calls read both. Choosing by shape, not trying one then the other, lets an issue inside `data` keep
 * its own path. The SDK's methods return the resource either way.
 *
 * @example
 * ```ts
 * const choose = envelopedOrBare(StatementExportSchema);
 * choose(200, { data: { hash: 'exp_1' } }); // the envelope schema
 * choose(200, { hash: 'exp_1' });           // StatementExportSchema itself
 * ```
 */
export function envelopedOrBare<T extends AnySchema>(bare: T): EnvelopedOrBare<T> {
  const enveloped = envelope(bare);
  const choose = (_status: number, body: unknown) =>
    typeof body === 'object' && body !== null && 'data' in body ? enveloped : bare;
  resultReaders.set(choose, unwrapEnvelope);
  return Object.assign(choose, { bare });
}

/**
 * The schema of a resource the service may send bare or in its envelope: a choice by the body's
 * shape, with the bare resource's schema it reads.
 *
 * @inline
 */
export type EnvelopedOrBare<T extends AnySchema> = ((
  status: number,
  body: unknown,
) => EnvelopeSchema<T> | T) & { readonly bare: T };

/**
 * How the SDK's methods read their result from a body `schema` checked (or let through, when the
 * client's `validateResponses` says so): the envelope's `data` for {@link envelope}, the resource
 * in or out of its envelope for {@link envelopedOrBare}; `undefined` for any other schema, whose
 * body is the result.
 */
export function resultReader(schema: unknown): ((body: unknown) => unknown) | undefined {
  return typeof schema === 'object' || typeof schema === 'function'
    ? resultReaders.get(schema as object)
    : undefined;
}

/** The envelope's `data`. */
function dataOf(body: unknown): unknown {
  return (body as { data: unknown }).data;
}

/** The body read through {@link envelopedOrBare}'s choice: its `data` when enveloped, else itself. */
function unwrapEnvelope(body: unknown): unknown {
  return typeof body === 'object' && body !== null && 'data' in body && body.data
    ? body.data
    : body;
}
