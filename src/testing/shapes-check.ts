/**
 * The checks of the kit's `assumptions` and `assumedRules` seed options: a switch the kit cannot
 * follow throws a `TypeError` naming it when the kit is created, as the client's own option does,
 * so a typo or a wrong type never shows up later as a malformed answer that looks like the SDK's
 * fault.
 *
 * @module
 */

/** A check of one value: the words of what it should be, or `undefined` when it is fine. */
type Check = (value: unknown) => string | undefined;

/** A check for each switch, nested as the option is. */
interface Checks {
  readonly [key: string]: Check | Checks;
}

const FIELD = /^[^.\s]+(\.[^.\s]+)*$/;
const field: Check = (v) =>
  typeof v === 'string' && FIELD.test(v) ? undefined : 'a field name or a dot path';
const path =
  (withHash: boolean): Check =>
  (v) =>
    typeof v === 'string' && v.startsWith('/') && (!withHash || v.split('{hash}').length === 2)
      ? undefined
      : `a path starting with "/"${withHash ? ' holding {hash} once' : ''}`;
const statuses =
  (least: number): Check =>
  (v) =>
    Array.isArray(v) && v.length >= least && v.every((s) => typeof s === 'string' && s !== '')
      ? undefined
      : `a list of at least ${least} non-empty status${least > 1 ? 'es' : ''}`;
const statusOrList: Check = (v) => (typeof v === 'string' && v !== '' ? undefined : statuses(1)(v));
const flag: Check = (v) => (typeof v === 'boolean' ? undefined : 'true or false');
const ms: Check = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : 'a number of milliseconds';
const blankAs: Check = (v) =>
  v === 'missing' || v === 'empty' ? undefined : "'missing' or 'empty'";
const zone: Check = (v) => {
  const wanted = 'an IANA time zone such as "America/Sao_Paulo"';
  if (typeof v !== 'string' || v === '') return wanted;
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return undefined;
  } catch {
    return wanted;
  }
};

/** The switches of `assumptions`: the client's option's names and forms, as its guide promises. */
const ASSUMPTIONS: Checks = {
  login: { path: path(false), body: { clientId: field, clientSecret: field }, tokenField: field },
  refundStatus: { path: path(true), active: statuses(1), terminal: statuses(2) },
  // The margin and the clock skew are the client's own: accepted, so one object sets both.
  reconciliation: { timeZone: zone, marginMs: ms, maxClockSkewMs: ms },
  exportStatus: { path: path(true), failed: statusOrList },
  anticipationConfirmation: { field },
  strings: { trim: flag, blankAs },
};

const ASSUMED_RULES: Checks = {
  birthBeforeToday: flag,
  avatarIsImage: flag,
  bankAccountUpdateResetsStatus: flag,
  exportRangeInOrder: flag,
};

/** Throws a `TypeError` naming the first switch of `given` that `checks` refuses. */
function checkSwitches(given: unknown, checks: Checks, where: string): void {
  if (given === undefined) return;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw new TypeError(`${where}: expected an object, got ${JSON.stringify(given)}`);
  }
  for (const [key, value] of Object.entries(given)) {
    const at = `${where}.${key}`;
    // Only the table's own keys: `__proto__` or `toString` is no switch.
    const check = Object.hasOwn(checks, key) ? checks[key] : undefined;
    if (check === undefined) {
      throw new TypeError(
        `${at}: not a switch of the kit (known: ${Object.keys(checks).join(', ')})`,
      );
    }
    if (value === undefined) continue;
    if (typeof check !== 'function') {
      checkSwitches(value, check, at);
      continue;
    }
    const wanted = check(value);
    if (wanted) throw new TypeError(`${at}: expected ${wanted}, got ${JSON.stringify(value)}`);
  }
}

/** Checks the seed's `assumptions` and `assumedRules`; throws a `TypeError` naming a bad switch. */
export function checkKitSwitches(assumptions: unknown, assumedRules: unknown): void {
  checkSwitches(assumptions, ASSUMPTIONS, 'assumptions');
  checkSwitches(assumedRules, ASSUMED_RULES, 'assumedRules');
}
