/**
 * Keeps secrets out of every message, error and log line the SDK produces.
 *
 * Two nets: keys that always hold secrets are replaced wherever they appear in a structure, and
 * the secret values this process handed to the SDK (client secret, client tokens, public tokens)
 * are replaced wherever they appear in text, so a service that echoes one back in an error body
 * or an HTML page does not leak it either.
 */

const REDACTED = '[REDACTED]';

/** Keys whose values are secrets wherever they appear (compared lower-case, `-` and `_` alike). */
const SECRET_KEYS = new Set([
  'x_api_client_token',
  'authorization',
  'client_secret',
  'client_token',
  'public_token',
  'clientsecret',
  'clienttoken',
  'publictoken',
  'password',
  'token',
  'access_token',
  'refresh_token',
]);

/** Personal data masked in debug logs of bodies (never in data returned to the caller). */
const PERSONAL_KEYS = new Set([
  'cpf',
  'cnpj',
  'account_number',
  'account_check_digit',
  'branch_number',
  'branch_check_digit',
  'pix_key',
  'holder_document',
  'account',
  'agency',
]);

// Secrets seen by any client in this process. Bounded: tokens rotate rarely, and the oldest go first.
const knownSecrets = new Set<string>();
const MAX_KNOWN_SECRETS = 256;
// Shorter values would redact ordinary words; real tokens and secrets are far longer.
const MIN_SECRET_LENGTH = 6;

/** Remembers a secret value so that it is masked in any text the SDK emits from now on. */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < MIN_SECRET_LENGTH || knownSecrets.has(value)) return;
  if (knownSecrets.size >= MAX_KNOWN_SECRETS) {
    const oldest = knownSecrets.values().next().value;
    if (oldest !== undefined) knownSecrets.delete(oldest);
  }
  knownSecrets.add(value);
}

function normaliseKey(key: string): string {
  return key.toLowerCase().replaceAll('-', '_');
}

/** Whether a header or body key holds a secret. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(normaliseKey(key));
}

/** A JWT (three base64url parts, the first starting with `eyJ`) is a bearer token in any context. */
const JWT_PATTERN = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]{4,}/g;
/** `"client_token":"…"`, `client_secret=…` and the like inside text bodies. */
const SECRET_ASSIGNMENT =
  /((?:x-api-client-token|authorization|client_secret|client_token|public_token|access_token)["']?\s*[:=]\s*["']?)(?:Bearer\s+)?[^"'\s&,}]+/gi;

/** Masks every known secret value, JWT and `key: value` secret assignment in a text. */
export function redactText(text: string): string {
  let result = text;
  for (const secret of knownSecrets) {
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  return result.replace(JWT_PATTERN, REDACTED).replace(SECRET_ASSIGNMENT, `$1${REDACTED}`);
}

/** A copy of `value` with secret keys and secret values replaced; other values untouched. */
export function redactDeep(value: unknown): unknown {
  return transform(value, isSecretKey, 0);
}

/** Like {@link redactDeep}, and also masks personal data (tax ids, bank numbers, pix keys): for logs. */
export function redactForLog(value: unknown): unknown {
  return transform(value, (key) => isSecretKey(key) || PERSONAL_KEYS.has(normaliseKey(key)), 0);
}

const MAX_DEPTH = 32;

function transform(value: unknown, hide: (key: string) => boolean, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => transform(item, hide, depth + 1));
  if (value instanceof Headers) {
    const headers: Record<string, string> = {};
    value.forEach((headerValue, key) => {
      headers[key] = hide(key) ? REDACTED : redactText(headerValue);
    });
    return headers;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    // Blobs, Dates and other class instances carry no secret keys of ours; keep them as they are.
    return value;
  }
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    result[key] =
      hide(key) && item !== null && item !== undefined
        ? REDACTED
        : transform(item, hide, depth + 1);
  }
  return result;
}
