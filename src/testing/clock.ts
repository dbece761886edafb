/**
 * The three timestamp formats of the spec, written the way the service writes them. Times the mock
 * creates are shown in the platform's zone (UTC-03:00, São Paulo, no daylight saving since 2019).
 *
 * @module
 */

const OFFSET_MS = -3 * 60 * 60 * 1000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function local(date: Date): Date {
  return new Date(date.getTime() + OFFSET_MS);
}

/** `YYYY-MM-DD HH:mm:ss` in São Paulo time. */
export function sqlDateTime(date = new Date()): string {
  const d = local(date);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** `DD/MM/YYYY HH:mm:ss` in São Paulo time. */
export function brDateTime(date = new Date()): string {
  const d = local(date);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** ISO 8601 with the `-03:00` offset, e.g. `2025-03-10T14:22:05-03:00`. */
export function isoWithOffset(date = new Date()): string {
  const d = local(date);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}-03:00`;
}

/** ISO 8601 in UTC with microseconds, e.g. `2025-03-10T17:22:05.123000Z`. */
export function isoMicros(date = new Date()): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
