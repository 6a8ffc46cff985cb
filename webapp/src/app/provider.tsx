import type { ReactNode } from 'react';
import { Provider } from 'react-redux';

import { ErrorBoundary } from '@/components/error-boundary';

import type { AppStore } from './store';

/** Everything the screens need around them: the error boundary and the store. */
export function AppProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <ErrorBoundary>
      <Provider store={store}>{children}</Provider>
    </ErrorBoundary>
  );
}
