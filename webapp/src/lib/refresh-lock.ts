// Refreshing the session is serialised across the browser's tabs.
//
// Every tab shares the one refresh cookie, and the server rotates it on each use: a token
// presented twice is taken for a stolen copy and ends the session. Two tabs that refresh in the
// same instant (a restored browser window, two dashboard links opened together) would both send
// the same cookie, and the second would sign the person out everywhere. Holding a Web Lock
// around the call makes the second tab wait until the first has its new cookie, so it sends that
// one instead. Where the browser has no Web Locks, the call runs as it is.

/** The lock's name, shared by every tab of this origin. */
export const REFRESH_LOCK_NAME = 'balcao-refresh';

/** Runs `refresh` while holding the cross-tab refresh lock (or directly, without Web Locks). */
export async function withRefreshLock<T>(refresh: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : (navigator as Partial<Navigator>).locks;
  if (locks === undefined) return refresh();
  return locks.request(REFRESH_LOCK_NAME, { mode: 'exclusive' }, () => refresh());
}
