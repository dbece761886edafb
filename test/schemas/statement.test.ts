import { describe, expect, it } from 'vitest';
import { StatementExportParamsSchema, toBetweenDates } from '../../src/schemas';
import { expectValid, issuePaths } from './helpers';

const exportWith = (betweenDates: unknown) => ({ format: 'csv', filter: { betweenDates } });

describe('filter.betweenDates (spec §4.4)', () => {
  it('accepts the wire string and the { start, end } form', () => {
    expectValid(StatementExportParamsSchema, exportWith('01/01/2024,31/01/2024'));
    expectValid(
      StatementExportParamsSchema,
      exportWith({ start: '2024-01-01', end: '2024-01-31' }),
    );
    expectValid(
      StatementExportParamsSchema,
      exportWith({ start: new Date('2024-01-01T12:00:00Z'), end: '2024-01-31' }),
    );
  });

  it('accepts a one-day range (start = end)', () => {
    expectValid(
      StatementExportParamsSchema,
      exportWith({ start: '2024-01-31', end: '2024-01-31' }),
    );
  });

  it.each([
    ['a malformed day', { start: '2024-1-01', end: '2024-01-31' }],
    ['an impossible day', { start: '2024-02-30', end: '2024-03-31' }],
    ['an invalid Date', { start: new Date('nope'), end: '2024-01-31' }],
    ['a missing end', { start: '2024-01-01' }],
  ])('refuses %s, naming the field', (_name, value) => {
    const paths = issuePaths(StatementExportParamsSchema, exportWith(value));
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/^filter\.betweenDates/);
  });

  it('accepts an open format (the full list is not shown)', () => {
    expectValid(StatementExportParamsSchema, { format: 'xlsx' });
  });
});

describe('toBetweenDates', () => {
  it('passes the wire string through', () => {
    expect(toBetweenDates('01/01/2024,31/01/2024')).toBe('01/01/2024,31/01/2024');
  });

  it('formats YYYY-MM-DD strings as DD/MM/YYYY', () => {
    expect(toBetweenDates({ start: '2024-01-01', end: '2024-12-31' })).toBe(
      '01/01/2024,31/12/2024',
    );
  });

  it('formats a Date as its day in America/Sao_Paulo by default', () => {
    const start = new Date('2024-03-01T02:00:00Z'); // 29 Feb 23:00 in São Paulo
    const end = new Date('2024-03-31T15:00:00Z');
    expect(toBetweenDates({ start, end })).toBe('29/02/2024,31/03/2024');
    expect(toBetweenDates({ start, end }, { timeZone: 'UTC' })).toBe('01/03/2024,31/03/2024');
  });

  it('mixes Dates and strings', () => {
    expect(toBetweenDates({ start: '2024-01-05', end: new Date('2024-01-20T12:00:00Z') })).toBe(
      '05/01/2024,20/01/2024',
    );
  });

  it('keeps an end before the start (the spec does not forbid it) and throws for unreadable values', () => {
    expect(toBetweenDates({ start: '2024-02-01', end: '2024-01-01' })).toBe(
      '01/02/2024,01/01/2024',
    );
    expect(() => toBetweenDates({ start: '2024-02-30', end: '2024-03-01' })).toThrow(TypeError);
    expect(() => toBetweenDates('2024-01-01,2024-01-31')).toThrow(TypeError);
  });
});
