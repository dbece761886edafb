/**
 * A small validator with Laravel's semantics and Laravel's English messages (the 9.x wording a
 * Laravel service sends and the SDK's error messages quote: "The name must be at least 3
 * characters."), so the kit answers a bad request the way a Laravel service does. It is the kit's
 * own: it never reads the SDK's request schemas, so the two can disagree and a test then shows it.
 *
 * Semantics kept from Laravel: rules are per attribute in dot form with `*` for every array item
 * (`phones.*.number`); an attribute that is absent is checked only by the implicit rules
 * (`required`, `required_if`, `requiredWhen`); strings are trimmed and empty ones count as
 * `null` (Laravel's `TrimStrings` and `ConvertEmptyStringsToNull` middleware); `nullable` lets
 * `null` through; `min`/`max`/`between` measure numbers by value when the attribute has
 * `integer` or `numeric`, arrays by count and text by characters; messages name the attribute
 * with `_` as a space (`address.zip code`).
 * One simplification: every attribute stops at its first failing rule (Laravel's `bail`), so
 * each field carries one message.
 *
 * @module
 */

import {
  BOOLEANS,
  charCount,
  isInteger,
  isNumeric,
  isUrl,
  laravelTrim,
  readDate,
} from './php-values';

/** A custom rule: the message when `value` breaks it, else `undefined`. May be async (files). */
export type CustomRule = (
  value: unknown,
  attribute: string,
) => string | undefined | Promise<string | undefined>;

/** A rule: a Laravel rule string (`max:191`, `in:a,b`, `required_if:x,true`) or a custom rule. */
export type Rule = string | CustomRule | { regex: RegExp } | { requiredWhen: boolean };

/** Rules by attribute, in dot form with `*` wildcards. */
export type RuleSet = Record<string, readonly Rule[]>;

/** Laravel's `errors`: messages by attribute in dot form. */
export type FieldErrors = Record<string, string[]>;

/** How Laravel names an attribute in a message: snake case, `_` as a space. */
export function displayName(attribute: string): string {
  return attribute
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replaceAll('_', ' ');
}

const has = (value: unknown, key: string): boolean =>
  value !== null && typeof value === 'object' && Object.hasOwn(value, key);

/** Laravel's "empty" for `required`: null, blank text, an empty array, an empty file. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (value instanceof Blob) return value.size === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** Every concrete attribute a pattern names in `data` (`phones.*.number` → `phones.0.number`, …). */
function expand(data: unknown, pattern: string): Array<{ path: string; value: unknown }> {
  let found: Array<{ path: string[]; value: unknown }> = [{ path: [], value: data }];
  for (const segment of pattern.split('.')) {
    const next: typeof found = [];
    for (const { path, value } of found) {
      if (segment === '*') {
        if (value === null || typeof value !== 'object' || value instanceof Blob) continue;
        for (const key of Object.keys(value)) {
          next.push({ path: [...path, key], value: (value as Record<string, unknown>)[key] });
        }
      } else {
        next.push({
          path: [...path, segment],
          value: has(value, segment) ? (value as Record<string, unknown>)[segment] : undefined,
        });
      }
    }
    found = next;
  }
  return found.map(({ path, value }) => ({ path: path.join('.'), value }));
}

/** The value at a dot path (no wildcards), for `required_if`'s other field. */
function valueAt(data: unknown, path: string): unknown {
  let value = data;
  for (const key of path.split('.')) value = has(value, key) ? (value as never)[key] : undefined;
  return value;
}

type SizeKind = 'numeric' | 'array' | 'file' | 'string';

function sizeKind(rules: readonly Rule[]): SizeKind {
  if (rules.includes('integer') || rules.includes('numeric')) return 'numeric';
  if (rules.includes('array')) return 'array';
  if (rules.includes('file') || rules.includes('image')) return 'file';
  return 'string';
}

function sizeOf(value: unknown, kind: SizeKind): number {
  if (kind === 'numeric') return Number(value);
  if (kind === 'array')
    return Array.isArray(value) ? value.length : Object.keys(value ?? {}).length;
  if (kind === 'file') return value instanceof Blob ? value.size / 1024 : 0;
  return typeof value === 'string' ? charCount(value) : 0;
}

const UNITS: Record<SizeKind, string> = {
  numeric: '',
  array: ' items',
  file: ' kilobytes',
  string: ' characters',
};

/** What a named rule sees: its arguments, the value, the attribute's display name, the context. */
interface RuleCall {
  args: string[];
  value: unknown;
  attr: string;
  kind: SizeKind;
  data: unknown;
}

type NamedRule = (call: RuleCall) => string | undefined;

const fails = (broken: boolean, message: string) => (broken ? message : undefined);

/** Laravel's size rules (`min`, `max`, `between`), worded by what is measured. */
const SIZE_RULES: Record<string, NamedRule> = {
  min: ({ args, value, attr, kind }) => {
    const min = Number(args[0]);
    const text =
      kind === 'array'
        ? `The ${attr} must have at least ${min} items.`
        : `The ${attr} must be at least ${min}${UNITS[kind]}.`;
    return fails(sizeOf(value, kind) < min, text);
  },
  max: ({ args, value, attr, kind }) => {
    const max = Number(args[0]);
    const text =
      kind === 'array'
        ? `The ${attr} must not have more than ${max} items.`
        : `The ${attr} must not be greater than ${max}${UNITS[kind]}.`;
    return fails(sizeOf(value, kind) > max, text);
  },
  between: ({ args, value, attr, kind }) => {
    const [min, max] = args.map(Number) as [number, number];
    const size = sizeOf(value, kind);
    return fails(
      size < min || size > max,
      `The ${attr} must be between ${min} and ${max}${UNITS[kind]}.`,
    );
  },
  digits_between: ({ args, value, attr }) => {
    const [min, max] = args.map(Number) as [number, number];
    const text = typeof value === 'number' ? String(value) : value;
    const ok =
      typeof text === 'string' && /^\d+$/.test(text) && text.length >= min && text.length <= max;
    return fails(!ok, `The ${attr} must be between ${min} and ${max} digits.`);
  },
};

