/**
 * Redirects, followed by the SDK itself rather than by fetch: fetch would carry the client token,
 * the login's secret and `defaultHeaders` to another origin, so each hop is a call of its own that
 * decides its credentials anew (`request.ts`).
 */

import { APIConnectionError, makeAPIError, type RequestIdentity } from '../errors';
import type { ReadyCallSpec } from './call-spec';

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** The most hops one call follows. */
export const MAX_REDIRECTS = 5;

/** Whether `status` is a redirect the SDK follows. */
export function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/**
 * The call to send for a redirect `response` to `spec` (sent to `url`), as fetch would make it:
 * 303, and 301/302 after a POST, continue as a GET without the body. A hop off `baseUrl`'s origin
 * marks the call as having left it (`leftOrigin`), so that no later hop carries credentials. Throws a typed error for a
 * redirect without a usable `Location`, one that would take the login or a request body to another
 * origin, or one too many.
 */
export async function nextHop(
  spec: ReadyCallSpec,
  response: Response,
  from: { url: string; identity: RequestIdentity; origin: string; hops: number },
): Promise<ReadyCallSpec> {
  await response.body?.cancel();
  const next = redirectTarget(response, from.url);
  const refuse = (detail: string) =>
    makeAPIError(from.identity, response.status, undefined, response.headers, detail);
  if (next === undefined) throw refuse('redirect without a usable Location');
  const asGet =
    response.status === 303 ||
    (spec.method === 'POST' && (response.status === 301 || response.status === 302));
  const elsewhere = new URL(next).origin;
  if (spec.authenticate === false && elsewhere !== from.origin) {
    // The login's body is the client secret: it goes to baseUrl's origin or nowhere.
    throw refuse(
      `redirected to another origin (${elsewhere}); not followed: credentials go only to ${from.origin}`,
    );
  }
  if (!asGet && hasBody(spec) && elsewhere !== from.origin) {
    // A 307 or 308 repeats the body: a seller's personal data, bank account or refund. Sent
    // elsewhere, even without credentials, it reaches a third party, whose answer would pass for
    // the service's.
    throw refuse(
      `redirected to another origin (${elsewhere}) with the request body; not followed: a body goes only to ${from.origin}`,
    );
  }
  if (from.hops >= MAX_REDIRECTS) {
    throw new APIConnectionError(from.identity, `more than ${MAX_REDIRECTS} redirects`);
  }
  const hop: ReadyCallSpec = elsewhere === from.origin ? spec : { ...spec, leftOrigin: true };
  return asGet
    ? { ...hop, method: 'GET', path: next, json: undefined, form: undefined }
    : { ...hop, path: next };
}

function hasBody(spec: ReadyCallSpec): boolean {
  return spec.json !== undefined || spec.form !== undefined;
}

/** The absolute http(s) URL a redirect response points to, or `undefined` when it is none. */
function redirectTarget(response: Response, from: string): string | undefined {
  const location = response.headers.get('location');
  if (!location) return undefined;
  try {
    const target = new URL(location, from);
    return target.protocol === 'http:' || target.protocol === 'https:' ? target.href : undefined;
  } catch {
    return undefined;
  }
}
