/**
 * {@link secretVerifier}: a ready `verify` for the commonest way to authenticate deliveries when
 * the service signs nothing (spec §6 shows no signature): a shared secret carried in the URL
 * registered with the platform or in a header. It compares in constant time and fails closed.
 *
 * @module
 */

import { ownedSecrets } from '../core/logging/known-secrets';
import type { createWebhookHandler } from './handler';
import type { WebhookVerifyInput } from './options';

/** Where {@link secretVerifier} finds the secret a delivery carries, and what it must equal. */
export interface SecretVerifierOptions {
  /**
   * The secret, or several while one replaces another (a delivery carrying any of them passes).
   * A missing or empty one is refused at creation: a receiver must never accept every delivery
   * because an environment variable was not set.
   */
  secret: string | readonly string[] | undefined;
  /** The query parameter of the registered URL that carries it (`?token=…`). */
  query?: string;
  /** The request header that carries it (e.g. `x-webhook-token`). */
  header?: string;
}

const utf8 = new TextEncoder();

/** Marks a `verify` that looks at the URL and headers only: the receiver runs it before the body. */
const READS_NO_BODY = Symbol('partner-sdk.verify.reads-no-body');

/**
 * Whether `verify` was built by {@link secretVerifier}, so it can run before the body is read.
 *
 * @example
 * ```ts
 * readsNoBody(secretVerifier({ secret: 's3cret', query: 'token' })); // true
 * ```
 */
export function readsNoBody(verify: (input: WebhookVerifyInput) => unknown): boolean {
  return (verify as unknown as Record<symbol, unknown>)[READS_NO_BODY] === true;
}

/**
 * Builds a `verify` for {@link createWebhookHandler} that passes a delivery only when it carries
 * the secret exactly once, in the query parameter `query` or in the header `header` (give one of
 * the two). The comparison takes the same time wherever the first difference is, so the answers'
 * timing tells an attacker nothing about the secret. A parameter given twice, a header sent twice
 * (its values arrive joined), an empty or a missing value: refused (401). The receiver runs it
 * before reading the body, so a request without the secret is refused unread and never holds any
 * of the bytes the receiver keeps for bodies being read. The query is decoded before the
 * comparison: register the URL with `encodeURIComponent(secret)` (a `+` left as it is reads as a
 * space).
 *
 * @throws {TypeError} the secret is missing or empty, not exactly one of `query` and `header` is
 *   given, or, with `header`, a secret is not visible ASCII (a header does not carry it intact).
 * @example
 * ```ts
 * import { createWebhookHandler, secretVerifier } from 'partner-sdk/webhooks';
 *
 * // Registered with the platform as https://partner.example.com/webhooks/partner?token=…
 * const handler = createWebhookHandler({
 *   on: { subscription_ended: (event) => endSubscription(event.payload.subscription_code) },
 *   verify: secretVerifier({ secret: process.env.WEBHOOK_TOKEN, query: 'token' }),
 * });
 * ```
 */
export function secretVerifier(
  options: SecretVerifierOptions,
): (input: WebhookVerifyInput) => boolean {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('secretVerifier: the options must be an object with `secret`.');
  }
  const { query, header } = options;
  if ((query === undefined) === (header === undefined)) {
    throw new TypeError('secretVerifier: give exactly one of `query` and `header`.');
  }
  if (query !== undefined && (typeof query !== 'string' || query === '')) {
    throw new TypeError('secretVerifier: `query` must be a parameter name.');
  }
  if (header !== undefined && (typeof header !== 'string' || header === '')) {
    throw new TypeError('secretVerifier: `header` must be a header name.');
  }
  const secrets = checkedSecrets(options.secret);
  if (header !== undefined) refuseUnsendableInHeader(options.secret);
  const carried = (input: WebhookVerifyInput): string | undefined => {
    if (query !== undefined) {
      const values = input.url.searchParams.getAll(query);
      return values.length === 1 ? values[0] : undefined;
    }
    return input.headers.get(header as string) ?? undefined;
  };
  const verify = (input: WebhookVerifyInput): boolean => {
    const given = carried(input);
    if (!given) return false;
    const bytes = utf8.encode(given);
    // Every secret is compared, so which one matched (if any) does not show in the time taken.
    let matched = false;
    for (const secret of secrets) matched = equalInConstantTime(bytes, secret) || matched;
    return matched;
  };
  Object.defineProperty(verify, READS_NO_BODY, { value: true });
  maskInLogs(verify, options.secret as string | readonly string[]);
  return verify;
}

function checkedSecrets(secret: SecretVerifierOptions['secret']): Uint8Array[] {
  const list = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? secret : [];
  if (list.length === 0 || list.some((item) => typeof item !== 'string' || item === '')) {
    throw new TypeError(
      'secretVerifier: `secret` is missing or empty (is its environment variable set?); refusing to build a check that every delivery would pass.',
    );
  }
  return list.map((item: string) => utf8.encode(item));
}

/**
 * The secrets join the SDK's own credentials in every text the SDK emits (the receiver's log lines
 * included), as written and as a URL carries them: a handler's error may quote the URL it came in.
 * Like a client's credentials, they are held while `verify` (and so the handler given it) is
 * reachable, and join the bounded recent ones once it is collected: a receiver making a verifier
 * per request or per seller does not grow the set every masked text is scanned for.
 */
function maskInLogs(verify: object, secret: string | readonly string[]): void {
  const owned = ownedSecrets(verify);
  for (const value of typeof secret === 'string' ? [secret] : secret) {
    owned.pin(value);
    owned.pin(encodeURIComponent(value));
  }
}

/**
 * A header value is bytes, read back as Latin-1 (Node) or refused past it (fetch), its edges
 * trimmed: a secret past visible ASCII, or with spaces at its edges, is not what arrives when the
 * sender writes it as UTF-8, as most do, so every delivery would be refused.
 */
function refuseUnsendableInHeader(secret: SecretVerifierOptions['secret']): void {
  const list = typeof secret === 'string' ? [secret] : (secret as readonly string[]);
  if (list.some((item) => !/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(item))) {
    throw new TypeError(
      'secretVerifier: a secret carried in a header must be visible ASCII (spaces only inside it): a header reads other bytes back as Latin-1 and trims its edges, so every delivery would be refused. Encode it (e.g. base64url), or use `query`.',
    );
  }
}

/** Compares every byte of `expected` whatever `given` holds: the time depends on its length only. */
function equalInConstantTime(given: Uint8Array, expected: Uint8Array): boolean {
  let difference = given.byteLength ^ expected.byteLength;
  for (let index = 0; index < expected.byteLength; index++) {
    difference |= (expected[index] as number) ^ (given[index] ?? 0);
  }
  return difference === 0;
}
