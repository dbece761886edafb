/**
 * The service's `Retry-After`, read once for everyone who honours it: the retry loop
 * (`retry.ts`), the polling loop (`poll/`) and `RateLimitError.retryAfterMs`.
 */

/** delay-seconds (a fraction tolerated). */
const SECONDS = /^\d+(\.\d+)?$/;

/**
 * The three forms of an HTTP date that RFC 9110 has a recipient accept. Anything else is no date,
 * however much of it `Date.parse` would read (it takes `-1` or `Tomorrow 1` for days in 2001).
 */
const ZONED_DATES = [
  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
  /^[a-z]{3}, \d{1,2} [a-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/i,
  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
  /^[a-z]{6,9}, \d{2}-[a-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/i,
];
/** asctime (`Sun Nov  6 08:49:37 1994`), which names no zone: it is GMT. */
const ASCTIME = /^[a-z]{3} [a-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/i;

/**
 * An HTTP date in milliseconds since the epoch, `NaN` when `value` is none: every form RFC 9110
 * accepts names GMT, so the reading never depends on this process's time zone.
 */
export function httpDate(value: string): number {
  if (ASCTIME.test(value)) return Date.parse(`${value} GMT`);
  return ZONED_DATES.some((form) => form.test(value)) ? Date.parse(value) : Number.NaN;
}

/**
 * Reads `Retry-After` as seconds or an HTTP date, in milliseconds; `undefined` when absent or
 * unreadable. An HTTP date is read against `now`: the service's clock where its answer told it.
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (SECONDS.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = httpDate(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The wait an answer's `Retry-After` asks for, in milliseconds. An HTTP date names a moment on the
 * service's clock, so it is read against the answer's own `Date` when it has one: a machine whose
 * clock disagrees with the service's then waits what the service meant, neither failing at once
 * on a wait it takes for minutes nor retrying before the service allows.
 */
export function retryAfterOf(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const serviceNow = httpDate(headers.get('date')?.trim() ?? '');
  return parseRetryAfter(value, Number.isNaN(serviceNow) ? Date.now() : serviceNow);
}
