/**
 * Every default the SDK assumes where the spec says "not shown", in one place, and the client
 * option that overrides each of them without a release: {@link Assumptions}. A partner whose
 * service turns out to differ passes `new PartnerClient({ assumptions: { … } })`; the defaults
 * below are what a client uses otherwise. Nothing here is read at module load by the calls: each
 * client resolves its own copy at construction (`resolveAssumptions`), and the clients derived from
 * it (`forUser`, `withOptions`) inherit that copy. `docs/assumptions.md` is the table a partner
 * reads: each gap, the spec's words, the default, the option.
 *
 * @module
 */

import { isRecord } from './shared/is-record';

/**
 * Overrides of the SDK's assumptions where the spec does not show a shape (the `assumptions`
 * option of `PartnerClient`). Every field is optional; an omitted one keeps its default. Checked
 * when the client is built: a wrong value throws a `PartnerError` naming it.
 *
 * @example
 * ```ts
 * const client = new PartnerClient({
 *   baseUrl, clientId, clientSecret,
 *   assumptions: {
 *     login: { path: '/oauth/token', body: { clientId: 'id', clientSecret: 'secret' }, tokenField: 'access_token' },
 *     refundStatus: { path: '/financial/refund/{hash}/state', terminal: ['done', 'rejected'] },
 *   },
 * });
 * ```
 */
export interface Assumptions {
  /** The login (spec §5.2: path `/auth`, request and response not shown). */
  login?: {
    /** Path of the login under `baseUrl`. Default `'/auth'`. */
    path?: string;
    /** Names of the request body's two fields. Default `{ clientId: 'client_id', clientSecret: 'client_secret' }`. */
    body?: {
      /** The field carrying the client identifier. Default `'client_id'`. */
      clientId?: string;
      /** The field carrying the client secret. Default `'client_secret'`. */
      clientSecret?: string;
    };
    /**
     * Where the token is in the answer: a field name or a dot path (`'auth.token'`), read at the
     * top and, failing that, under the envelope's `data`. Default `'client_token'`.
     */
    tokenField?: string;
  };
  /** The refund status endpoint (spec §4.2: named, shape not shown) and the statuses of §3. */
  refundStatus?: {
    /**
     * Path of the status endpoint, `{hash}` standing for the transaction hash (the 202 names no
     * other). Default `'/financial/refund/{hash}/status'`. Used by `retrieveStatus` and by a wait
     * from a hash or an existing refund; a wait from an accepted request follows its 202's
     * `Location` instead, when there is one.
     */
    path?: string;
    /** Statuses of an active refund: a repeated request answers it, creating none. Default `['requested', 'success']`. */
    active?: readonly string[];
    /** Statuses that end a wait, the completed one first (what a bulk job's `unlessRefunded` looks for). Default `['completed', 'failed']`. */
    terminal?: readonly string[];
  };
  /** How a lost refund request is matched with the refund it may have created (see `refunds.findCreatedSince`). */
  reconciliation?: {
    /** How much older than the call's start a refund may be and still count as its own, in ms (0 to 3 600 000). Default 10 000. */
    marginMs?: number;
    /**
     * How far a machine's clock may be off the service's, in ms (0 to 86 400 000). For an answer
     * without a `Date` header the service's clock is unknown, and refunds created up to this much
     * (plus `marginMs`) before the call's start count as its own; a start read on another
     * machine's clock (`findCreatedSince(hash, { otherMachine })`: a BullMQ job's enqueue time, a
     * bulk journal's intent resumed) is searched from this much (plus `marginMs`) earlier,
     * whatever the `Date` header says. Default 900 000 (15 minutes).
     */
    maxClockSkewMs?: number;
    /** IANA zone of a refund's `created_at` (`DD/MM/YYYY HH:mm:ss`, no offset). Default `'America/Sao_Paulo'`. */
    timeZone?: string;
  };
  /** The export status lookup (spec §4.12: named, shape not shown). */
  exportStatus?: {
    /** Path of the lookup, `{hash}` standing for the export hash. Default `'/financial/account-statement/export-report/{hash}'`. */
    path?: string;
    /** Statuses read as a failed export. Default `['failed', 'error']`. */
    failed?: readonly string[];
  };
  /** The anticipation confirmation (spec §4.7: values `above`/`below`, field name not shown). */
  anticipationConfirmation?: {
    /** Name of the body field carrying the scenario. Default `'scenario'`. */
    field?: string;
  };
  /** How the service reads the strings of a request (not stated; its errors are read as Laravel writes them, so its strings too). */
  strings?: {
    /** Whether the service trims every string (Laravel's `TrimStrings`): judged and sent trimmed. Default `true`. */
    trim?: boolean;
    /**
     * How an empty string (after the trim) is read: `'missing'` (Laravel's
     * `ConvertEmptyStringsToNull`: a required field left blank is refused before sending) or
     * `'empty'` (an empty string is a value like any other). Default `'missing'`.
     */
    blankAs?: 'missing' | 'empty';
  };
}

