/**
 * The exported helpers called wrongly from plain JavaScript: `null` options read as none, and
 * params that are no object give no suspicion, instead of a `TypeError` from inside.
 */

import { parseTimestamp, profileSuspicions, toBetweenDates } from 'partner-sdk';
import { describe, expect, it } from 'vitest';

describe('helpers from plain JavaScript', () => {
  it('parseTimestamp and toBetweenDates read null options as none', () => {
    expect(parseTimestamp('2026-01-01 12:00:00', null as never)).toEqual(
      parseTimestamp('2026-01-01 12:00:00'),
    );
    expect(toBetweenDates({ start: '2026-01-01', end: '2026-01-31' }, null as never)).toBe(
      '01/01/2026,31/01/2026',
    );
  });

  it.each([undefined, null, 5, 'cpf'])('profileSuspicions(%o) suspects nothing', (params) => {
    expect(profileSuspicions(params as never)).toEqual([]);
  });
});
