import { useEffect } from 'react';

import { useAppDispatch } from '@/hooks/store-hooks';

import { restoreRequested, sessionResumed } from '../stores/session-slice';

/** Restores the session once when the app starts, and re-checks it when the page comes back. */
export function useSessionLifecycle(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(restoreRequested());
    const onForeground = () => {
      if (document.visibilityState === 'visible') dispatch(sessionResumed());
    };
    document.addEventListener('visibilitychange', onForeground);
    window.addEventListener('focus', onForeground);
    return () => {
      document.removeEventListener('visibilitychange', onForeground);
      window.removeEventListener('focus', onForeground);
    };
  }, [dispatch]);
}
