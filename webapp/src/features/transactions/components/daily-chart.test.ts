import { describe, expect, it } from 'vitest';

import { axisReais, axisWidth, reaisTicks } from './daily-chart';

describe('the chart’s amount axis', () => {
  it('ticks whole reais 1, 2 or 5 × 10ⁿ apart, from zero past the tallest bar', () => {
    expect(reaisTicks(1250)).toEqual([0, 500, 1000, 1500]);
    expect(reaisTicks(123456)).toEqual([0, 50000, 100000, 150000]);
    expect(reaisTicks(0)).toEqual([0, 100]);
    expect(reaisTicks(300)).toEqual([0, 100, 200, 300]);
  });

  it('labels a tick as one unbreakable word, on an axis wide enough for the longest', () => {
    expect(axisReais(120000)).toBe('R$\u00a01.200');
    expect(axisReais(0)).toBe('R$\u00a00');
    // "R$ 150.000" is 10 characters: about 75 px at 12 px, and a margin.
    expect(axisWidth([0, 5000000, 10000000, 15000000])).toBeGreaterThanOrEqual(80);
    expect(axisWidth([0, 500])).toBeLessThan(axisWidth([0, 5000000]));
  });
});
