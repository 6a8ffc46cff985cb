import { describe, expect, it } from 'vitest';

import { refreshDelayMs, retryDelayMs } from './refresh-policy';

describe('refreshDelayMs', () => {
  it('refreshes a 3600-second token after 3300 seconds, five minutes before it expires', () => {
    expect(refreshDelayMs(3600)).toBe(3_300_000);
  });

  it('refreshes a token shorter than ten minutes halfway through its life', () => {
    expect(refreshDelayMs(480)).toBe(240_000);
    expect(refreshDelayMs(60)).toBe(30_000);
  });
});

describe('retryDelayMs', () => {
  it('waits 30 s after the first failure and doubles up to a 960-second cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((failures) => retryDelayMs(failures) / 1000)).toEqual([
      30, 60, 120, 240, 480, 960, 960, 960, 960,
    ]);
  });
});
