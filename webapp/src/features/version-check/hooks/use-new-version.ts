import { useEffect, useEffectEvent } from 'react';

import { env } from '@/config/env';

import { useLazyGetLatestBuildQuery } from '../api/get-latest-build';
import { createVersionPoller } from '../utils/version-poller';

/** Whether the server now serves a build other than the one running in this tab. */
export function useNewVersion(): boolean {
  const [checkLatest, { data }] = useLazyGetLatestBuildQuery();
  const check = useEffectEvent(() => {
    void checkLatest();
  });

  useEffect(() => {
    const poller = createVersionPoller(() => check());
    poller.start();
    const onForeground = () => {
      if (document.visibilityState === 'visible') poller.focused();
    };
    window.addEventListener('focus', onForeground);
    document.addEventListener('visibilitychange', onForeground);
    return () => {
      poller.stop();
      window.removeEventListener('focus', onForeground);
      document.removeEventListener('visibilitychange', onForeground);
    };
  }, []);

  const latest = data?.buildId;
  return typeof latest === 'string' && latest !== '' && latest !== env.buildId;
}
