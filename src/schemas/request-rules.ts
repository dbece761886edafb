/**
 * The strict building blocks of every request schema: each documented rule (spec §2, §4, §8) with a
 * message that names it, since `zod/mini` ships no locale and would otherwise say only "Invalid
 * input". Nothing the service might accept is refused: only documented rules are written here.
 * The lenient response blocks live in `response-fields.ts`.
 *
 * @module
 */

import * as z from 'zod/mini';
import { isRealDay } from '../shared/timestamp';
import { withKeywords } from './json-keywords';

/**
 * Any zod schema (classic or mini).
 *
 * @inline
 */
type AnySchema = z.core.$ZodType;

/** `optional` wrappers already built, per inner schema, so the rule-free bases stay shared. */
const optionalOf = new WeakMap<AnySchema, AnySchema>();

/**
 * A request field that may be left out: `z.optional`, built once per inner schema and then reused
 * (most request fields share their rule-free base, see {@link text}).
 *
 * @example
 * ```ts
 * const nickname = optional(text());
 * nickname.parse(undefined); // undefined
 * ```
 */
export function optional<T extends AnySchema>(schema: T): z.ZodMiniOptional<T> {
  let wrapper = optionalOf.get(schema);
  if (!wrapper) {
    wrapper = z.optional(schema);
    optionalOf.set(schema, wrapper);
  }
  return wrapper as z.ZodMiniOptional<T>;
}

/**
 * Something `users.update` can send as a file part: the platform's `Blob`/`File`, raw bytes
 * (`Uint8Array`, which includes Node's `Buffer`, or `ArrayBuffer`), or a `ReadableStream` of bytes,
 * Node's `Readable.toWeb()` included.
 */
export type Uploadable =
  | Blob
  | File
  | Uint8Array
  | ArrayBuffer
  | ReadableStream
  | ReadableStreamLike;

/**
 * A web `ReadableStream` whichever declaration names it: the DOM lib's, or the one `@types/node`
 * gives `node:stream/web` (what `Readable.toWeb()` returns). A project with both has two types
 * that do not accept each other, for what is one class at run time: either is taken.
 *
 * @example
 * ```ts
 * import { createReadStream } from 'node:fs';
 * import { Readable } from 'node:stream';
 *
 * await seller.users.update({ ...profile, avatar: Readable.toWeb(createReadStream('avatar.png')) });
 * ```
 */
export interface ReadableStreamLike {
  /** Whether a reader holds the stream. */
  readonly locked: boolean;
  /** A reader of its chunks. */
  getReader(): unknown;
  /** Cancels the stream. */
  cancel(reason?: unknown): Promise<void>;
}

/** Tells an {@link Uploadable} apart by behaviour as well as class, so copies from another realm pass. */
function isUploadable(value: unknown): value is Uploadable {
  if (typeof value !== 'object' || value === null) return false;
  if (value instanceof Blob || value instanceof Uint8Array || value instanceof ArrayBuffer) {
    return true;
  }
  const tag = Object.prototype.toString.call(value);
  if (tag === '[object Blob]' || tag === '[object File]' || tag === '[object ArrayBuffer]') {
    return true;
  }
  return typeof (value as { getReader?: unknown }).getReader === 'function';
}

