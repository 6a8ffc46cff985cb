import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { useFakeClock } from '@/testing/fake-clock';

import { IDLE, LOADING_BAR_SETTINGS, createLoadingBar, estimatedProgress } from './loading-bar-controller';

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

describe('the loading bar settings', () => {
  it('are 2000 ms duration, 200 ms throttle, 500 ms hide delay and 400 ms reset delay', () => {
    expect(LOADING_BAR_SETTINGS).toMatchObject({
      durationMs: 2000,
      throttleMs: 200,
      hideDelayMs: 500,
      resetDelayMs: 400,
    });
  });
});

describe('createLoadingBar', () => {
  it('shows nothing for a load shorter than 200 ms', () => {
    const bar = createLoadingBar();
    const changes = vi.fn();
    bar.subscribe(changes);
    bar.start();
    vi.advanceTimersByTime(199);
    bar.finish();
    vi.advanceTimersByTime(5000);
    expect(changes).not.toHaveBeenCalled();
    expect(bar.getSnapshot()).toBe(IDLE);
  });

  it('appears 200 ms after a load starts, empty', () => {
    const bar = createLoadingBar();
    bar.start();
    vi.advanceTimersByTime(199);
    expect(bar.getSnapshot().visible).toBe(false);
    vi.advanceTimersByTime(1);
    expect(bar.getSnapshot()).toEqual({ visible: true, progress: 0, error: false });
  });

  it('creeps forward and reaches about 70 % after 2000 ms without ever filling', () => {
    const bar = createLoadingBar();
    bar.start();
    vi.advanceTimersByTime(200 + 1000);
    const atOneSecond = bar.getSnapshot().progress;
    vi.advanceTimersByTime(1000);
    expect(atOneSecond).toBeCloseTo(50, 5);
    expect(bar.getSnapshot().progress).toBeCloseTo(estimatedProgress(2000, 2000), 5);
    expect(bar.getSnapshot().progress).toBeCloseTo(70.48, 2);
    vi.advanceTimersByTime(60_000);
    expect(bar.getSnapshot().progress).toBeLessThan(100);
  });

  it('fills when the load ends, hides 500 ms later and resets 400 ms after that', () => {
    const bar = createLoadingBar();
    bar.start();
    vi.advanceTimersByTime(700);
    bar.finish();
    expect(bar.getSnapshot()).toEqual({ visible: true, progress: 100, error: false });
    vi.advanceTimersByTime(499);
    expect(bar.getSnapshot().visible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(bar.getSnapshot()).toEqual({ visible: false, progress: 100, error: false });
    vi.advanceTimersByTime(399);
    expect(bar.getSnapshot().progress).toBe(100);
    vi.advanceTimersByTime(1);
    expect(bar.getSnapshot()).toEqual(IDLE);
  });

  it('finishes in the error colour when the load failed, then hides the same way', () => {
    const bar = createLoadingBar();
    bar.start();
    vi.advanceTimersByTime(300);
    bar.finish({ error: true });
    expect(bar.getSnapshot()).toEqual({ visible: true, progress: 100, error: true });
    vi.advanceTimersByTime(500);
    expect(bar.getSnapshot().visible).toBe(false);
    vi.advanceTimersByTime(400);
    expect(bar.getSnapshot()).toEqual(IDLE);
  });

  it('starts over at once, without a new throttle, when a load begins while the bar is still showing', () => {
    const bar = createLoadingBar();
    bar.start();
    vi.advanceTimersByTime(300);
    bar.finish();
    vi.advanceTimersByTime(100);
    bar.start();
    expect(bar.getSnapshot()).toEqual({ visible: true, progress: 0, error: false });
    vi.advanceTimersByTime(2000);
    expect(bar.getSnapshot().visible).toBe(true);
  });

  it('ignores a second start while loading and a finish while idle', () => {
    const bar = createLoadingBar();
    bar.finish();
    bar.start();
    vi.advanceTimersByTime(150);
    bar.start();
    vi.advanceTimersByTime(50);
    expect(bar.getSnapshot().visible).toBe(true);
  });
});
