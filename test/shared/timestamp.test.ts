import { describe, expect, it } from 'vitest';
import { calendarDay, parseTimestamp } from '../../src/shared/timestamp';

const iso = (value: string, timeZone?: string) =>
  parseTimestamp(value, timeZone ? { timeZone } : undefined).toISOString();

describe('parseTimestamp', () => {
  describe('ISO8601 with Z or an offset', () => {
    it('reads Z', () => {
      expect(iso('2024-03-05T17:22:10Z')).toBe('2024-03-05T17:22:10.000Z');
    });

    it('reads microseconds, keeping milliseconds', () => {
      expect(iso('2024-03-05T17:22:10.123456Z')).toBe('2024-03-05T17:22:10.123Z');
      expect(iso('2024-03-05T17:22:10.9Z')).toBe('2024-03-05T17:22:10.900Z');
    });

    it('reads offsets with and without a colon', () => {
      expect(iso('2024-03-05T14:22:10-03:00')).toBe('2024-03-05T17:22:10.000Z');
      expect(iso('2024-03-05T14:22:10-0300')).toBe('2024-03-05T17:22:10.000Z');
      expect(iso('2024-03-06T02:52:10+09:30')).toBe('2024-03-05T17:22:10.000Z');
      expect(iso('2024-03-05T17:22:10.5+00:00')).toBe('2024-03-05T17:22:10.500Z');
    });

    it('ignores timeZone when the value carries an offset', () => {
      expect(iso('2024-03-05T14:22:10-03:00', 'Asia/Tokyo')).toBe('2024-03-05T17:22:10.000Z');
    });
  });

  describe('YYYY-MM-DD HH:mm:ss (no offset)', () => {
    it('reads it in America/Sao_Paulo by default', () => {
      expect(iso('2024-03-05 14:22:10')).toBe('2024-03-05T17:22:10.000Z');
    });

    it('reads it in the given time zone', () => {
      expect(iso('2024-03-05 14:22:10', 'UTC')).toBe('2024-03-05T14:22:10.000Z');
      expect(iso('2024-07-01 12:00:00', 'Europe/Lisbon')).toBe('2024-07-01T11:00:00.000Z');
      expect(iso('2024-01-01 12:00:00', 'Europe/Lisbon')).toBe('2024-01-01T12:00:00.000Z');
      expect(iso('2024-03-05 14:22:10', 'Asia/Kolkata')).toBe('2024-03-05T08:52:10.000Z');
    });

    it('follows São Paulo daylight-saving history (DST until 2019)', () => {
      // Summer time (UTC-2) in January 2018; none since 2019.
      expect(iso('2018-01-15 12:00:00')).toBe('2018-01-15T14:00:00.000Z');
      expect(iso('2018-07-15 12:00:00')).toBe('2018-07-15T15:00:00.000Z');
      expect(iso('2024-01-15 12:00:00')).toBe('2024-01-15T15:00:00.000Z');
    });

    it('moves a wall time skipped by a DST change forward by the gap', () => {
      // São Paulo skipped 2018-11-04 00:00–00:59 (clocks jumped to 01:00, UTC-2).
      expect(iso('2018-11-04 00:30:00')).toBe('2018-11-04T03:30:00.000Z');
      expect(iso('2018-11-04 01:30:00')).toBe('2018-11-04T03:30:00.000Z');
      // New York skipped 2024-03-10 02:00–02:59.
      expect(iso('2024-03-10 02:30:00', 'America/New_York')).toBe('2024-03-10T07:30:00.000Z');
    });

    it('takes the earlier instant of a wall time repeated by a DST change', () => {
      // São Paulo repeated 2018-02-17 23:00–23:59 (UTC-2, then UTC-3).
      expect(iso('2018-02-17 23:30:00')).toBe('2018-02-18T01:30:00.000Z');
      expect(iso('2024-11-03 01:30:00', 'America/New_York')).toBe('2024-11-03T05:30:00.000Z');
    });

    it('also reads the ISO form without an offset in the time zone', () => {
      expect(iso('2024-03-05T14:22:10')).toBe('2024-03-05T17:22:10.000Z');
    });
  });

  describe('DD/MM/YYYY HH:mm:ss (no offset)', () => {
    it('reads it in America/Sao_Paulo by default', () => {
      expect(iso('05/03/2024 14:22:10')).toBe('2024-03-05T17:22:10.000Z');
    });

    it('reads day before month', () => {
      expect(iso('12/01/2024 00:00:00', 'UTC')).toBe('2024-01-12T00:00:00.000Z');
    });

    it('reads it in the given time zone', () => {
      expect(iso('05/03/2024 14:22:10', 'UTC')).toBe('2024-03-05T14:22:10.000Z');
    });
  });

  describe('invalid input', () => {
    it.each([
      '',
      'yesterday',
      '2024-03-05',
      '05/03/2024',
      '2024/03/05 14:22:10',
      '2024-13-05 10:00:00',
      '2023-02-29 10:00:00',
      '31/04/2024 10:00:00',
      '2024-03-05 24:00:00',
      '2024-03-05 10:60:00',
      '2024-03-05T10:00:00+25:00',
      '2024-03-05T10:00:00 UTC',
    ])('throws a TypeError naming %o', (value) => {
      expect(() => parseTimestamp(value)).toThrow(TypeError);
      expect(() => parseTimestamp(value)).toThrow(JSON.stringify(value));
    });

    it('throws a TypeError for a value that is not a string', () => {
      expect(() => parseTimestamp(1_709_659_330 as unknown as string)).toThrow(TypeError);
      expect(() => parseTimestamp(null as unknown as string)).toThrow(/null/);
    });

    it('accepts 29 February of a leap year', () => {
      expect(iso('29/02/2024 10:00:00', 'UTC')).toBe('2024-02-29T10:00:00.000Z');
    });

    it('throws a RangeError for an unknown time zone', () => {
      expect(() => parseTimestamp('2024-03-05 14:22:10', { timeZone: 'Mars/Olympus' })).toThrow(
        RangeError,
      );
    });
  });
});

describe('calendarDay', () => {
  it('gives the day an instant falls on in the zone', () => {
    expect(calendarDay(new Date('2024-05-01T02:00:00Z'))).toEqual([2024, 4, 30]);
    expect(calendarDay(new Date('2024-05-01T02:00:00Z'), 'UTC')).toEqual([2024, 5, 1]);
  });
});
