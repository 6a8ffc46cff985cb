import { afterEach, describe, expect, it, vi } from 'vitest';

import { REFRESH_LOCK_NAME, withRefreshLock } from './refresh-lock';

/** A minimal LockManager: one exclusive lock per name, granted in request order. */
function fakeLocks() {
  const queues = new Map<string, Promise<unknown>>();
  const requested: string[] = [];
  return {
    requested,
    request(name: string, _options: unknown, callback: () => Promise<unknown>) {
      requested.push(name);
      const previous = queues.get(name) ?? Promise.resolve();
      const run = previous.then(() => callback());
      queues.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('withRefreshLock', () => {
  it('lets a second tab refresh only after the first one finished', async () => {
    const locks = fakeLocks();
    // Only `navigator.locks` is read by the code under test.
    vi.stubGlobal('navigator', { locks });
    const events: string[] = [];
    let finishFirst: () => void = () => undefined;
    const first = withRefreshLock(async () => {
      events.push('first starts');
      await new Promise<void>((resolve) => {
        finishFirst = resolve;
      });
      events.push('first ends');
      return 'a';
    });
    const second = withRefreshLock(() => {
      events.push('second starts');
      return Promise.resolve('b');
    });

    await Promise.resolve();
    await Promise.resolve();
    expect(events).toEqual(['first starts']);
    finishFirst();
    expect(await first).toBe('a');
    expect(await second).toBe('b');
    expect(events).toEqual(['first starts', 'first ends', 'second starts']);
    expect(locks.requested).toEqual([REFRESH_LOCK_NAME, REFRESH_LOCK_NAME]);
  });

  it('runs the refresh directly where the browser has no Web Locks', async () => {
    vi.stubGlobal('navigator', {});
    await expect(withRefreshLock(() => Promise.resolve(42))).resolves.toBe(42);
  });
});
