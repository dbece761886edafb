/**
 * The kit's controllable clock, and the three timestamp formats of the spec, written the way the
 * service writes them. Times the mock creates are shown in the platform's zone (UTC-03:00, São
 * Paulo, no daylight saving since 2019), or, for a refund's `created_at`, in the zone the kit's
 * `assumptions.reconciliation.timeZone` names.
 *
 * @module
 */

/**
 * The latest time the kit's clock reaches: the spec's timestamps write the year in four digits,
 * and a `Date` past this one would be written in five, or not at all.
 */
const LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * The kit's time: the machine's, moved forward by `advance` (for the anticipation cache, and
 * every timestamp the kit writes), so a test sees what ten minutes later looks like at once.
 */
export class KitClock {
  #offsetMs = 0;

  /** Milliseconds since the epoch, as the kit sees them. */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /**
   * Moves the kit's time forward by `ms`: a whole number from 0 that keeps it before the year
   * 10000, else a `RangeError`, as every number the kit takes is refused.
   */
  advance(ms: number): void {
    const max = LAST_MS - this.now();
    if (!Number.isSafeInteger(ms) || ms < 0 || ms > max) {
      throw new RangeError(
        `advanceClock: ms must be a whole number from 0 to ${max} (the kit's clock stays before the year 10000), got ${String(ms)}`,
      );
    }
    this.#offsetMs += ms;
  }
}

const OFFSET_MS = -3 * 60 * 60 * 1000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function local(date: Date): Date {
  return new Date(date.getTime() + OFFSET_MS);
}

/** `date` shifted so that its UTC fields read as the wall clock of `timeZone`. */
function inZone(date: Date, timeZone: string): Date {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(date);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return new Date(
    Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')),
  );
}

/** `YYYY-MM-DD HH:mm:ss` in São Paulo time. */
export function sqlDateTime(date = new Date()): string {
  const d = local(date);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** `DD/MM/YYYY HH:mm:ss` in São Paulo time, or in `timeZone` when given. */
export function brDateTime(date = new Date(), timeZone?: string): string {
  const d = timeZone ? inZone(date, timeZone) : local(date);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** ISO 8601 with the `-03:00` offset, e.g. `2025-03-10T14:22:05-03:00`. */
export function isoWithOffset(date = new Date()): string {
  const d = local(date);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}-03:00`;
}
