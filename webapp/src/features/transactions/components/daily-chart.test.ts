import { describe, expect, it } from 'vitest';

import { reaisTicks } from './daily-chart';

describe('the chart’s amount axis', () => {
  it('ticks whole reais 1, 2 or 5 × 10ⁿ apart, from zero past the tallest bar', () => {
    expect(reaisTicks(1250)).toEqual([0, 500, 1000, 1500]);
    expect(reaisTicks(123456)).toEqual([0, 50000, 100000, 150000]);
    expect(reaisTicks(0)).toEqual([0, 100]);
    expect(reaisTicks(300)).toEqual([0, 100, 200, 300]);
  });
});
