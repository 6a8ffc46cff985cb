// The bearer token the API client attaches. It lives in memory only (this slice), never in
// localStorage; the refresh token is an httpOnly cookie the client never sees. The events below are
// shared facts: the auth feature signs in, the session feature refreshes and signs out, and every
// reducer that cares reacts to them.

import { createAction, createSlice } from '@reduxjs/toolkit';

import type { AuthUser } from '@/types/user';

/** A token counts as expired this long before its real expiry, to absorb clock skew and latency. */
export const EXPIRY_SKEW_MS = 30_000;

/**
 * Why a session ended: the user asked, the server refused to refresh it, the account is disabled, or
 * the person deleted it.
 */
export type SignOutReason = 'user' | 'session-expired' | 'account-disabled' | 'account-deleted';

const withReceivedAt = <T extends object>(payload: T) => ({ payload: { ...payload, receivedAt: Date.now() } });

/** Sign-in or sign-up succeeded. */
export const signedIn = createAction(
  'auth/signedIn',
  (payload: { accessToken: string; expiresIn: number; user: AuthUser }) => withReceivedAt(payload),
);

/** The refresh cookie bought a new access token. */
export const tokenRefreshed = createAction(
  'auth/tokenRefreshed',
  (payload: { accessToken: string; expiresIn: number }) => withReceivedAt(payload),
);

/** The session is over (see `SignOutReason`). */
export const signedOut = createAction<{
  reason: SignOutReason;
  /** With `account-deleted`: the address of the account that is gone, for the end page. */
  email?: string;
}>('auth/signedOut');

/** The API refused the access token (401), or it expired before a call could use it. */
export const accessTokenRejected = createAction('auth/accessTokenRejected');

export interface CredentialsState {
  accessToken: string | null;
  /** When the token really expires (epoch ms). */
  expiresAt: number | null;
}

const initialState: CredentialsState = { accessToken: null, expiresAt: null };

/** True when the token is missing, or within `EXPIRY_SKEW_MS` of its expiry. */
export function isTokenExpired(expiresAt: number | null, now: number): boolean {
  return expiresAt === null || now >= expiresAt - EXPIRY_SKEW_MS;
}

export const credentialsSlice = createSlice({
  name: 'credentials',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    const store = (
      state: CredentialsState,
      { payload }: { payload: { accessToken: string; expiresIn: number; receivedAt: number } },
    ) => {
      state.accessToken = payload.accessToken;
      state.expiresAt = payload.receivedAt + payload.expiresIn * 1000;
    };
    builder
      .addCase(signedIn, store)
      .addCase(tokenRefreshed, store)
      .addCase(signedOut, () => initialState);
  },
  selectors: {
    selectAccessToken: (state) => state.accessToken,
    selectExpiresAt: (state) => state.expiresAt,
  },
});

export const { selectAccessToken, selectExpiresAt } = credentialsSlice.selectors;
