/**
 * Reads a multipart profile update (spec §4.1) the way a PHP/Laravel service does: bracket keys
 * become nested objects and arrays (`address[zip_code]`, `phones[0][number]`, `phones[][type]`),
 * `1`/`0` become booleans for the boolean fields, numeric ids become numbers, files stay `File`s.
 *
 * The mock runs inside a partner's test process, so a field name is data, never a path into that
 * process's objects: every object built here has a `null` prototype (a field named
 * `__proto__[polluted]` is an ordinary key, as it is to PHP, and the validator ignores it like any
 * unknown field), and a name is scanned once, left to right, so any name parses in linear time.
 *
 * @module
 */

/** PHP's `max_input_nesting_level`: a name nested deeper is dropped, as PHP drops it. */
const MAX_DEPTH = 64;

/** Fields of the profile update sent as `1`/`0` (dot form, `*` for any array index). */
const BOOLEAN_FIELDS = new Set(['is_emancipated', 'address.is_default']);
/** Integer fields of the profile update. */
const INTEGER_FIELDS = new Set(['phones.*.id']);

/** A parsed multipart object: no prototype, so no key can reach one. */
export type FormObject = { [key: string]: unknown };

/** An object without a prototype. */
export function bareObject(): FormObject {
  return Object.create(null) as FormObject;
}

/**
 * Splits a field name into its key path the way PHP does: the base name up to the first `[`,
 * then each `[segment]` (`''` for `[]`, "append"); text after the last `]` that does not open
 * another segment is ignored. A first `[` that never closes makes the whole name one plain key.
 * Returns `undefined` for a name nested deeper than PHP accepts. One pass: each character is
 * visited a bounded number of times (`indexOf` resumes where the scan stands).
 */
export function fieldPath(name: string): string[] | undefined {
  const open = name.indexOf('[');
  if (open <= 0) return [name];
  const path = [name.slice(0, open)];
  let at = open;
  while (at < name.length && name[at] === '[') {
    const close = name.indexOf(']', at + 1);
    if (close < 0) {
      // PHP: an unclosed first bracket leaves the name flat (with `_` for the `[`); a later one
      // ends the path there.
      return path.length === 1 ? [`${path[0]}_${name.slice(open + 1)}`] : path;
    }
    path.push(name.slice(at + 1, close));
    if (path.length > MAX_DEPTH + 1) return undefined;
    at = close + 1;
  }
  return path;
}

function coerce(path: readonly string[], value: string | File): unknown {
  if (typeof value !== 'string') return value;
  const pattern = path.map((p) => (/^\d+$/.test(p) ? '*' : p)).join('.');
  // Only `1`/`0`: Laravel's `boolean` rule refuses the text `true`/`false`, so they stay text.
  if (BOOLEAN_FIELDS.has(pattern)) {
    if (value === '1') return true;
    if (value === '0') return false;
  }
  if (INTEGER_FIELDS.has(pattern) && /^-?\d+$/.test(value)) return Number(value);
  return value;
}

const isNode = (v: unknown): v is FormObject =>
  v !== null && typeof v === 'object' && !(v instanceof Blob);

const INDEX = /^(0|[1-9]\d{0,8})$/;

/** Turns objects keyed exactly `0…n-1` into arrays, recursively; others stay prototype-less. */
function arrays(value: unknown): unknown {
  if (!isNode(value)) return value;
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((k) => INDEX.test(k) && Number(k) < keys.length)) {
    const list: unknown[] = new Array(keys.length);
    for (const k of keys) list[Number(k)] = arrays(value[k]);
    return list;
  }
  const out = bareObject();
  for (const k of keys) out[k] = arrays(value[k]);
  return out;
}

/**
 * Nests the fields of a multipart or form-urlencoded body, or of a query string, by their bracket
 * keys (later fields win, as in PHP).
 */
export function formToObject(form: Iterable<[string, string | File]>): FormObject {
  const root = bareObject();
  // The next index of an `[]` append per object: one past its largest integer key, as in PHP.
  const nextIndex = new WeakMap<FormObject, number>();
  const keyIn = (node: FormObject, segment: string): string => {
    const key = segment === '' ? String(nextIndex.get(node) ?? 0) : segment;
    if (INDEX.test(key)) nextIndex.set(node, Math.max(nextIndex.get(node) ?? 0, Number(key) + 1));
    return key;
  };
  for (const [name, value] of form) {
    const path = fieldPath(name);
    if (!path) continue;
    let node = root;
    for (let i = 0; i < path.length - 1; i++) {
      const key = keyIn(node, path[i]!);
      path[i] = key;
      const next = node[key];
      if (isNode(next)) node = next;
      else {
        const child = bareObject();
        node[key] = child;
        node = child;
      }
    }
    const last = keyIn(node, path.at(-1)!);
    path[path.length - 1] = last;
    node[last] = coerce(path, value);
  }
  return arrays(root) as FormObject;
}

/** A summary of multipart fields for the request log (files as `{ name, type, size }`). */
export function describeForm(form: FormData): Record<string, unknown> {
  return Object.fromEntries(
    [...form.entries()].map(([name, value]) => [
      name,
      typeof value === 'string' ? value : { name: value.name, type: value.type, size: value.size },
    ]),
  );
}
