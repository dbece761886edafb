/**
 * `url.full` as the stable HTTP client conventions define it: the absolute URL a request went to,
 * path and query (no fragment: it is never sent), with no credentials in it. Userinfo becomes
 * `REDACTED:REDACTED` (the conventions' own form), and so does the value of every query parameter
 * whose name says it is a credential (a pre-signed file's signature, an access key, a token): its
 * name is kept, so a reader still sees the URL was signed.
 */

// The conventions name AWSAccessKeyId, Signature, sig and X-Goog-Signature; a pre-signed URL's
// other credentials (X-Amz-Credential, X-Amz-Security-Token, Key-Pair-Id) are scrubbed alike.
// The rule is redaction's own (`CREDENTIAL_NAME` of `core/logging/redact`), written here again:
// imported, redaction would leave the root bundle for a chunk of its own (a test holds the two
// alike).
/** @internal */
export const URL_CREDENTIAL_NAME =
  /sig|credential|token|secret|key|pass|pwd|jwt|bearer|auth|cookie|session/i;

/** The `url.full` of a request to `url`, or `undefined` for a string that is no absolute URL. */
export function fullUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  // A fragment is never sent: it is no part of where the request went, and may hold a token
  // (a `Location` sending a browser on with `#access_token=…`).
  parsed.hash = '';
  if (parsed.username || parsed.password) {
    parsed.username = 'REDACTED';
    parsed.password = 'REDACTED';
  }
  // The query is rewritten by hand so that each parameter kept reads as it was sent.
  if (parsed.search) parsed.search = parsed.search.slice(1).split('&').map(scrubbed).join('&');
  return parsed.href;
}

/** One `name=value` of a query, its value `REDACTED` when its name says it is a credential. */
function scrubbed(parameter: string): string {
  const equals = parameter.indexOf('=');
  const name = equals === -1 ? parameter : parameter.slice(0, equals);
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    // A name that does not decode is matched as it was sent.
  }
  return URL_CREDENTIAL_NAME.test(decoded) ? `${name}=REDACTED` : parameter;
}
