import { type PayloadAction, type WithSlice, createAction, createSlice } from '@reduxjs/toolkit';

import { type SignOutReason, signedIn, signedOut, tokenRefreshed } from '@/lib/credentials';
import { rootReducer } from '@/lib/store';

/**
 * `restoring`: trying the refresh cookie (on load, or after "Tentar de novo");
 * `unreachable`: that attempt got no answer, a retry is planned;
 * `signed-in` / `signed-out`: what the server said.
 */
export type SessionStatus = 'restoring' | 'unreachable' | 'signed-in' | 'signed-out';

export interface SessionState {
  status: SessionStatus;
  /** Why the last session ended, for the notice on the sign-in page. */
  signOutReason: SignOutReason | null;
  /** When the next refresh attempt after a network failure is planned (epoch ms). */
  retryAt: number | null;
  /** The address of the account deleted in this tab, for /painel/conta-excluida. */
  deletedEmail: string | null;
}

const initialState: SessionState = { status: 'restoring', signOutReason: null, retryAt: null, deletedEmail: null };

/** The page is in the foreground again (timers may have slept meanwhile). */
export const sessionResumed = createAction('session/resumed');

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    /** The app started, or the visitor asked to try again: restore the session from the cookie. */
    restoreRequested(state) {
      if (state.status === 'signed-in') return;
      state.status = 'restoring';
      state.retryAt = null;
    },
    /** A refresh got no answer; the next try is planned. */
    refreshRetryScheduled(state, action: PayloadAction<{ at: number; failures: number }>) {
      state.retryAt = action.payload.at;
      if (state.status === 'restoring') state.status = 'unreachable';
    },
  },
  extraReducers: (builder) => {
    const signIn = (state: SessionState) => {
      state.status = 'signed-in';
      state.signOutReason = null;
      state.retryAt = null;
    };
    builder
      .addCase(signedIn, signIn)
      .addCase(tokenRefreshed, signIn)
      .addCase(signedOut, (state, { payload }) => {
        // A visitor whose old cookie is refused on load never saw a session: nothing "expired" for them.
        // Nor does a late refusal after the session already ended (a request still in flight when
        // the account was deleted) replace why it ended.
        const hadSession = state.status === 'signed-in';
        if (!hadSession && payload.reason === 'session-expired') {
          if (state.status !== 'signed-out') state.signOutReason = null;
        } else {
          state.signOutReason = payload.reason;
          state.deletedEmail = payload.reason === 'account-deleted' ? (payload.email ?? null) : null;
        }
        state.status = 'signed-out';
        state.retryAt = null;
      });
  },
  selectors: {
    selectSessionStatus: (state) => state.status,
    selectSignOutReason: (state) => state.signOutReason,
    selectRetryAt: (state) => state.retryAt,
    selectDeletedEmail: (state) => state.deletedEmail,
  },
});

declare module '@/lib/store' {
  export interface LazyLoadedSlices extends WithSlice<typeof sessionSlice> {}
}

const injectedSessionSlice = sessionSlice.injectInto(rootReducer);

export const { restoreRequested, refreshRetryScheduled } = sessionSlice.actions;
export const { selectSessionStatus, selectSignOutReason, selectRetryAt, selectDeletedEmail } =
  injectedSessionSlice.selectors;
