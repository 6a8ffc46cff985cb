// The loading bar's timing, apart from React so it can be tested with fake timers:
// nothing shows for loads shorter than `throttleMs`; then progress creeps towards 100 % on a curve
// that reaches about 70 % after `durationMs`; when the load ends the bar fills, stays `hideDelayMs`,
// fades out, and `resetDelayMs` later goes back to 0 (after the fade, so nobody sees it shrink).

export interface LoadingBarSettings {
  durationMs: number;
  throttleMs: number;
  hideDelayMs: number;
  resetDelayMs: number;
  /** How often progress is recomputed while visible. */
  tickMs: number;
}

export const LOADING_BAR_SETTINGS: LoadingBarSettings = {
  durationMs: 2000,
  throttleMs: 200,
  hideDelayMs: 500,
  resetDelayMs: 400,
  tickMs: 100,
};

export interface LoadingBarState {
  visible: boolean;
  /** 0 to 100. */
  progress: number;
  /** The load that just ended failed (the bar finishes in the error colour). */
  error: boolean;
}

export interface BarTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface LoadingBar {
  start(): void;
  finish(options?: { error?: boolean }): void;
  /** Cancels timers and goes back to idle (it can be started again). */
  dispose(): void;
  /** For `useSyncExternalStore`; safe to pass around unbound. */
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => LoadingBarState;
}

export const IDLE: LoadingBarState = { visible: false, progress: 0, error: false };

/** Progress after `elapsedMs`: (2/π)·atan(2·elapsed/duration), so ~70.5 % at `durationMs`, never 100. */
export function estimatedProgress(elapsedMs: number, durationMs: number): number {
  return (2 / Math.PI) * Math.atan((2 * elapsedMs) / durationMs) * 100;
}

const browserTimers: BarTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof globalThis.setInterval>),
};

type Phase = 'idle' | 'waiting' | 'running' | 'finishing';

export function createLoadingBar(
  settings: LoadingBarSettings = LOADING_BAR_SETTINGS,
  timers: BarTimers = browserTimers,
  clock: { now(): number } = { now: () => Date.now() },
): LoadingBar {
  let state = IDLE;
  let phase: Phase = 'idle';
  let startedAt = 0;
  let timeout: unknown = null;
  let ticker: unknown = null;
  const listeners = new Set<() => void>();

  const set = (next: LoadingBarState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const clearAll = () => {
    if (timeout !== null) timers.clearTimeout(timeout);
    if (ticker !== null) timers.clearInterval(ticker);
    timeout = null;
    ticker = null;
  };
  const run = () => {
    phase = 'running';
    startedAt = clock.now();
    set({ visible: true, progress: 0, error: false });
    ticker = timers.setInterval(() => {
      set({ ...state, progress: estimatedProgress(clock.now() - startedAt, settings.durationMs) });
    }, settings.tickMs);
  };

  return {
    start() {
      if (phase === 'waiting' || phase === 'running') return;
      clearAll();
      // Still on screen from the previous load: carry on without a new throttle.
      if (state.visible) {
        run();
        return;
      }
      phase = 'waiting';
      if (state !== IDLE) set(IDLE);
      timeout = timers.setTimeout(() => {
        timeout = null;
        run();
      }, settings.throttleMs);
    },
    finish({ error = false } = {}) {
      if (phase === 'waiting') {
        clearAll();
        phase = 'idle';
        return;
      }
      if (phase !== 'running') return;
      clearAll();
      phase = 'finishing';
      set({ visible: true, progress: 100, error });
      timeout = timers.setTimeout(() => {
        set({ ...state, visible: false });
        timeout = timers.setTimeout(() => {
          timeout = null;
          phase = 'idle';
          set(IDLE);
        }, settings.resetDelayMs);
      }, settings.hideDelayMs);
    },
    dispose() {
      clearAll();
      phase = 'idle';
      if (state !== IDLE) set(IDLE);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => state,
  };
}
