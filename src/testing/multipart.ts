/**
 * Reads a multipart profile update (spec §4.1) the way a PHP/Laravel service does: bracket keys
 * become nested objects and arrays (`address[zip_code]`, `phones[0][number]`), `1`/`0` become
 * booleans for the boolean fields, numeric ids become numbers, files stay `File`s.
 *
 * @module
 */

/** Fields of the profile update sent as `1`/`0` (dot form, `*` for any array index). */
const BOOLEAN_FIELDS = new Set(['is_emancipated', 'address.is_default']);
/** Integer fields of the profile update. */
const INTEGER_FIELDS = new Set(['phones.*.id']);

function keyPath(name: string): string[] {
  const head = name.split('[', 1)[0]!;
  const rest = [...name.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
  return [head, ...rest];
}

function coerce(path: string[], value: string | File): unknown {
  if (typeof value !== 'string') return value;
  const pattern = path.map((p) => (/^\d+$/.test(p) ? '*' : p)).join('.');
  if (BOOLEAN_FIELDS.has(pattern)) {
    if (value === '1' || value === 'true') return true;
    if (value === '0' || value === 'false') return false;
  }
  if (INTEGER_FIELDS.has(pattern) && /^-?\d+$/.test(value)) return Number(value);
  return value;
}

/** Turns arrays-as-objects (`{ "0": …, "1": … }`) into real arrays, recursively. */
function arrays(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Blob) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, arrays(v)] as const);
  if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) {
    const list: unknown[] = [];
    for (const [k, v] of entries) list[Number(k)] = v;
    return list;
  }
  return Object.fromEntries(entries);
}

/** Nests the fields of a multipart body by their bracket keys. */
export function formToObject(form: FormData): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    const path = keyPath(name);
    let node: Record<string, unknown> = root;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i]!;
      const next = node[key];
      node[key] = next !== null && typeof next === 'object' && !(next instanceof Blob) ? next : {};
      node = node[key] as Record<string, unknown>;
    }
    node[path.at(-1)!] = coerce(path, value);
  }
  return arrays(root) as Record<string, unknown>;
}

/** A summary of multipart fields for the request log (files as `{ name, type, size }`). */
export function describeForm(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    out[name] =
      typeof value === 'string' ? value : { name: value.name, type: value.type, size: value.size };
  }
  return out;
}
