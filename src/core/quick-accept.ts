/**
 * The quick acceptance of response bodies, the fast path of response validation (named apart
 * from the `fast-check` testing library): zod's runtime parser is slow next to `JSON.parse`, and
 * zod's compiler (`z.compile`) is fast but too large for the bundle target. The object checks here
 * are generated code where the runtime allows `new Function`
 * (as zod's own objects are), and plain closures where it does not (some edge runtimes).
 *
 * Response schemas use a small part of zod: loose objects, arrays, optional, nullable, string,
 * number, boolean and unknown, with no checks and no transforms (schemas/response-fields.ts). For that part
 * a successful parse returns a copy equal to its input, so all the fast path needs is a yes/no:
 * {@link acceptsFast} builds, once per schema, a check that answers "would zod accept this value?",
 * and the caller then keeps the body as it came. Whenever it cannot say yes (a wrong value,
 * or a schema using anything outside that part: a format such as `z.uuid()` or `z.int()`, a
 * check, a literal), zod parses as before, so results and issues stay zod's own. A partner's own
 * schema (`client.request({ schema })`) never comes here at all: the transport sends it to zod.
 */

import type { $ZodType } from 'zod/v4/core';

type Check = (value: unknown) => boolean;

/** The parts of a zod definition the fast path reads (classic and mini schemas share them). */
interface Definition {
  type: string;
  checks?: unknown[];
  coerce?: boolean;
  innerType?: $ZodType;
  element?: $ZodType;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
}

const built = new WeakMap<$ZodType, Check | null>();

const isString: Check = (value) => typeof value === 'string';
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const isBoolean: Check = (value) => typeof value === 'boolean';
const isAnything: Check = () => true;

/**
 * Whether zod would surely accept `value` for `schema` and return a copy equal to it. `false` means
 * "ask zod": the value may be wrong, or the schema may be one the fast path does not model.
 */
export function acceptsFast(schema: $ZodType, value: unknown): boolean {
  let check = built.get(schema);
  if (check === undefined) {
    try {
      check = checkFor(schema) ?? null;
    } catch {
      // A shape getter that throws (zod builds some shapes lazily): leave the schema to zod.
      check = null;
    }
    built.set(schema, check);
  }
  return check?.(value) === true;
}

/** Schemas whose closure is being built: meeting one again means a cycle, which zod must handle. */
const building = new Set<$ZodType>();

/** The closure checking `schema`, or `undefined` when the schema is outside the modelled part. */
function checkFor(schema: $ZodType): Check | undefined {
  if (building.has(schema)) return undefined;
  building.add(schema);
  try {
    return closureFor(schema._zod.def as Definition);
  } finally {
    building.delete(schema);
  }
}

/**
 * The definition keys the modelled part uses. Anything else (a string or number `format`, a
 * `pattern`, a `check`, literal `values`…) is a rule the closures do not know: zod decides.
 */
const MODELLED_KEYS: ReadonlySet<string> = new Set([
  'type',
  'checks',
  'coerce',
  'error',
  'innerType',
  'element',
  'shape',
  'catchall',
]);

function closureFor(def: Definition): Check | undefined {
  if (def.checks?.length || def.coerce) return undefined;
  for (const key in def) if (!MODELLED_KEYS.has(key)) return undefined;
  switch (def.type) {
    case 'string':
      return isString;
    case 'number':
      return isNumber;
    case 'boolean':
      return isBoolean;
    case 'unknown':
    case 'any':
      return isAnything;
    case 'optional': {
      const inner = def.innerType && checkFor(def.innerType);
      return inner && ((value) => value === undefined || inner(value));
    }
    case 'nullable': {
      const inner = def.innerType && checkFor(def.innerType);
      return inner && ((value) => value === null || inner(value));
    }
    case 'array': {
      const element = def.element && checkFor(def.element);
      return (
        element &&
        ((value) => {
          if (!Array.isArray(value)) return false;
          for (let i = 0; i < value.length; i++) if (!element(value[i])) return false;
          return true;
        })
      );
    }
    case 'object':
      return objectCheck(def);
    default:
      return undefined;
  }
}

/**
 * `def`'s test of `x` as generated code: the plain types, optional or nullable or not; `undefined`
 * for any other, which generated code checks through its closure.
 */
function inlineTest(def: Definition): string | undefined {
  const inner = def.innerType && inlineTest(def.innerType._zod.def as Definition);
  switch (def.type) {
    case 'string':
      return 'typeof x === "string"';
    case 'number':
      return 'typeof x === "number" && Number.isFinite(x)';
    case 'boolean':
      return 'typeof x === "boolean"';
    case 'unknown':
    case 'any':
      return 'true';
    case 'optional':
      return inner && `x === undefined || ${inner}`;
    case 'nullable':
      return inner && `x === null || ${inner}`;
    default:
      return undefined;
  }
}

/** A field of an object check: its key, its closure, and its generated test when it has one. */
interface Field {
  key: string;
  check: Check;
  inline: string | undefined;
}

function objectCheck(def: Definition): Check | undefined {
  // Only loose objects return their input's keys unchanged: a plain object strips unknown keys, a
  // strict one refuses them.
  if (!def.shape || (def.catchall?._zod.def as Definition | undefined)?.type !== 'unknown') {
    return undefined;
  }
  const fields: Field[] = [];
  for (const key of Object.keys(def.shape)) {
    const schema = def.shape[key]!;
    const check = checkFor(schema);
    if (!check) return undefined;
    fields.push({ key, check, inline: inlineTest(schema._zod.def as Definition) });
  }
  return compiledObjectCheck(fields) ?? interpretedObjectCheck(fields);
}

/** `false` once the runtime has refused `new Function` (a Content-Security-Policy may): not asked again. */
let compiling = true;

/**
 * The object check as generated code, where the runtime allows it, as zod itself does for its own
 * objects: each field read becomes a named property access that V8 caches for the page's objects,
 * where the interpreted loop below does a keyed lookup per field: on the 50-product page, 1.8 µs
 * against 15.6 µs (zod's parser: 95 µs).
 * The code holds only the schema's own keys (quoted by `JSON.stringify`), never response data.
 */
function compiledObjectCheck(fields: Field[]): Check | undefined {
  if (!compiling) return undefined;
  const nested: Check[] = [];
  const tests = fields.map((field) => {
    const test = field.inline ?? `n[${nested.push(field.check) - 1}](x)`;
    return `x = v[${JSON.stringify(field.key)}]; if (!(${test})) return false;`;
  });
  const source =
    'return (v) => { if (typeof v !== "object" || v === null || Array.isArray(v)) return false; ' +
    `let x; ${tests.join(' ')} return true; };`;
  try {
    return new Function('n', source)(nested) as Check;
  } catch {
    compiling = false;
    return undefined;
  }
}

/**
 * The object check as a loop over the fields' own checks, for runtimes that refuse `new Function`:
 * slower than the generated code, still six times faster than zod's parser.
 */
function interpretedObjectCheck(fields: Field[]): Check {
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    for (const field of fields) if (!field.check(record[field.key])) return false;
    return true;
  };
}
