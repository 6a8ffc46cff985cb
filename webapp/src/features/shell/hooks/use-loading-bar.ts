import { useEffect, useEffectEvent, useRef, useState, useSyncExternalStore } from 'react';

import { type LoadingBarState, createLoadingBar } from '../utils/loading-bar-controller';

/**
 * Runs the loading bar while `busy`. `failureMark` grows whenever a request fails; if it grew during
 * the load, the bar finishes in the error colour.
 */
export function useLoadingBar(busy: boolean, failureMark = 0): LoadingBarState {
  const [bar] = useState(() => createLoadingBar());
  const state = useSyncExternalStore(bar.subscribe, bar.getSnapshot);
  const markAtStart = useRef(failureMark);

  const onBusyChange = useEffectEvent((isBusy: boolean) => {
    if (isBusy) {
      markAtStart.current = failureMark;
      bar.start();
    } else {
      bar.finish({ error: failureMark > markAtStart.current });
    }
  });

  useEffect(() => onBusyChange(busy), [busy]);
  useEffect(() => () => bar.dispose(), [bar]);
  return state;
}
