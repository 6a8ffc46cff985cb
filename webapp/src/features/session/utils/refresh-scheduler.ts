// When to refresh the access token, with the clock and the timers injected so tests can drive them.
// It knows nothing about Redux or HTTP: `refresh` does the call, the callbacks report what happened.

import { refreshDelayMs, retryDelayMs } from './refresh-policy';

export type RefreshOutcome =
  | { kind: 'refreshed'; accessToken: string; expiresIn: number }
  /** No answer (offline, timeout) or a transient server error; `retryAfterSeconds` if it said so. */
  | { kind: 'unreachable'; retryAfterSeconds: number | null }
  /** The server refused the refresh cookie: the session is over. */
  | { kind: 'refused'; reason: 'session-expired' | 'account-disabled' };

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface Clock {
  now(): number;
}

export interface RefreshSchedulerOptions {
  refresh: () => Promise<RefreshOutcome>;
  onRefreshed: (token: { accessToken: string; expiresIn: number }) => void;
  onRetryScheduled: (retry: { at: number; failures: number }) => void;
  onRefused: (reason: 'session-expired' | 'account-disabled') => void;
  timers?: Timers;
  clock?: Clock;
}

export interface RefreshScheduler {
  /** A token arrived (sign-in or refresh): plan its refresh from its lifetime. */
  tokenReceived(expiresInSeconds: number): void;
  /** Refresh at once (restoring on load, a rejected token); joins a refresh already running. */
  refreshNow(): Promise<RefreshOutcome>;
  /** The page is in the foreground again: refresh now if the planned time passed while timers slept. */
  resume(): void;
  /** Cancel everything; an answer still on its way is ignored. */
  stop(): void;
  /** When the next refresh is planned (epoch ms), or null. */
  readonly dueAt: number | null;
}

const browserTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

export function createRefreshScheduler(options: RefreshSchedulerOptions): RefreshScheduler {
  const timers = options.timers ?? browserTimers;
  const clock = options.clock ?? { now: () => Date.now() };
  let timer: unknown = null;
  let dueAt: number | null = null;
  let failures = 0;
  let inFlight: Promise<RefreshOutcome> | null = null;
  // Bumped by stop(): an answer that belongs to an older generation is dropped, so signing out while
  // a refresh is on the wire cannot sign the user back in.
  let generation = 0;

  const cancelTimer = () => {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    dueAt = null;
  };

  const planIn = (ms: number) => {
    cancelTimer();
    dueAt = clock.now() + ms;
    timer = timers.setTimeout(() => {
      timer = null;
      void refreshNow();
    }, ms);
  };

  const settle = (outcome: RefreshOutcome) => {
    switch (outcome.kind) {
      case 'refreshed':
        failures = 0;
        planIn(refreshDelayMs(outcome.expiresIn));
        options.onRefreshed({ accessToken: outcome.accessToken, expiresIn: outcome.expiresIn });
        return;
      case 'unreachable': {
        failures += 1;
        const askedMs = (outcome.retryAfterSeconds ?? 0) * 1000;
        planIn(Math.max(retryDelayMs(failures), askedMs));
        options.onRetryScheduled({ at: dueAt ?? clock.now(), failures });
        return;
      }
      case 'refused':
        cancelTimer();
        failures = 0;
        options.onRefused(outcome.reason);
        return;
    }
  };

  function refreshNow(): Promise<RefreshOutcome> {
    if (inFlight !== null) return inFlight;
    cancelTimer();
    const started = generation;
    const settleIfCurrent = (outcome: RefreshOutcome) => {
      if (started === generation) settle(outcome);
      return outcome;
    };
    const unreachable: RefreshOutcome = { kind: 'unreachable', retryAfterSeconds: null };
    const running = options
      .refresh()
      .catch(() => unreachable)
      .then(settleIfCurrent);
    inFlight = running;
    const release = () => {
      if (inFlight === running) inFlight = null;
    };
    running.then(release, release);
    return running;
  }

  return {
    tokenReceived(expiresInSeconds) {
      failures = 0;
      planIn(refreshDelayMs(expiresInSeconds));
    },
    refreshNow,
    resume() {
      if (dueAt !== null && clock.now() >= dueAt) void refreshNow();
    },
    stop() {
      generation += 1;
      cancelTimer();
      failures = 0;
      inFlight = null;
    },
    get dueAt() {
      return dueAt;
    },
  };
}
