/**
 * How PHP and Laravel read a value, for the kit's validator: an integer (`FILTER_VALIDATE_INT`,
 * 64-bit), a numeric text, a boolean, a length in characters, a URL, a date, and "today" in the
 * platform's zone.
 *
 * @module
 */

/** PHP's `FILTER_VALIDATE_INT`, which Laravel's `integer` uses: a sign, no leading zeros. */
const INTEGER_TEXT = /^[+-]?(0|[1-9]\d*)$/;
/** PHP's integers are 64-bit: past that, a number is a float and text is not an integer. */
const PHP_INT_MAX = 2n ** 63n - 1n;
const NUMERIC_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

export function isInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 63;
  if (typeof value !== 'string' || !INTEGER_TEXT.test(value)) return false;
  const n = BigInt(value);
  return n <= PHP_INT_MAX && n >= -PHP_INT_MAX - 1n;
}

export function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && NUMERIC_TEXT.test(value);
}

export const BOOLEANS = new Set<unknown>([true, false, 1, 0, '1', '0']);

/** PHP's `mb_strlen`: code points. */
export function charCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/**
 * What Laravel's `Str::trim` (its `TrimStrings` middleware) removes at either end of a string:
 * `preg_replace('~^[\s\x{FEFF}\x{200B}\x{200E} \n\r\t\v\0]+|…+$~u', '', $value)`. Under PHP's
 * `/u` PCRE reads `\s` by Unicode properties: a separator (`\p{Z}`), a horizontal space (`\h`,
 * with U+180E) or a vertical one (`\v`, with U+0085). Written from those definitions, never taken
 * from the SDK's trimming, so a character either side forgets makes the two disagree in a test.
 */
const PHP_TRIMMED =
  /[\p{Z}\t\n\v\f\r \u0085\u00A0\u1680\u180E\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF\u200B\u200E\0]/u;

/**
 * `value` as `Str::trim` leaves it. Each end is scanned one character at a time: every trimmed
 * character is a single UTF-16 unit, and a scan stays linear where the pattern's `…+$` would
 * retry every inner run of spaces.
 */
export function laravelTrim(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && PHP_TRIMMED.test(value.charAt(start))) start++;
  while (end > start && PHP_TRIMMED.test(value.charAt(end - 1))) end--;
  return value.slice(start, end);
}

/**
 * Laravel's `url`: a scheme, `://` and a host (`javascript:…` and `mailto:…` are refused), no
 * whitespace.
 */
export function isUrl(value: unknown): boolean {
  if (typeof value !== 'string' || /\s/.test(value)) return false;
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(value) || !URL.canParse(value)) return false;
  return new URL(value).hostname !== '';
}

/** The platform's zone (UTC-03:00, no daylight saving since 2019), where "today" is decided. */
const PLATFORM_OFFSET_MS = -3 * 60 * 60 * 1000;

/** Today in the platform's zone, as `YYYY-MM-DD`. */
export function today(now = Date.now()): string {
  return new Date(now + PLATFORM_OFFSET_MS).toISOString().slice(0, 10);
}

const DATE_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The calendar day of a date the service reads (`YYYY-MM-DD`, optionally with a time), as
 * `YYYY-MM-DD`, or `undefined` when it is not a real day. PHP's `strtotime` reads more forms;
 * the kit keeps to the ISO ones the spec's examples use.
 */
export function readDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = DATE_TEXT.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(2000, month - 1, day));
  check.setUTCFullYear(year);
  const real =
    check.getUTCFullYear() === year &&
    check.getUTCMonth() === month - 1 &&
    check.getUTCDate() === day;
  return real ? value.slice(0, 10) : undefined;
}
