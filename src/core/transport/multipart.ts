/**
 * Multipart bodies with the platform's own `FormData` and `Blob` (what fetch sends as-is).
 *
 * Nested objects and arrays take the bracket form a Laravel service reads (`address[zip_code]`,
 * `phones[0][number]`), booleans travel as `1`/`0`, and every file is read into memory once, so
 * a retry or a replay after re-login sends exactly the same bytes: up to the call's
 * `maxUploadBytes`, a stream cancelled past it, since a stream may never end.
 */

import type { Uploadable } from '../../schemas/request-rules';
import { RequestValidationError } from '../errors';
import { loneSurrogateIssues } from '../validation/wire-values';

/** The bound on one file: its field (for the error), its most bytes and the option setting them. */
interface FileBound {
  field: string;
  maxBytes: number;
  option?: string;
}

/** The call refused for a file past its bound, naming the field and the bound. */
function tooLarge({
  field,
  maxBytes,
  option = 'maxUploadBytes',
}: FileBound): RequestValidationError {
  return new RequestValidationError('Invalid file', [
    {
      path: [field],
      message: `expected a file of at most ${maxBytes} bytes (${option}); this one is larger`,
      code: 'too_big',
    },
  ]);
}

/** `toFile`'s default bound: the client's default `maxUploadBytes`, the most a call sends. */
const TO_FILE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Makes a named `File` from bytes, a `Blob` or a stream, so the service receives a file name and
 * type (an avatar without them may be refused).
 *
 * @param data The content.
 * @param name The file name sent with it, e.g. `avatar.png`.
 * @param options `type`: the MIME type, e.g. `image/png` (default: the blob's own, else none);
 *   `maxBytes`: the most bytes read from a stream, which is cancelled past it (default 32 MiB, as
 *   the client's `maxUploadBytes`).
 * @throws {TypeError} `data` is not a `Blob`, `File`, `Uint8Array`, `ArrayBuffer` or
 *   `ReadableStream` (a string is text, not a file: wrap it in a `Blob`).
 * @throws {RequestValidationError} `data` holds more than `maxBytes` bytes, or `name` holds a lone
 *   UTF-16 surrogate (half of a pair), which a file name cannot carry.
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { toFile } from 'partner-sdk';
 *
 * const avatar = await toFile(await readFile('avatar.png'), 'avatar.png', { type: 'image/png' });
 * await seller.users.update({ ...profile, avatar });
 * ```
 */
export async function toFile(
  data: Uploadable,
  name: string,
  options: { type?: string; maxBytes?: number } = {},
): Promise<File> {
  const maxBytes = options.maxBytes ?? TO_FILE_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new TypeError('`maxBytes` must be a positive whole number of bytes');
  }
  // `File` would carry half a surrogate pair as U+FFFD: the service would get another name.
  const badName = loneSurrogateIssues(name, ['name']);
  if (badName.length > 0) throw new RequestValidationError('Invalid file name', badName);
  const bound = { field: 'data', maxBytes, option: 'maxBytes' };
  const blob = await asBlob(data, bound);
  if (!blob)
    throw new TypeError('Expected a file: Blob, File, Uint8Array, ArrayBuffer or ReadableStream');
  return new File([blob], name, { type: options.type ?? blob.type });
}

/**
 * File content as a `Blob` read into memory, at most `bound.maxBytes` (a stream is cut off there),
 * or `undefined` when `data` is none.
 */
async function asBlob(data: unknown, bound: FileBound): Promise<Blob | undefined> {
  const blob = await blobOf(data, bound);
  if (blob && blob.size > bound.maxBytes) throw tooLarge(bound);
  return blob;
}

/** File content as a `Blob` read into memory, or `undefined` when `data` is none. */
async function blobOf(data: unknown, bound: FileBound): Promise<Blob | undefined> {
  if (data instanceof Blob) return data;
  if (data instanceof ReadableStream) return new Blob(await chunksOf(data.getReader(), bound));
  if (ArrayBuffer.isView(data)) {
    return new Blob([copyOf(data)]);
  }
  return typeof data === 'object' && data !== null ? asBlobOfAnyRealm(data, bound) : undefined;
}

/** A copy of the bytes `view` shows: the caller may reuse its buffer after the call returns. */
function copyOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice();
}

/**
 * A file of another realm (a `vm` context, a worker's message) or library (fetch-blob,
 * formdata-node, a stream polyfill), told by what it says it is and does, as the request check
 * tells it: failing `instanceof` must not turn a file the check let through into form fields.
 */
async function asBlobOfAnyRealm(data: object, bound: FileBound): Promise<Blob | undefined> {
  const tag = Object.prototype.toString.call(data);
  if (data instanceof ArrayBuffer || tag === '[object ArrayBuffer]') {
    return new Blob([new Uint8Array(data as ArrayBuffer).slice()]);
  }
  if (tag === '[object Blob]' || tag === '[object File]') {
    const { type, name } = data as { type?: unknown; name?: unknown };
    const bytes = new Uint8Array(await (data as Blob).arrayBuffer());
    const options = { type: typeof type === 'string' ? type : '' };
    return typeof name === 'string' ? new File([bytes], name, options) : new Blob([bytes], options);
  }
  const reader = (data as { getReader?: unknown }).getReader;
  return typeof reader === 'function'
    ? new Blob(await chunksOf(reader.call(data), bound))
    : undefined;
}

/**
 * Every chunk a web stream's reader gives, copied; a chunk that is not bytes is refused. Past
 * `bound` the stream is cancelled (its source stops) and the call refused.
 */
async function chunksOf(
  reader: {
    read(): Promise<{ done?: boolean; value?: unknown }>;
    cancel?(reason?: unknown): Promise<void>;
    releaseLock?(): void;
  },
  bound: FileBound,
): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const { value } = next;
      if (!ArrayBuffer.isView(value))
        throw new TypeError('Expected a stream of bytes (Uint8Array chunks)');
      bytes += value.byteLength;
      if (bytes > bound.maxBytes) {
        await reader.cancel?.(tooLarge(bound)).catch(() => undefined);
        throw tooLarge(bound);
      }
      chunks.push(copyOf(value));
    }
  } finally {
    reader.releaseLock?.();
  }
  return chunks;
}

/**
 * Encodes `fields` as multipart form data; `undefined` and `null` fields are left out. A file
 * past `maxBytes` refuses the call.
 */
export async function toFormData(
  fields: Record<string, unknown>,
  maxBytes: number,
): Promise<FormData> {
  return appendFields(new FormData(), fields, maxBytes);
}

/** Adds `fields` to `form` in the same encoding as {@link toFormData}; returns `form`. */
export async function appendFields(
  form: FormData,
  fields: Record<string, unknown>,
  maxBytes: number,
): Promise<FormData> {
  for (const [key, value] of Object.entries(fields)) await append(form, key, value, maxBytes);
  return form;
}

async function append(form: FormData, key: string, value: unknown, maxBytes: number) {
  if (value === undefined || value === null) return;
  if (typeof value === 'boolean') return form.append(key, value ? '1' : '0');
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') {
    return form.append(key, String(value));
  }
  if (value instanceof Date) return form.append(key, value.toISOString());
  if (typeof value !== 'object') {
    throw new TypeError(`Cannot send a ${typeof value} in a multipart body (field ${key}).`);
  }
  const bound = { field: key, maxBytes };
  const blob = await asBlob(value, bound);
  if (blob) return form.append(key, blob, blob instanceof File ? blob.name : key);
  // Arrays and objects alike: `phones[0][number]`, `address[zip_code]`.
  for (const [name, item] of Object.entries(value)) {
    await append(form, `${key}[${name}]`, item, maxBytes);
  }
}
