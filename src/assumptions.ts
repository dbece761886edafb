/**
 * Every default the SDK assumes where the spec says "not shown" (DESIGN §6), in one place, so a
 * partner (or a later spec) can see and change each of them here. The README's "Assumptions" table
 * lists the same entries with the spec section each one fills.
 *
 * @module
 */

/** Spec §5.2: the login path is `/auth`; the shape of its request and response is not shown. */
export const LOGIN = {
  /** Path of the login endpoint, relative to `baseUrl`. */
  path: '/auth',
  /** Assumed request body: the identifier and secret under these names. */
  body: (clientId: string, clientSecret: string) => ({
    client_id: clientId,
    client_secret: clientSecret,
  }),
  /** Assumed response: the token at `client_token`, or under `data.client_token`. */
  readToken(body: unknown): string | undefined {
    // Any body reads safely: a text or a number has neither field.
    const record = body as { client_token?: unknown; data?: { client_token?: unknown } } | null;
    const token = record?.client_token ?? record?.data?.client_token;
    return typeof token === 'string' && token !== '' ? token : undefined;
  },
} as const;

// Spec §5.6: the status of an origin rejection is not shown. A 403 is read as the registered-origin
// rule (its message says so: `defaultDetail` in core/errors.ts); a 401 on the root client also
// hints at the seller token (`withSellerHint` in core/transport.ts). Both are messages only, so no
// value lives here.

/**
 * Spec §4.2 names `GET /financial/refund/{hash}/status` without its shape: the status is assumed
 * under `data.status` of the usual envelope (the envelope's own `status` is `success`), and the
 * 202's `Location` header, when present, is followed instead of building the path.
 */
export const REFUND_STATUS = {
  /** Path of the status endpoint for a transaction. */
  path: (encodedTransactionHash: string) => `/financial/refund/${encodedTransactionHash}/status`,
  /** Statuses that end a wait (spec §3: the status endpoint is polled until one of these). */
  terminal: ['completed', 'failed'] as const,
  /** Statuses of an active refund (spec §2.9, §3): a repeated request answers it, creating none. */
  active: ['requested', 'success'] as const,
} as const;

/**
 * Spec §2.9 gives a refund's `created_at` as `DD/MM/YYYY HH:mm:ss` without a zone, and §3 says a
 * repeated request creates a second refund once the first is `completed` or `failed`. After an
 * attempt whose answer was lost, `refunds.request` reads the transaction's refunds and takes as
 * the lost attempt's any refund still active or created since the call started, judged in the
 * service's clock (estimated from the `Date` header of that read) in `timeZone`, with `marginMs`
 * of slack: a refund up to that much older still counts as this call's, since a payments partner
 * prefers "no second refund" to "maybe two". A refund whose `created_at` cannot be read counts
 * as this call's for the same reason.
 */
export const REFUND_RECONCILIATION = {
  /** Zone of `created_at` (the platform sells in BRL: DESIGN §6). */
  timeZone: 'America/Sao_Paulo',
  /** How much older than the call's start a refund may be and still count as its own (ms). */
  marginMs: 10_000,
} as const;

/**
 * Spec §4.12 names an export status lookup without its shape: assumed at
 * `GET /financial/account-statement/export-report/{hash}` answering the envelope with the export;
 * finished when `url` is set, failed when `status` is one of `failed` or `error`.
 */
export const EXPORT_STATUS = {
  /** Path of the status lookup for an export. */
  path: (encodedExportHash: string) =>
    `/financial/account-statement/export-report/${encodedExportHash}`,
  /** Statuses read as a failed export. */
  failed: ['failed', 'error'] as const,
} as const;

/**
 * Spec §4.7 gives the scenario values `above` and `below` but not the field's name: `scenario` is
 * assumed. Its response (`amount`, `status`, `created_at`) is read bare or from the envelope's `data`.
 */
export const ANTICIPATION_CONFIRM = {
  /** Name of the body field carrying the scenario. */
  scenarioField: 'scenario',
} as const;

/**
 * Spec §4.10 does not show the defaults of `page` and `per_page`: the SDK sends neither unless the
 * caller does, so the service's own defaults apply.
 */
export const LIST_DEFAULTS = {
  /** Largest page number the product list accepts (spec §8). */
  productsMaxPage: 999,
} as const;

/**
 * How the service reads the strings of a request. The spec does not say; DESIGN §4 describes a
 * Laravel service, whose default middleware trims every string (`TrimStrings`) and then reads an
 * empty one as `null` (`ConvertEmptyStringsToNull`) before any rule runs: `'  Jo '` is too short a
 * name and `'   '` is missing. `checkParams` judges the strings of a request read this way (`blank`
 * left out: a blank string counts as absent) and sends them trimmed (`blank` `''`: still sent, so
 * the service reads its `null` as before). Only plain objects and arrays are walked: files, dates
 * and streams pass as they are.
 */
export function trimStrings(value: unknown, blank?: ''): unknown {
  if (typeof value === 'string') return value.trim() || blank;
  if (Array.isArray(value)) return value.map((item) => trimStrings(item, blank));
  if (value?.constructor !== Object) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimStrings(v, blank)]));
}