/** Laravel's presence and type rules. */
const TYPE_RULES: Record<string, NamedRule> = {
  required: ({ value, attr }) => fails(isEmpty(value), `The ${attr} field is required.`),
  required_if: ({ args, value, attr, data }) => {
    const [other = '', ...wanted] = args;
    const actual = valueAt(data, other);
    const matches = wanted.some(
      (w) => String(actual) === w || (w === 'true' && (actual === 1 || actual === '1')),
    );
    const text = `The ${attr} field is required when ${displayName(other)} is ${wanted[0]}.`;
    return fails(matches && isEmpty(value), text);
  },
  prohibited: ({ value, attr }) => fails(!isEmpty(value), `The ${attr} field is prohibited.`),
  string: ({ value, attr }) => fails(typeof value !== 'string', `The ${attr} must be a string.`),
  integer: ({ value, attr }) => fails(!isInteger(value), `The ${attr} must be an integer.`),
  numeric: ({ value, attr }) => fails(!isNumeric(value), `The ${attr} must be a number.`),
  boolean: ({ value, attr }) =>
    fails(!BOOLEANS.has(value), `The ${attr} field must be true or false.`),
  array: ({ value, attr }) =>
    fails(
      value === null || typeof value !== 'object' || value instanceof Blob,
      `The ${attr} must be an array.`,
    ),
  file: ({ value, attr }) => fails(!(value instanceof Blob), `The ${attr} must be a file.`),
};

/** Laravel's value rules. */
const VALUE_RULES: Record<string, NamedRule> = {
  in: ({ args, value, attr }) =>
    fails(
      typeof value === 'object' || !args.includes(String(value)),
      `The selected ${attr} is invalid.`,
    ),
  date: ({ value, attr }) => fails(!readDate(value), `The ${attr} is not a valid date.`),
  email: ({ value, attr }) =>
    fails(
      !(typeof value === 'string' && /^[^\s@]+@[^\s@]+$/.test(value)),
      `The ${attr} must be a valid email address.`,
    ),
  url: ({ value, attr }) => fails(!isUrl(value), `The ${attr} must be a valid URL.`),
};

const NAMED_RULES: Record<string, NamedRule> = { ...TYPE_RULES, ...SIZE_RULES, ...VALUE_RULES };

/** The message of one string rule (`max:191`) on one value, or undefined when it holds. */
function checkNamed(
  rule: string,
  value: unknown,
  attr: string,
  rules: readonly Rule[],
  data: unknown,
): string | undefined {
  const [name = '', rest = ''] = rule.split(/:(.*)/s);
  const check = NAMED_RULES[name];
  if (!check) throw new Error(`The kit's validator has no rule "${name}"`);
  const args = rest === '' ? [] : rest.split(',');
  return check({ args, value, attr, kind: sizeKind(rules), data });
}

function isImplicit(rule: Rule): boolean {
  if (typeof rule === 'object' && 'requiredWhen' in rule) return true;
  return typeof rule === 'string' && /^required(_if)?(:|$)/.test(rule);
}

/** How the service's middleware reads strings: trimmed or not, an empty one as `null` or kept. */
export interface StringReading {
  trim: boolean;
  blankAs: 'missing' | 'empty';
}

/**
 * The input as a Laravel app's default middleware hands it to validation: `TrimStrings` (every
 * string trimmed) then `ConvertEmptyStringsToNull`, applied to a whole body; `reading` turns
 * either off, for a service configured otherwise.
 */
export function laravelInput(
  value: unknown,
  reading: StringReading = { trim: true, blankAs: 'missing' },
): unknown {
  if (typeof value === 'string') {
    const read = reading.trim ? laravelTrim(value) : value;
    return read === '' && reading.blankAs === 'missing' ? null : read;
  }
  if (value === null || typeof value !== 'object' || value instanceof Blob) return value;
  if (Array.isArray(value)) return value.map((item) => laravelInput(item, reading));
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    out[key] = laravelInput((value as Record<string, unknown>)[key], reading);
  }
  return out;
}

/**
 * Validates `data` against `rules`; resolves with Laravel's `errors` (attributes in the order
 * of the rule set), or `undefined` when every rule holds.
 */
export async function validate(data: unknown, rules: RuleSet): Promise<FieldErrors | undefined> {
  const errors: FieldErrors = {};
  for (const [pattern, list] of Object.entries(rules)) {
    for (const { path, value } of expand(data, pattern)) {
      const attr = displayName(path);
      const nullable = list.includes('nullable');
      for (const rule of list) {
        if (rule === 'nullable' || rule === 'sometimes') continue;
        // Absent, or null where allowed: only the implicit rules (`required…`) speak.
        if ((value === undefined || (value === null && nullable)) && !isImplicit(rule)) continue;
        let message: string | undefined;
        if (typeof rule === 'function') message = await rule(value, attr);
        else if (typeof rule === 'object' && 'regex' in rule)
          message =
            typeof value === 'string' && rule.regex.test(value)
              ? undefined
              : `The ${attr} format is invalid.`;
        else if (typeof rule === 'object')
          message =
            rule.requiredWhen && isEmpty(value) ? `The ${attr} field is required.` : undefined;
        else message = checkNamed(rule, value, attr, list, data);
        if (message) {
          errors[path] = [message];
          break;
        }
      }
    }
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}
