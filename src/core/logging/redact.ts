/**
 * Keeps secrets out of every message, error and log line the SDK produces.
 *
 * Two nets: keys that always hold secrets are replaced wherever they appear in a structure, and
 * the secret values this process handed to the SDK (client secret, client tokens, public tokens)
 * are replaced wherever they appear in text, so a service that echoes one back in an error body
 * or an HTML page does not leak it either.
 */

import { secretsLongestFirst } from './known-secrets';

const REDACTED = '[REDACTED]';

/** A secret this long is masked wherever it appears, inside a longer word too; a shorter one as a word. */
const MASKED_INSIDE_WORDS_FROM = 6;

/**
 * Keys whose values are secrets wherever they appear, compared by their letters and digits in lower
 * case: `client_secret`, `Client-Secret` and `clientSecret` are one key.
 */
const SECRET_KEYS = new Set([
  'xapiclienttoken',
  'authorization',
  'clientsecret',
  'clienttoken',
  'publictoken',
  'password',
  'token',
  'accesstoken',
  'refreshtoken',
  // A session a service sets, or one sent back, is a credential like a bearer.
  'cookie',
  'setcookie',
]);

/**
 * A header or query parameter name that says its value is a credential: a gateway key, a token,
 * a pre-signed URL's signature (`Signature`, `sig`, `X-Goog-Signature`, `X-Amz-Credential`), a
 * session cookie, a password however it is spelt (`passwd`, `pwd`, a bare `pass`), a JWT or a
 * bearer. Such values are masked wherever the SDK shows text, and scrubbed from `url.full`.
 */
export const CREDENTIAL_NAME =
  /sig|credential|token|secret|key|pass|pwd|jwt|bearer|auth|cookie|session/i;

/** Personal data masked in debug logs of bodies (never in data returned to the caller); compared as above. */
const PERSONAL_KEYS = new Set([
  'cpf',
  'cnpj',
  'accountnumber',
  'accountcheckdigit',
  'branchnumber',
  'branchcheckdigit',
  'pixkey',
  'holderdocument',
  'account',
  'agency',
]);

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Whether a header or body key holds a secret. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(normaliseKey(key));
}

/**
 * A JWT (three base64url parts, the first starting with `eyJ`) is a bearer token in any context.
 * Linear in the text: a JWT starts where a run of token characters starts (the lookbehind), and
 * each part is taken whole by a lookahead and a back-reference, which never backtrack, so a run of
 * repeated `eyJ` costs one pass instead of one pass per `eyJ`.
 */
const JWT_PATTERN = /(?<![\w-])eyJ(?=([\w-]+))\1\.(?=([\w-]{4,}))\2\.(?=([\w-]{4,}))\3/g;
/** `"client_token":"…"`, `client_secret=…` and the like inside text bodies. */
const SECRET_ASSIGNMENT =
  /((?:x-api-client-token|authorization|client_secret|client_token|public_token|access_token)["']?\s*[:=]\s*["']?)(?:Bearer\s+)?[^"'\s&,}]+/gi;

/**
 * A URL query's `name=value` inside any text. The name is at most 100 characters, so a long run
 * without `=` costs one pass, not one per character.
 */
