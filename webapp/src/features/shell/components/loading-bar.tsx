import { useNavigation } from 'react-router';

import { useAppSelector } from '@/hooks/store-hooks';
import { selectLastFailureStartedAt, selectPendingRequestCount } from '@/lib/api';

import { useLoadingBar } from '../hooks/use-loading-bar';
import type { LoadingBarState } from '../utils/loading-bar-controller';

/** The 6 px bar itself. Decorative: screen readers get the pages' own status messages instead. */
export function LoadingBarView({ state }: { state: LoadingBarState }) {
  return (
    <div
      className={state.error ? 'loading-bar error' : 'loading-bar'}
      aria-hidden="true"
      data-testid="barra-de-carregamento"
      data-visible={state.visible}
      style={{ transform: `scaleX(${state.progress / 100})`, opacity: state.visible ? 1 : 0 }}
    />
  );
}

/** Runs while the router loads a screen or the user waits for the API. */
export function LoadingBar() {
  const navigating = useNavigation().state !== 'idle';
  const waitingForApi = useAppSelector(selectPendingRequestCount) > 0;
  const failureMark = useAppSelector(selectLastFailureStartedAt);
  const state = useLoadingBar(navigating || waitingForApi, failureMark);
  return <LoadingBarView state={state} />;
}