/**
 * {@link Assumptions} with every default applied: what a client runs on.
 *
 * @example
 * ```ts
 * const current: ResolvedAssumptions = DEFAULT_ASSUMPTIONS;
 * console.log(current.refundStatus.terminal); // ['completed', 'failed']
 * ```
 */
export type ResolvedAssumptions = Complete<Assumptions>;

/**
 * `T` with every field, at every depth, present and read-only (an array or a value as it is).
 */
type Complete<T> = {
  readonly [K in keyof T]-?: Exclude<T[K], undefined> extends object
    ? Exclude<T[K], undefined> extends readonly unknown[]
      ? Exclude<T[K], undefined>
      : Complete<Exclude<T[K], undefined>>
    : Exclude<T[K], undefined>;
};

/**
 * Today's assumptions, the defaults of every field of {@link Assumptions}.
 *
 * @example
 * ```ts
 * import { DEFAULT_ASSUMPTIONS } from 'partner-sdk';
 * console.log(DEFAULT_ASSUMPTIONS.login.path); // '/auth'
 * ```
 */
export const DEFAULT_ASSUMPTIONS: ResolvedAssumptions = {
  // Spec §5.2 names only the path; the body and the token's field are the usual ones.
  login: {
    path: '/auth',
    body: { clientId: 'client_id', clientSecret: 'client_secret' },
    tokenField: 'client_token',
  },
  // Spec §4.2 names the endpoint, §3 the statuses; the status is read under the envelope's `data`.
  refundStatus: {
    path: '/financial/refund/{hash}/status',
    active: ['requested', 'success'],
    terminal: ['completed', 'failed'],
  },
  // `created_at` has no zone (§2.9); the platform sells in BRL. The margin prefers "no second
  // refund" to "maybe two". An answer without `Date` gives no service clock to compare with: the
  // window then reaches back a skew bound, well past an unsynchronised clock's usual drift, at
  // the cost of taking a refund made shortly before the call (and no longer active) as its own;
  // so does a start another machine read (a queue's producer, a journal's earlier run).
  reconciliation: { marginMs: 10_000, maxClockSkewMs: 900_000, timeZone: 'America/Sao_Paulo' },
  // Spec §4.12 names the lookup only; `processing` is the one status §2.10 shows.
  exportStatus: {
    path: '/financial/account-statement/export-report/{hash}',
    failed: ['failed', 'error'],
  },
  anticipationConfirmation: { field: 'scenario' },
  // The service is read as a Laravel one (its errors are Laravel's `{ message, errors }`), and
  // Laravel trims strings, then reads an empty one as `null`.
  strings: { trim: true, blankAs: 'missing' },
};

/** Largest product page (spec §8): a documented bound, not an assumption, kept here beside them. */
export const PRODUCTS_MAX_PAGE = 999;

/** Field names and paths: letters, digits, `_`, `-`, `.` (a dot path), nothing a JSON key may hide. */
const FIELD = /^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/;

