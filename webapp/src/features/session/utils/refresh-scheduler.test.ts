import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { HOUR, SECOND, T0, elapsedSeconds, useFakeClock } from '@/testing/fake-clock';

import { type RefreshOutcome, type RefreshSchedulerOptions, createRefreshScheduler } from './refresh-scheduler';

const REFRESHED: RefreshOutcome = { kind: 'refreshed', accessToken: 'novo', expiresIn: 3600 };
const OFFLINE: RefreshOutcome = { kind: 'unreachable', retryAfterSeconds: null };

/** A scheduler whose refresh answers with `outcomes` in turn (the last one repeats). */
function schedulerAnswering(outcomes: RefreshOutcome[], overrides: Partial<RefreshSchedulerOptions> = {}) {
  const calls: number[] = [];
  const refresh = vi.fn(() => {
    calls.push(Date.now());
    const outcome = outcomes[Math.min(calls.length - 1, outcomes.length - 1)];
    if (outcome === undefined) throw new Error('sem respostas');
    return Promise.resolve(outcome);
  });
  const callbacks = { onRefreshed: vi.fn(), onRetryScheduled: vi.fn(), onRefused: vi.fn() };
  const scheduler = createRefreshScheduler({
    refresh,
    ...callbacks,
    // The injected clock and timers: vitest's fakes stand in for the browser's.
    timers: {
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as number),
    },
    clock: { now: () => Date.now() },
    ...overrides,
  });
  return { scheduler, refresh, calls, ...callbacks };
}

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

describe('createRefreshScheduler', () => {
  it('refreshes a 3600-second token at 3300 s and not a millisecond earlier', async () => {
    const { scheduler, refresh } = schedulerAnswering([REFRESHED]);
    scheduler.tokenReceived(3600);
    expect(scheduler.dueAt).toBe(T0 + 3300 * SECOND);

    await vi.advanceTimersByTimeAsync(3300 * SECOND - 1);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('plans the next refresh from the new token once a refresh succeeds', async () => {
    const { scheduler, calls, onRefreshed } = schedulerAnswering([REFRESHED]);
    scheduler.tokenReceived(3600);
    await vi.advanceTimersByTimeAsync(2 * 3300 * SECOND);
    expect(calls.map(elapsedSeconds)).toEqual([3300, 6600]);
    expect(onRefreshed).toHaveBeenCalledWith({ accessToken: 'novo', expiresIn: 3600 });
  });

  it('retries a refresh that found no network after 30 s, 60 s, 120 s … capped at 960 s', async () => {
    const { scheduler, calls, onRetryScheduled } = schedulerAnswering([OFFLINE]);
    scheduler.tokenReceived(3600);
    await vi.advanceTimersByTimeAsync(3300 * SECOND + (30 + 60 + 120 + 240 + 480 + 960 + 960) * SECOND);

    const gaps = calls.slice(1).map((at, index) => (at - (calls[index] ?? 0)) / SECOND);
    expect(elapsedSeconds(calls[0] ?? 0)).toBe(3300);
    expect(gaps).toEqual([30, 60, 120, 240, 480, 960, 960]);
    expect(onRetryScheduled).toHaveBeenLastCalledWith({ at: Date.now() + 960 * SECOND, failures: 8 });
  });

  it('starts the backoff again from 30 s after the network came back', async () => {
    const { scheduler, calls } = schedulerAnswering([OFFLINE, OFFLINE, REFRESHED, OFFLINE]);
    scheduler.tokenReceived(3600);
    await vi.advanceTimersByTimeAsync((3300 + 30 + 60 + 3300 + 30) * SECOND);
    expect(calls.map(elapsedSeconds)).toEqual([3300, 3330, 3390, 6690, 6720]);
  });

  it('waits as long as the server asked when Retry-After is longer than the backoff', async () => {
    const { scheduler, calls } = schedulerAnswering([{ kind: 'unreachable', retryAfterSeconds: 300 }, REFRESHED]);
    void scheduler.refreshNow();
    await vi.advanceTimersByTimeAsync(300 * SECOND);
    expect(calls.map(elapsedSeconds)).toEqual([0, 300]);
  });

  it('treats a refresh that throws like one that found no network', async () => {
    const { scheduler, calls } = schedulerAnswering([REFRESHED], {
      refresh: () => {
        calls.push(Date.now());
        return Promise.reject(new Error('falhou'));
      },
    });
    void scheduler.refreshNow();
    await vi.advanceTimersByTimeAsync(30 * SECOND);
    expect(calls.map(elapsedSeconds)).toEqual([0, 30]);
  });

  it('signs out and stops refreshing when the account is disabled', async () => {
    const { scheduler, refresh, onRefused } = schedulerAnswering([{ kind: 'refused', reason: 'account-disabled' }]);
    scheduler.tokenReceived(3600);
    await vi.advanceTimersByTimeAsync(24 * HOUR);
    expect(onRefused).toHaveBeenCalledWith('account-disabled');
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(scheduler.dueAt).toBeNull();
  });

  it('signs out when the server refuses the refresh cookie', async () => {
    const { scheduler, onRefused } = schedulerAnswering([{ kind: 'refused', reason: 'session-expired' }]);
    await scheduler.refreshNow();
    expect(onRefused).toHaveBeenCalledWith('session-expired');
  });

  it('joins a refresh already on the wire instead of sending a second one', async () => {
    const { scheduler, refresh } = schedulerAnswering([REFRESHED]);
    const first = scheduler.refreshNow();
    const second = scheduler.refreshNow();
    expect(second).toBe(first);
    await first;
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('ignores an answer that arrives after it was stopped, so signing out sticks', async () => {
    let answer: (outcome: RefreshOutcome) => void = () => undefined;
    const { scheduler, onRefreshed } = schedulerAnswering([], {
      refresh: () =>
        new Promise<RefreshOutcome>((resolve) => {
          answer = resolve;
        }),
    });
    const pending = scheduler.refreshNow();
    scheduler.stop();
    answer(REFRESHED);
    await pending;
    expect(onRefreshed).not.toHaveBeenCalled();
    expect(scheduler.dueAt).toBeNull();
  });

  it('refreshes at once when the page comes back after the planned time passed while timers slept', async () => {
    const { scheduler, refresh } = schedulerAnswering([REFRESHED]);
    scheduler.tokenReceived(3600);
    scheduler.resume();
    expect(refresh).not.toHaveBeenCalled();

    // A phone in a pocket: the clock moves on, the timer does not fire.
    vi.setSystemTime(T0 + 3400 * SECOND);
    scheduler.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});
