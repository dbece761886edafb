/**
 * One text per JSON value, whatever the order of its keys or its white space: what a delivery's
 * key digests. Iterative, so a body nested 20,000 deep (which the size bound lets through) cannot
 * overflow the stack.
 *
 * @module
 */

/** Text to emit as is, told apart from string values waiting to be serialised. */
class Text {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** Marks the end of an object or array, so a value met again inside itself is seen as a cycle. */
class Leave {
  readonly value: object;
  constructor(value: object) {
    this.value = value;
  }
}

/**
 * JSON text of `value` with every object's keys sorted (by UTF-16 code units) and no white space.
 * Like `JSON.stringify`: non-finite numbers become `null`, `undefined` and functions are left out
 * of objects and become `null` in arrays. A bigint is written as its digits.
 *
 * @throws {TypeError} when `value` contains itself.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const open = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Text) {
      out.push(item.text);
    } else if (item instanceof Leave) {
      open.delete(item.value);
    } else if (Array.isArray(item)) {
      enter(open, item);
      stack.push(new Leave(item), new Text(']'));
      for (let index = item.length - 1; index >= 0; index--) {
        const element = item[index];
        stack.push(omitted(element) ? null : element);
        if (index > 0) stack.push(new Text(','));
      }
      out.push('[');
    } else if (item !== null && typeof item === 'object') {
      enter(open, item);
      const record = item as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => !omitted(record[key]))
        .sort();
      stack.push(new Leave(item), new Text('}'));
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string;
        stack.push(record[key], new Text(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`));
      }
      out.push('{');
    } else {
      out.push(scalar(item));
    }
  }
  return out.join('');
}

function enter(open: Set<object>, value: object): void {
  if (open.has(value)) throw new TypeError('cannot serialise a value that contains itself');
  open.add(value);
}

function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function scalar(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  return 'null';
}
