import { vi } from 'vitest';

/** 2 Nov 2026, 12:00 UTC: where every fake-clock test starts. */
export const T0 = Date.UTC(2026, 10, 2, 12, 0, 0);

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;

/**
 * Fakes timers and Date (not microtasks), starting at T0. Requests through MSW still resolve
 * because promises run normally; `await vi.advanceTimersByTimeAsync(ms)` moves time.
 */
export function useFakeClock(): void {
  vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
}

/** Seconds since T0. */
export const elapsedSeconds = (at: number) => (at - T0) / SECOND;
