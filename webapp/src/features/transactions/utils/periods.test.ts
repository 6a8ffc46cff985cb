import { describe, expect, it } from 'vitest';

import { addDays, presetDays, saoPauloDateTime, saoPauloDay, saoPauloInstant } from './periods';

describe('periods in São Paulo days', () => {
  it('count the day by São Paulo’s clock, not the browser’s or UTC', () => {
    // 02:30 UTC on the 2nd is 23:30 on the 1st in São Paulo.
    expect(saoPauloDay(new Date('2026-11-02T02:30:00Z'))).toBe('2026-11-01');
    expect(saoPauloDay(new Date('2026-11-02T03:00:00Z'))).toBe('2026-11-02');
  });

  it('end every preset today and start it where its name says', () => {
    const now = new Date('2026-11-02T02:30:00Z');
    expect(presetDays('hoje', now)).toEqual({ from: '2026-11-01', to: '2026-11-01' });
    expect(presetDays('7-dias', now)).toEqual({ from: '2026-10-26', to: '2026-11-01' });
    expect(presetDays('30-dias', now)).toEqual({ from: '2026-10-03', to: '2026-11-01' });
    expect(presetDays('este-mes', now)).toEqual({ from: '2026-11-01', to: '2026-11-01' });
    expect(presetDays('este-mes', new Date('2026-12-15T15:00:00Z'))).toEqual({ from: '2026-12-01', to: '2026-12-15' });
    expect(presetDays('personalizado', now)).toBeNull();
  });

  it('move across months and leap days on the calendar', () => {
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('show an instant on São Paulo’s clock', () => {
    expect(saoPauloDateTime('2026-11-03T13:00:00Z')).toBe('03/11/2026, 10:00');
  });
});

describe('a time typed for a manual payment', () => {
  it('is read on São Paulo’s clock', () => {
    expect(saoPauloInstant('2026-11-01T23:30')).toBe('2026-11-02T02:30:00.000Z');
    expect(saoPauloInstant('01/11/2026 23:30')).toBeNull();
  });
});