const QUERY_PARAMETER = /([?&])([^=&#\s"'<>]{1,100})=([^&#\s"'<>]+)/g;

/**
 * A URL's password (`scheme://user:password@host`: a proxy's, a Redis URL's) inside any text. A try
 * starts only at `://` and stops at the first space, `/` or `@`, so a text costs one pass.
 */
const URL_PASSWORD = /(:\/\/[^\s/@:]*:)[^\s/@]+@/g;

/**
 * Masks every known secret value, JWT and `key: value` secret assignment in a text, the password
 * of a URL, and the values of URL query parameters named as credentials (a pre-signed file URL in
 * an export's answer, before the SDK has fetched it and learnt its signature).
 */
export function redactText(text: string): string {
  let result = text;
  for (const secret of secretsLongestFirst()) {
    if (!result.includes(secret)) continue;
    result =
      secret.length < MASKED_INSIDE_WORDS_FROM
        ? maskWord(result, secret)
        : result.split(secret).join(REDACTED);
  }
  result = result.replace(JWT_PATTERN, REDACTED).replace(SECRET_ASSIGNMENT, `$1${REDACTED}`);
  if (result.includes('@')) result = result.replace(URL_PASSWORD, `$1${REDACTED}@`);
  return result.includes('=') ? result.replace(QUERY_PARAMETER, maskCredentialParameter) : result;
}

/**
 * `text` with `secret` masked where it stands as a word of its own: a secret as short as `Qv`
 * or `tok` is also part of ordinary words and names (`Qvalue`, `client_tok`), which stay readable.
 * Each occurrence is judged by the text between it and its neighbours, never by all the text
 * before it, so a text full of the secret costs its length, not its length squared.
 */
function maskWord(text: string, secret: string): string {
  return text.split(secret).reduce((masked, after, index, between) => {
    const inWord = /[\p{L}\p{N}_]$/u.test(between[index - 1]!) || /^[\p{L}\p{N}_]/u.test(after);
    return masked + (inWord ? secret : REDACTED) + after;
  });
}

function maskCredentialParameter(whole: string, start: string, name: string): string {
  return CREDENTIAL_NAME.test(name) ? `${start}${name}=${REDACTED}` : whole;
}

/**
 * A copy of `headers` with every secret masked: the values of secret-named headers (or of those
 * `hide` names), and known secrets or JWTs anywhere in the others (a service may echo a token in
 * any header).
 */
export function redactHeaders(headers: Headers, hide = isSecretKey): Headers {
  const result = new Headers();
  headers.forEach((value, name) => {
    result.append(name, hide(name) ? REDACTED : redactText(value));
  });
  return result;
}

/** A copy of `value` with secret keys and secret values replaced; other values untouched. */
export function redactDeep(value: unknown): unknown {
  return transform(value, isSecretKey);
}

/** Like {@link redactDeep}, and also masks personal data (tax ids, bank numbers, pix keys): for logs. */
export function redactForLog(value: unknown): unknown {
  return transform(value, (key) => isSecretKey(key) || PERSONAL_KEYS.has(normaliseKey(key)));
}

/** A container still to copy: its source, and the copy its entries go into. */
type Pending = { source: object; copy: Record<string, unknown> | unknown[] };

/**
 * Copies a structure of any depth with its secrets masked. Iterative, with an explicit list of
 * containers still to copy, so a body nested a hundred thousand levels deep neither overflows the
 * stack nor escapes a depth limit; each container is visited once (a shared or cyclic reference
 * gets the one copy already made), so the work is linear in the structure.
 */
function transform(value: unknown, hide: (key: string) => boolean): unknown {
  const copies = new Map<object, unknown>();
  const pending: Pending[] = [];
  const copyOf = (item: unknown): unknown => {
    if (typeof item === 'string') return redactText(item);
    if (item === null || typeof item !== 'object') return item;
    const known = copies.get(item);
    if (known !== undefined) return known;
    const copy = shallowCopy(item, hide);
    copies.set(item, copy);
    if (copy !== item && !(item instanceof Headers)) {
      pending.push({ source: item, copy: copy as Pending['copy'] });
    }
    return copy;
  };
  const result = copyOf(value);
  for (let next = pending.pop(); next; next = pending.pop()) fill(next, hide, copyOf);
  return result;
}

/** An empty copy of a container (filled later), a Headers' masked entries, or a class instance as it is. */
function shallowCopy(value: object, hide: (key: string) => boolean): unknown {
  if (Array.isArray(value)) return new Array(value.length);
  if (value instanceof Headers) return Object.fromEntries(redactHeaders(value, hide));
  const prototype = Object.getPrototypeOf(value);
  if (value instanceof Error) return errorCopy(value, prototype);
  // Blobs, Dates and other class instances carry no secret keys of ours; keep them as they are.
  return prototype === Object.prototype || prototype === null ? {} : value;
}

/**
 * An error of any class (the application's own, thrown by a handler) as a log line shows it: of the
 * same class, its message and stack masked; its cause and own fields are copied masked after.
 */
function errorCopy(error: Error, prototype: object | null): Error {
  // A class whose message is a getter checking its instance (DOMException) would throw when read
  // on a copy: such an error is copied as a plain Error, its name kept.
  const copy = Object.create(
    Object.hasOwn(error, 'message') ? prototype : Error.prototype,
  ) as Error;
  for (const key of ['name', 'message', 'stack'] as const) {
    const text = error[key];
    if (text === undefined) continue;
    Object.defineProperty(copy, key, {
      value: typeof text === 'string' ? redactText(text) : text,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** Copies one container's entries into its copy, masking what `hide` names. */
function fill(
  { source, copy }: Pending,
  hide: (key: string) => boolean,
  copyOf: (item: unknown) => unknown,
) {
  if (Array.isArray(copy)) {
    const items = source as unknown[];
    for (let index = 0; index < items.length; index++) {
      if (index in items) copy[index] = copyOf(items[index]);
    }
    return;
  }
  if (source instanceof Error) {
    // Not enumerable, so not among the entries below, yet shown by every logger.
    for (const key of ['cause', 'errors']) {
      if (!Object.hasOwn(source, key)) continue;
      const item = (source as unknown as Record<string, unknown>)[key];
      Object.defineProperty(copy, key, { value: copyOf(item), writable: true, configurable: true });
    }
  }
  for (const [key, item] of Object.entries(source)) {
    // Defined, never assigned: a `__proto__` key from a hostile body stays a plain own property
    // instead of becoming the copy's prototype. Keys are redacted too: a secret can be a key.
    Object.defineProperty(copy, redactText(key), {
      value: hide(key) && item !== null && item !== undefined ? REDACTED : copyOf(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}