// `z.unknown()` and a rule rather than `z.custom`, whose class every partner's bundle would carry
// for this one field.
const anyUploadable = withKeywords(
  z.unknown().check(
    rule((value) =>
      isUploadable(value)
        ? undefined
        : {
            code: 'custom',
            message: 'Expected a file: Blob, File, Uint8Array, ArrayBuffer or ReadableStream',
          },
    ),
  ),
  // A file part: `contentMediaType` is OpenAPI 3.1's word, `format: binary` the one generators read.
  { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' },
) as unknown as z.ZodMiniType<Uploadable, Uploadable>;

/**
 * A request file field: a `Blob`, `File`, `Uint8Array`, `ArrayBuffer` or `ReadableStream`.
 *
 * @example
 * ```ts
 * uploadable().parse(new Blob(['…'], { type: 'image/png' }));
 * ```
 */
export function uploadable(): z.ZodMiniType<Uploadable, Uploadable> {
  return anyUploadable;
}

// The rule-free bases, one instance each: a field with rules gets a copy with its checks added.
const anyText = z.string({ error: 'Expected a string' });
/**
 * The error of a number base: `expected`, and the kind of value given instead (a string of digits
 * read from a file, `NaN` from a failed parse, `Infinity`): the kind only, never the value.
 */
function numberError(expected: string): (issue: { input?: unknown }) => string {
  return ({ input }) => {
    if (input === undefined) return expected;
    const kind =
      typeof input === 'number'
        ? String(input)
        : input === null
          ? 'null'
          : Array.isArray(input)
            ? 'an array'
            : `a${typeof input === 'object' ? 'n' : ''} ${typeof input}`;
    return `${expected}, received ${kind}`;
  };
}
const anyDecimal = z.number({ error: numberError('Expected a number') });
const SAFE = Number.MAX_SAFE_INTEGER;
// Past 2^53 a number is not exact (2^53 + 1 reads as 2^53): a whole number there is refused as
// out of range, saying so, rather than as no integer at all.
const UNSAFE = `Must be a whole number from ${-SAFE} to ${SAFE}, where a number is exact`;
/** The rule-free integer base whose non-integers are refused with `message`. */
function integerBase(message: string): z.ZodMiniNumber<number> {
  return withKeywords(
    z.number({ error: numberError(message) }).check(
      rule<number>((value) => {
        if (Number.isSafeInteger(value)) return undefined;
        if (!Number.isInteger(value)) return { code: 'invalid_type', expected: 'int', message };
        return value > 0
          ? { code: 'too_big', origin: 'number', maximum: SAFE, inclusive: true, message: UNSAFE }
          : {
              code: 'too_small',
              origin: 'number',
              minimum: -SAFE,
              inclusive: true,
              message: UNSAFE,
            };
      }),
    ),
    { type: 'integer' },
  );
}
const anyInteger = integerBase('Expected an integer');
// A price written in reais (19.90) is the likeliest mistake in a field of cents: say what is wanted.
const anyCents = integerBase('Expected a whole number of cents (19.90 is 1990)');
const anyFlag = z.boolean({ error: 'Expected true or false' });

/** Characters as the service counts them (PHP `mb_strlen`: code points, not UTF-16 units). */
function charCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** Options of {@link text}. */
export interface TextRules {
  /** Fewest characters allowed (code points). */
  min?: number;
  /** Most characters allowed (code points). */
  max?: number;
  /** A pattern the whole value must match, with the format named in `format`. */
  pattern?: RegExp;
  /** How the expected format reads in messages, e.g. `###.###.###-##`. */
  format?: string;
}

/** An issue a {@link rule} reports, in zod's own shape (`code`, bounds, `message`). */
interface RuleIssue {
  code: z.core.$ZodIssueCode;
  message: string;
  [detail: string]: unknown;
}

/**
 * A rule as a zod check: `broken` returns the issue when a value breaks the rule. The SDK writes its
 * rules this way rather than with zod's built-ins (`z.int`, `z.gte`, `z.regex`, `z.enum`): zod/mini
 * has no locale, so each needs our message anyway, and zod's check classes would ship in every
 * partner's bundle. The issues keep zod's shapes, so code reading `code` still works.
 */
function rule<T>(broken: (value: T) => RuleIssue | undefined): z.core.$ZodCheck<T> {
  return z.check<T>((payload) => {
    const issue = broken(payload.value);
    // `continue`, as zod's own checks do: the other rules still run, and a union can still pick this branch.
    if (issue)
      payload.issues.push({
        ...issue,
        input: payload.value,
        continue: true,
      } as z.core.$ZodRawIssue);
  });
}

/**
 * A request string field with the documented length bounds (counted in characters, as the service
 * counts them) and format. Each broken rule gives an issue at the field's path with a message that
 * names the rule.
 *
 * @example
 * ```ts
 * const name = text({ min: 3, max: 191 });
 * name.safeParse('ab').success; // false: "Must be at least 3 characters"
 * ```
 */
export function text(rules: TextRules = {}): z.ZodMiniString<string> {
  const { min, max, pattern, format } = rules;
  if (min === undefined && max === undefined && !pattern) return anyText;
  const formatMessage = `Must have the format ${format ?? String(pattern)}`;
  // One rule per field, length first: a value of the wrong length gets one issue, not two.
  const checked = anyText.check(
    rule<string>((value) => {
      const count = min === undefined && max === undefined ? 0 : charCount(value);
      if (min !== undefined && count < min) {
        const message = `Must be at least ${min} characters`;
        return { code: 'too_small', origin: 'string', minimum: min, inclusive: true, message };
      }
      if (max !== undefined && count > max) {
        const message = `Must be at most ${max} characters`;
        return { code: 'too_big', origin: 'string', maximum: max, inclusive: true, message };
      }
      if (pattern && !pattern.test(value)) {
        return {
          code: 'invalid_format',
          format: 'regex',
          pattern: String(pattern),
          message: formatMessage,
        };
      }
      return undefined;
    }),
  );
  return withKeywords(checked, { minLength: min, maxLength: max, pattern: pattern?.source });
}

/** A calendar day written `YYYY-MM-DD`. */
export const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * `[year, month, day]` of a `'YYYY-MM-DD'` string that names a real day, else `undefined`.
 *
 * @example
 * ```ts
 * readIsoDate('2024-02-29'); // [2024, 2, 29]
 * readIsoDate('2025-02-29'); // undefined
 * ```
 */
export function readIsoDate(value: string): [number, number, number] | undefined {
  const match = ISO_DATE.exec(value);
  if (!match) return undefined;
  const day: [number, number, number] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isRealDay(...day) ? day : undefined;
}

/**
 * A request date whose format the spec does not show (`birth`, spec §4.1: "string (date)"). A value
 * that begins with a `YYYY-MM-DD` date must name a real day: no date rule reads 30 February. Any
 * other form is left to the service, which may read more forms than the SDK can tell apart.
 *
 * @example
 * ```ts
 * dateText.safeParse('1988-02-30').success; // false: "Not a real calendar day"
 * dateText.safeParse('1988-02-29').success; // true
 * ```
 */
export const dateText = withKeywords(
  anyText.check(
    rule<string>((value) =>
      readIsoDate(value.slice(0, 10)) || !ISO_DATE.test(value.slice(0, 10))
        ? undefined
        : { code: 'invalid_format', message: 'Not a real calendar day' },
    ),
  ),
  // The spec says "string (date)": the document names the `YYYY-MM-DD` form, which this rule reads.
  { format: 'date' },
);

/** Inclusive bounds of {@link integer} and {@link decimal}. */
export interface RangeRules {
  /** Smallest value allowed. */
  min?: number;
  /** Largest value allowed. */
  max?: number;
}

/** The check of {@link RangeRules}, or none when neither bound is set. */
function rangeRule({ min, max }: RangeRules): z.core.$ZodCheck<number> | undefined {
  if (min === undefined && max === undefined) return undefined;
  const bounds =
    min !== undefined && max !== undefined
      ? `between ${min} and ${max}`
      : min !== undefined
        ? `at least ${min}`
        : `at most ${max}`;
  const message = `Must be ${bounds}`;
  return rule<number>((value) => {
    if (min !== undefined && value < min) {
      return { code: 'too_small', origin: 'number', minimum: min, inclusive: true, message };
    }
    if (max !== undefined && value > max) {
      return { code: 'too_big', origin: 'number', maximum: max, inclusive: true, message };
    }
    return undefined;
  });
}

/**
 * A request integer field with inclusive bounds.
 *
 * @example
 * ```ts
 * integer({ min: 1, max: 7 }).parse(7); // 7
 * ```
 */
export function integer(rules: RangeRules = {}): z.ZodMiniNumber<number> {
  return boundedInteger(anyInteger, rules);
}

/**
 * A request amount in cents (an integer) with inclusive bounds: a fraction is refused with a
 * message asking for whole cents.
 *
 * @example
 * ```ts
 * cents({ min: 0, max: 99_999_999 }).safeParse(19.9).success; // false: "Expected a whole number of cents"
 * ```
 */
export function cents(rules: RangeRules = {}): z.ZodMiniNumber<number> {
  return boundedInteger(anyCents, rules);
}

/** `base` with the check of `rules`, or `base` itself when neither bound is set. */
function boundedInteger(base: z.ZodMiniNumber<number>, rules: RangeRules): z.ZodMiniNumber<number> {
  const range = rangeRule(rules);
  if (!range) return base;
  return withKeywords(base.check(range), {
    type: 'integer',
    minimum: rules.min,
    maximum: rules.max,
  });
}

/**
 * A request number field (fractions allowed) with inclusive bounds.
 *
 * @example
 * ```ts
 * decimal({ min: 1, max: 80 }).parse(12.5); // 12.5
 * ```
 */
export function decimal(rules: RangeRules = {}): z.ZodMiniNumber<number> {
  const range = rangeRule(rules);
  if (!range) return anyDecimal;
  return withKeywords(anyDecimal.check(range), { minimum: rules.min, maximum: rules.max });
}

/**
 * A request boolean field.
 *
 * @example
 * ```ts
 * flag().parse(true); // true
 * ```
 */
export function flag(): z.ZodMiniBoolean<boolean> {
  return anyFlag;
}

/**
 * A request enum field whose full set the spec gives: any other value is refused, with the allowed
 * values in the message.
 *
 * @example
 * ```ts
 * oneOf(['one-time', 'recurring']).safeParse('weekly').success; // false
 * ```
 */
export function oneOf<const T extends readonly [string, ...string[]]>(
  values: T,
): z.ZodMiniType<T[number], T[number]> {
  const allowed: readonly string[] = values;
  const message = `Expected one of: ${values.join(', ')}`;
  const schema = z
    .string({ error: message })
    .check(
      rule<string>((value) =>
        allowed.includes(value) ? undefined : { code: 'invalid_value', values, message },
      ),
    );
  return withKeywords(schema, { enum: [...values] }) as unknown as z.ZodMiniType<
    T[number],
    T[number]
  >;
}

/**
 * A request object: the documented fields, and a message that says so when the value is not an
 * object at all. Its inferred type is closed (no index signature), so an unknown or misspelled key
 * in an object literal is a compile error; at run time `checkParams` refuses such a key, naming the
 * closest documented one. The schema itself lets unknown keys through, as a Laravel service does:
 * the testing kit validates with these schemas and must not refuse what the service would ignore.
 *
 * @example
 * ```ts
 * const Query = paramsObject({ page: optional(integer({ min: 1 })) });
 * ```
 */
export function paramsObject<Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
): z.ZodMiniObject<Shape, z.core.$strip> {
  const schema = z.looseObject(shape, { error: 'Expected an object' });
  return schema as unknown as z.ZodMiniObject<Shape, z.core.$strip>;
}

