/**
 * Reads a request body as the service's PHP and Laravel read it: JSON (a bare value cast to a
 * list), form-urlencoded and multipart fields with bracket keys (multipart for POST only, as PHP
 * parses it), and nothing past PHP's `post_max_size`.
 *
 * @module
 */

import { describeForm, formToObject } from './multipart';

/**
 * The largest body the kit reads: PHP's default `post_max_size` (8M). The spec shows no size
 * limit (§8); a body over it gets Laravel's 413 and is never parsed.
 */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A request body as the routes see it. */
export interface Parsed {
  /** The input: JSON, or form fields nested by their bracket keys. */
  body: unknown;
  /** The multipart fields, files included, when the body was multipart. */
  form: FormData | undefined;
  /** What the request log shows. */
  logBody: unknown;
  /** The body could not be parsed in its declared type. */
  malformed: boolean;
  /** The body is over {@link MAX_BODY_BYTES}. */
  tooLarge: boolean;
}

const NONE: Parsed = {
  body: undefined,
  form: undefined,
  logBody: undefined,
  malformed: false,
  tooLarge: false,
};

async function readForm(bytes: ArrayBuffer, type: string, method: string): Promise<Parsed> {
  try {
    const form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
    // Laravel reads form fields into the input of any endpoint; PHP parses multipart for POST only.
    const body = method === 'POST' ? formToObject(form) : undefined;
    return { ...NONE, body, form, logBody: describeForm(form) };
  } catch {
    return { ...NONE, malformed: true };
  }
}

/** PHP's `json_decode` default depth: text nested deeper fails to decode. */
const JSON_MAX_DEPTH = 512;

/** Whether JSON text nests arrays and objects deeper than `max`; one pass, no recursion. */
function nestedDeeper(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (++depth > max) return true;
    } else if (c === ']' || c === '}') depth--;
  }
  return false;
}

/** Half of a UTF-16 surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether a decoded JSON value holds a lone surrogate in a key or a string, which only an escape
 * (`"\ud800"`) can put there: PHP's `json_decode` refuses it (`JSON_ERROR_UTF16`).
 */
function holdsLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(
    ([key, item]) => LONE_SURROGATE.test(key) || holdsLoneSurrogate(item),
  );
}

function readText(text: string, type: string): Parsed {
  if (text === '') return NONE;
  if (type.includes('application/x-www-form-urlencoded')) {
    return { ...NONE, body: formToObject(new URLSearchParams(text)), logBody: text };
  }
  if (!type.includes('json')) return { ...NONE, logBody: text };
  // Too deep for PHP is undecodable, as malformed text is (and would overflow the kit's stack).
  if (nestedDeeper(text, JSON_MAX_DEPTH)) return { ...NONE, logBody: text, malformed: true };
  try {
    const value: unknown = JSON.parse(text);
    if (holdsLoneSurrogate(value)) return { ...NONE, logBody: text, malformed: true };
    // Laravel casts the decoded body to an array: a bare value becomes a list of it.
    const body = typeof value === 'object' ? (value ?? {}) : [value];
    return { ...NONE, body, logBody: value };
  } catch {
    return { ...NONE, logBody: text, malformed: true };
  }
}

/**
 * The body's text, or `undefined` for JSON that is not UTF-8: PHP's `json_decode` refuses it
 * (`JSON_ERROR_UTF8`) where a lenient decoder would read U+FFFD and pass it on. Other text is
 * read as it comes, as PHP parses a form without looking at its encoding.
 */
function decoded(bytes: ArrayBuffer, type: string): string | undefined {
  const json = type.includes('json') && !type.includes('application/x-www-form-urlencoded');
  try {
    return new TextDecoder('utf-8', { fatal: json }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Reads the body of `request`, refusing one over {@link MAX_BODY_BYTES} unread. */
export async function readBody(request: Request): Promise<Parsed> {
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return NONE;
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) return { ...NONE, tooLarge: true };
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > MAX_BODY_BYTES) return { ...NONE, tooLarge: true };
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('multipart/form-data')) return readForm(bytes, type, request.method);
  const text = decoded(bytes, type);
  return text === undefined ? { ...NONE, malformed: true } : readText(text, type);
}
