// When to ask the server for its latest build: every hour, and when the page regains focus if the
// last check is an hour old or more (phones freeze timers in background tabs).

export const VERSION_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export interface PollerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface VersionPoller {
  start(): void;
  /** The page is in the foreground again. */
  focused(): void;
  stop(): void;
}

const browserTimers: PollerTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

export function createVersionPoller(
  check: () => void,
  intervalMs: number = VERSION_CHECK_INTERVAL_MS,
  timers: PollerTimers = browserTimers,
  clock: { now(): number } = { now: () => Date.now() },
): VersionPoller {
  let timer: unknown = null;
  // The page was loaded from the latest build a moment ago: that counts as a check.
  let lastCheckAt = clock.now();

  const cancel = () => {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  };
  const schedule = () => {
    // Always cancel first: a check triggered by focus must not leave the previous hourly timer behind.
    cancel();
    timer = timers.setTimeout(checkNow, intervalMs);
  };
  function checkNow() {
    lastCheckAt = clock.now();
    check();
    schedule();
  }

  return {
    start() {
      lastCheckAt = clock.now();
      schedule();
    },
    focused() {
      if (timer !== null && clock.now() - lastCheckAt >= intervalMs) checkNow();
    },
    stop: cancel,
  };
}
