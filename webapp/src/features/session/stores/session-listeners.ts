// Drives the refresh scheduler from the store: one scheduler per store.

import { TAG_TYPES, api } from '@/lib/api';
import { accessTokenRejected, signedIn, signedOut, tokenRefreshed } from '@/lib/credentials';
import type { AppDispatch, AppStartListening } from '@/lib/store';

import { getMeApi } from '../api/get-me';
import { requestRefresh } from '../api/refresh-token';
import { type Clock, type RefreshScheduler, type Timers, createRefreshScheduler } from '../utils/refresh-scheduler';
import { refreshRetryScheduled, restoreRequested, selectSessionStatus, sessionResumed } from './session-slice';

/**
 * A second rejection this soon after a refresh that fixed the first one means the token is not the
 * problem; refreshing again would loop, so the failed call is left to show its error.
 */
const REJECTION_RECOVERY_WINDOW_MS = 60_000;

export interface SessionListenerOptions {
  timers?: Timers;
  clock?: Clock;
}

export function addSessionListeners(
  startListening: AppStartListening,
  options: SessionListenerOptions = {},
): () => void {
  const clock = options.clock ?? { now: () => Date.now() };
  let scheduler: RefreshScheduler | null = null;
  let lastRecoveryAt = Number.NEGATIVE_INFINITY;

  const schedulerFor = (dispatch: AppDispatch) =>
    (scheduler ??= createRefreshScheduler({
      refresh: () => requestRefresh(dispatch),
      onRefreshed: (token) => dispatch(tokenRefreshed(token)),
      onRetryScheduled: (retry) => dispatch(refreshRetryScheduled(retry)),
      onRefused: (reason) => dispatch(signedOut({ reason })),
      clock,
      ...(options.timers ? { timers: options.timers } : {}),
    }));

  const unsubscribers = [
    startListening({
      actionCreator: restoreRequested,
      effect: (_action, listenerApi) => {
        if (selectSessionStatus(listenerApi.getState()) !== 'signed-in')
          void schedulerFor(listenerApi.dispatch).refreshNow();
      },
    }),
    startListening({
      actionCreator: signedIn,
      effect: ({ payload }, { dispatch }) => {
        schedulerFor(dispatch).tokenReceived(payload.expiresIn);
        // Sign-in already returned the account: no need to ask /me for it.
        dispatch(getMeApi.util.upsertQueryEntries([{ endpointName: 'getMe', arg: undefined, value: payload.user }]));
      },
    }),
    startListening({
      actionCreator: accessTokenRejected,
      effect: async (_action, { dispatch }) => {
        if (clock.now() - lastRecoveryAt < REJECTION_RECOVERY_WINDOW_MS) return;
        const outcome = await schedulerFor(dispatch).refreshNow();
        if (outcome.kind !== 'refreshed') return;
        lastRecoveryAt = clock.now();
        dispatch(api.util.invalidateTags([...TAG_TYPES]));
      },
    }),
    startListening({
      actionCreator: sessionResumed,
      effect: (_action, { dispatch }) => schedulerFor(dispatch).resume(),
    }),
    startListening({
      actionCreator: signedOut,
      effect: (_action, listenerApi) => {
        schedulerFor(listenerApi.dispatch).stop();
        // Whatever the account's screens cached must not outlive its session on a shared phone.
        if (selectSessionStatus(listenerApi.getOriginalState()) === 'signed-in')
          listenerApi.dispatch(api.util.resetApiState());
      },
    }),
  ];

  return () => {
    scheduler?.stop();
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}
