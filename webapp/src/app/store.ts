import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';

import { addSessionListeners } from '@/features/session/stores/session-listeners';
import { api } from '@/lib/api';
import { type AppDispatch, type RootState, rootReducer } from '@/lib/store';

export interface MakeStoreOptions {
  /** Initial state, for tests (`renderWithProviders`) and nothing else. */
  preloadedState?: Partial<RootState>;
}

/** A fresh store with the API middleware and every feature's listeners. */
export function makeStore({ preloadedState }: MakeStoreOptions = {}) {
  const listeners = createListenerMiddleware<RootState, AppDispatch>();
  const store = configureStore({
    reducer: rootReducer,
    ...(preloadedState ? { preloadedState } : {}),
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().prepend(listeners.middleware).concat(api.middleware),
    // RTK Query's own actions are batched; by default subscribers hear of them on the next animation
    // frame, which background tabs never get and which would start the loading bar's 200 ms
    // throttle a frame late. Notify at the end of the current task instead.
    enhancers: (getDefaultEnhancers) => getDefaultEnhancers({ autoBatch: { type: 'tick' } }),
  });
  addSessionListeners(listeners.startListening);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
