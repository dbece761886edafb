/**
 * The service's `Retry-After`, read once for everyone who honours it: the retry loop
 * (`retry.ts`), the polling loop (`poll.ts`) and `RateLimitError.retryAfterMs`.
 */

/** Reads `Retry-After` as seconds or an HTTP date, in milliseconds; `undefined` when absent or unreadable. */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
