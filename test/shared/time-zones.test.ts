/**
 * The dates the SDK reads and sends name the same instants and days whatever the process's zone:
 * each zone a partner's server may run in is a child process (`TZ`), reading and sending through
 * the public API against a stub service of its own.
 */

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runToExit } from '../helpers/children';

const fixture = fileURLToPath(new URL('./time-zones.child.ts', import.meta.url));

interface Seen {
  zone: string;
  locale: string;
  offsetMinutes: number;
  parsed: string[];
  exports: string[];
  found: Record<string, string | null>;
}

// A zone Node does not know runs the process in UTC, as a container without zone data does.
const ZONES = [
  ['UTC', 0],
  ['America/Sao_Paulo', 180],
  ['Europe/Lisbon', 0],
  ['Asia/Kolkata', -330],
  ['Pacific/Chatham', -825],
  ['Nowhere/Unknown', 0],
] as const;

describe('dates in any process time zone', () => {
  it.each(ZONES)('with TZ=%s, reads and sends the same instants and days', async (tz, offset) => {
    const { printed, exitCode } = await runToExit<Seen>(fixture, { TZ: tz }, 30_000);
    expect(exitCode).toBe(0);
    // The process really ran in that zone (São Paulo midnight, 27 November 2026).
    expect(printed.offsetMinutes).toBe(offset);
    expect(printed.parsed).toEqual([
      '2024-03-01T02:59:59.000Z',
      '2025-01-01T03:00:00.000Z',
      '2025-01-01T02:59:59.000Z',
      '2024-02-29T03:00:00.000Z',
      '2025-05-01T00:30:00.000Z',
      '2018-02-18T01:30:00.000Z',
      '2018-11-04T03:30:00.000Z',
      '2018-01-15T14:00:00.000Z',
      '2025-02-10T13:05:41.482Z',
      '2025-02-21T02:15:00.000Z',
    ]);
    // A Date names the day it falls on in São Paulo: 23:30 UTC the same day, midnight UTC the one before.
    expect(printed.exports).toEqual(['31/01/2025,28/02/2025', '28/02/2024,29/02/2024']);
    // The lost request's refund, made just after a São Paulo midnight, is found with the service's
    // clock 5 minutes behind, right, or 5 minutes ahead, and with a Date header that names no zone.
    expect(printed.found).toEqual({
      '-300000': 'lost',
      '0': 'lost',
      '300000': 'lost',
      zoneless: 'lost',
    });
  });
});

describe('dates in any process locale', () => {
  // A locale with other digits and separators (Arabic-Indic digits, a comma for the decimal
  // point): nothing on the wire or read back goes through the machine's locale.
  it.each([
    ['ar_EG.UTF-8', 'ar-EG'],
    ['pt_BR.UTF-8', 'pt-BR'],
  ])('with LANG=%s, reads and sends what the default locale does', async (lang, locale) => {
    const reference = await runToExit<Seen>(fixture, { TZ: 'America/Sao_Paulo' }, 30_000);
    const localised = await runToExit<Seen>(
      fixture,
      { TZ: 'America/Sao_Paulo', LANG: lang, LC_ALL: lang },
      30_000,
    );
    expect(localised.exitCode).toBe(0);
    // The process really ran in that locale.
    expect(localised.printed.locale).toBe(locale);
    const { locale: _, ...seen } = localised.printed;
    const { locale: __, ...expected } = reference.printed;
    expect(seen).toEqual(expected);
  });
});