/**
 * A request array whose items follow `item`; `items` names them in the message when the value is
 * not an array (`Expected an array of strings`).
 *
 * @example
 * ```ts
 * const states = listOf(text(), 'strings');
 * ```
 */
export function listOf<T extends AnySchema>(item: T, items: string): z.ZodMiniArray<T> {
  return z.array(item, { error: `Expected an array of ${items}` });
}

/** Format patterns of spec §2 and §4, shared by the user and company-partner schemas. */
export const FORMATS = {
  /** Person tax id, `###.###.###-##`. */
  cpf: /^\d{3}\.\d{3}\.\d{3}-\d{2}$/,
  /** Company tax id, `##.###.###/####-##`. */
  cnpj: /^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/,
  /** Brazilian zip code, `00000-000`. */
  zipCode: /^\d{5}-\d{3}$/,
  /** Phone number without area code: 8 or 9 digits. */
  phoneNumber: /^\d{8,9}$/,
  /** Two-letter state abbreviation. */
  state: /^[A-Za-z]{2}$/,
  /** An e-mail address, loosely: something, `@`, something, no spaces (the service's rule is not shown). */
  email: /^[^\s@]+@[^\s@]+$/,
  /**
   * An absolute URL: a scheme, `://`, a host, and no spaces (a Laravel `url` rule refuses
   * `mailto:…` and `javascript:…`, which have no `//` host).
   */
  url: /^[A-Za-z][A-Za-z\d+.-]*:\/\/[^\s/?#]+\S*$/,
} as const;

/** The value of a request object, as a cross-field rule reads it. */
type Fields = Record<string, unknown>;

/**
 * A rule across fields of a request object (`a` requires `b`): `check` reports issues with
 * {@link fieldIssue}. It runs even when a single field already failed, so every issue shows at once.
 *
 * @example
 * ```ts
 * paramsObject({ cpf: optional(text()), birth: optional(text()) }).check(
 *   crossFieldRule((payload) => {
 *     if (payload.value.cpf && !payload.value.birth) fieldIssue(payload, ['birth'], 'Required when cpf is sent');
 *   }),
 * );
 * ```
 */
export function crossFieldRule(
  check: (payload: z.core.ParsePayload<Fields>) => void,
): z.core.$ZodCheck<Fields> {
  return z.check<Fields>(check, {
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  });
}

/**
 * Adds a cross-field issue at `path` to the parse of a request object (inside {@link crossFieldRule}).
 *
 * @example
 * ```ts
 * crossFieldRule((payload) => fieldIssue(payload, ['birth'], 'Required when cpf is sent'));
 * ```
 */
export function fieldIssue(
  payload: z.core.ParsePayload,
  path: PropertyKey[],
  message: string,
  input: unknown = payload.value,
): void {
  payload.issues.push({ code: 'custom', path, message, input, continue: true });
}
