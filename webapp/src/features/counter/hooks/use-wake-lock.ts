import { useEffect, useState } from 'react';

/**
 * Keeps the screen on while mounted and the page is visible, where the browser offers the Screen
 * Wake Lock API: a phone propped at the counter must not go dark between customers. A browser
 * without it, or one that refuses (battery saver, no user gesture yet), simply does not; the lock
 * a browser drops when the tab is hidden is asked again when it comes back. Returns whether the
 * screen is being kept on.
 */
export function useWakeLock(): boolean {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    const wakeLock = typeof navigator === 'undefined' ? undefined : navigator.wakeLock;
    if (wakeLock === undefined) return;
    let sentinel: WakeLockSentinel | null = null;
    let ended = false;
    const ask = async () => {
      if (document.visibilityState !== 'visible' || (sentinel !== null && !sentinel.released)) return;
      try {
        const got = await wakeLock.request('screen');
        if (ended) {
          void got.release();
          return;
        }
        sentinel = got;
        setHeld(true);
        got.addEventListener('release', () => setHeld(false));
      } catch {
        // Refused: the screen may dim as usual; nothing to tell.
        setHeld(false);
      }
    };
    const onVisibility = () => void ask();
    document.addEventListener('visibilitychange', onVisibility);
    void ask();
    return () => {
      ended = true;
      document.removeEventListener('visibilitychange', onVisibility);
      if (sentinel !== null) void sentinel.release().catch(() => undefined);
    };
  }, []);
  return held;
}