/** A check of one value: the words of what it should be, or `undefined` when it is fine. */
type Check = (value: unknown) => string | undefined;

const field: Check = (v) =>
  typeof v === 'string' && FIELD.test(v)
    ? undefined
    : 'a field name (letters, digits, _ - and . for a path)';
const loginPath: Check = (v) =>
  typeof v === 'string' && /^\/[^\s?#{}]*$/.test(v) ? undefined : 'a path starting with "/"';
const hashPath: Check = (v) =>
  typeof v === 'string' && /^\/[^\s?#]*$/.test(v) && v.split('{hash}').length === 2
    ? undefined
    : 'a path starting with "/" holding "{hash}" once';
const statuses: Check = (v) =>
  Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string' && s !== '')
    ? undefined
    : 'a non-empty array of non-empty strings';
const margin: Check = (v) =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 3_600_000
    ? undefined
    : 'a whole number of milliseconds from 0 to 3600000';
const skew: Check = (v) =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 86_400_000
    ? undefined
    : 'a whole number of milliseconds from 0 to 86400000';
const flag: Check = (v) => (typeof v === 'boolean' ? undefined : 'true or false');
const blankAs: Check = (v) =>
  v === 'missing' || v === 'empty' ? undefined : "'missing' or 'empty'";
const timeZone: Check = (v) => {
  const wanted = 'an IANA time zone such as "America/Sao_Paulo"';
  if (typeof v !== 'string' || v === '') return wanted;
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return undefined;
  } catch {
    return wanted;
  }
};

/** A check for each settable key, nested as the option is. */
interface Checks {
  readonly [key: string]: Check | Checks;
}

/** Every settable field, by group, with its check. */
const CHECKS: Checks = {
  login: { path: loginPath, body: { clientId: field, clientSecret: field }, tokenField: field },
  refundStatus: { path: hashPath, active: statuses, terminal: statuses },
  reconciliation: { marginMs: margin, maxClockSkewMs: skew, timeZone },
  exportStatus: { path: hashPath, failed: statuses },
  anticipationConfirmation: { field },
  strings: { trim: flag, blankAs },
};

/**
 * `given` over `base`, checked field by field: the words naming what is wrong (`assumptions.login.path
 * must be a path starting with "/" (got "auth")`), or the resolved assumptions. An unknown key is
 * wrong too, so a typo never silently keeps a default.
 */
export function resolveAssumptions(
  given: Assumptions | undefined,
  base: ResolvedAssumptions = DEFAULT_ASSUMPTIONS,
): ResolvedAssumptions | string {
  if (given === undefined) return base;
  const merged = mergeChecked(base, given, CHECKS, 'assumptions');
  return typeof merged === 'string' ? merged : (merged as unknown as ResolvedAssumptions);
}

/** One level of {@link resolveAssumptions}: `given` over `base`, every key checked by `checks`. */
function mergeChecked(
  base: object,
  given: unknown,
  checks: Checks,
  where: string,
): Record<string, unknown> | string {
  if (!isRecord(given)) {
    return `\`${where}\` must be an object`;
  }
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(given)) {
    const check = Object.hasOwn(checks, key) ? checks[key] : undefined;
    const at = `${where}.${key}`;
    if (check === undefined) {
      return `\`${at}\` is not an assumption (known: ${Object.keys(checks).join(', ')})`;
    }
    if (value === undefined) continue;
    if (typeof check === 'function') {
      const wanted = check(value);
      if (wanted) return `\`${at}\` must be ${wanted} (got ${shown(value)})`;
      out[key] = Array.isArray(value) ? Object.freeze([...value]) : value;
      continue;
    }
    const inner = mergeChecked((base as Record<string, object>)[key]!, value, check, at);
    if (typeof inner === 'string') return inner;
    out[key] = Object.freeze(inner);
  }
  return Object.freeze(out);
}

/** A wrong value as a message quotes it: JSON, but `NaN`, `10n` or a symbol as they are written. */
function shown(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'symbol') return String(value);
  return JSON.stringify(value) ?? String(value);
}
