import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { selectAccessToken, signedIn, signedOut } from '@/lib/credentials';
import { eventually } from '@/testing/eventually';
import { HOUR, SECOND, T0, elapsedSeconds, useFakeClock } from '@/testing/fake-clock';
import { db, giveBrowserSessionTo, issueAccessToken, seedUser, toAuthUser } from '@/testing/mocks/db';
import { callTimes, requestLog, server } from '@/testing/mocks/server';
import { makeTestStore as makeStore } from '@/testing/test-utils';

import { getMeApi } from '../api/get-me';
import { restoreRequested, selectSessionStatus, selectSignOutReason } from './session-slice';

const TOKEN_CALL = 'POST /api/auth/token';

/** Signed in at T0 the way the auth feature does it: the server set the cookie, `signedIn` says so. */
function signedInStore() {
  const user = seedUser({ email: 'ana@exemplo.com' });
  const store = makeStore();
  giveBrowserSessionTo(user);
  store.dispatch(signedIn({ accessToken: issueAccessToken(user.uid), expiresIn: 3600, user: toAuthUser(user) }));
  expect(selectSessionStatus(store.getState())).toBe('signed-in');
  return { store, user };
}

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

describe('restoring the session on load', () => {
  it('signs the visitor back in with the refresh cookie, with one refresh', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com' }));
    const store = makeStore();
    store.dispatch(restoreRequested());
    await eventually(() => expect(selectSessionStatus(store.getState())).toBe('signed-in'));
    expect(callTimes(TOKEN_CALL)).toHaveLength(1);
    expect(selectAccessToken(store.getState())).toMatch(/^token-/);
  });

  it('treats a visitor without a refresh cookie as signed out, with no "expired" notice', async () => {
    const store = makeStore();
    store.dispatch(restoreRequested());
    await eventually(() => expect(selectSessionStatus(store.getState())).toBe('signed-out'));
    expect(selectSignOutReason(store.getState())).toBeNull();
  });

  it('reports the server as unreachable and retries 30 s later when the first refresh finds no network', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com' }));
    server.use(http.post('/api/auth/token', () => HttpResponse.error(), { once: true }));
    const store = makeStore();
    store.dispatch(restoreRequested());
    await eventually(() => expect(selectSessionStatus(store.getState())).toBe('unreachable'));

    await vi.advanceTimersByTimeAsync(30 * SECOND);
    await eventually(() => expect(selectSessionStatus(store.getState())).toBe('signed-in'));
    expect(callTimes(TOKEN_CALL).map(elapsedSeconds)).toEqual([0, 30]);
  });
});

describe('keeping the session alive', () => {
  it('refreshes a 3600-second token 3300 s after sign-in', async () => {
    signedInStore();
    await vi.advanceTimersByTimeAsync(3300 * SECOND - 1);
    expect(callTimes(TOKEN_CALL)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(callTimes(TOKEN_CALL).map(elapsedSeconds)).toEqual([3300]);
  });

  it('retries at +30 s, +60 s, +120 s … capped at 960 s while the network is down', async () => {
    const { store } = signedInStore();
    server.use(http.post('/api/auth/token', () => HttpResponse.error()));
    await vi.advanceTimersByTimeAsync((3300 + 30 + 60 + 120 + 240 + 480 + 960 + 960) * SECOND);

    const times = callTimes(TOKEN_CALL).map(elapsedSeconds);
    expect(times[0]).toBe(3300);
    expect(times.slice(1).map((at, index) => at - (times[index] ?? 0))).toEqual([30, 60, 120, 240, 480, 960, 960]);
    // Still signed in: a dead network is not a refused session.
    expect(selectSessionStatus(store.getState())).toBe('signed-in');
  });

  it('signs out, with the disabled-account notice, when the refresh says user-disabled', async () => {
    const { store, user } = signedInStore();
    user.disabled = true;
    await vi.advanceTimersByTimeAsync(3300 * SECOND);
    expect(selectSessionStatus(store.getState())).toBe('signed-out');
    expect(selectSignOutReason(store.getState())).toBe('account-disabled');
    expect(selectAccessToken(store.getState())).toBeNull();
  });

  it('signs out with the session-expired notice when the refresh cookie is refused', async () => {
    const { store } = signedInStore();
    db.refreshCookie = null;
    await vi.advanceTimersByTimeAsync(3300 * SECOND);
    expect(selectSessionStatus(store.getState())).toBe('signed-out');
    expect(selectSignOutReason(store.getState())).toBe('session-expired');
  });

  it('stops refreshing after signing out', async () => {
    const { store } = signedInStore();
    store.dispatch(signedOut({ reason: 'user' }));
    await vi.advanceTimersByTimeAsync(24 * HOUR);
    expect(callTimes(TOKEN_CALL)).toEqual([]);
  });

  it('keeps the access token in memory only, never in web storage or cookies', () => {
    const { store } = signedInStore();
    const token = selectAccessToken(store.getState()) ?? 'sem token';
    // eslint-disable-next-line no-restricted-properties -- proving nothing was written there
    expect(window.localStorage).toHaveLength(0);
    // eslint-disable-next-line no-restricted-properties -- proving nothing was written there
    expect(window.sessionStorage).toHaveLength(0);
    expect(document.cookie).not.toContain(token);
  });
});

describe('authenticated calls', () => {
  it('refreshes at once and repeats the call when the API rejects the access token', async () => {
    const { store } = signedInStore();
    db.accessTokens.clear();
    void store.dispatch(getMeApi.endpoints.getMe.initiate(undefined, { forceRefetch: true }));

    await eventually(() => expect(requestLog.filter((entry) => entry.call === 'GET /api/auth/me')).toHaveLength(2));
    await eventually(() => expect(getMeApi.endpoints.getMe.select()(store.getState()).status).toBe('fulfilled'));
    expect(callTimes(TOKEN_CALL)).toEqual([T0]);
  });

  it('does not send a token within 30 s of its expiry: it refreshes first, then calls with the new one', async () => {
    const { store } = signedInStore();
    const oldToken = selectAccessToken(store.getState());
    // The phone slept through the planned refresh: 3571 s later, 29 s before the token expires.
    vi.setSystemTime(T0 + 3571 * SECOND);
    void store.dispatch(getMeApi.endpoints.getMe.initiate(undefined, { forceRefetch: true }));

    await eventually(() => expect(getMeApi.endpoints.getMe.select()(store.getState()).status).toBe('fulfilled'));
    const meCalls = requestLog.filter((entry) => entry.call === 'GET /api/auth/me');
    expect(meCalls).toHaveLength(1);
    expect(meCalls[0]?.headers.get('Authorization')).toBe(`Bearer ${selectAccessToken(store.getState()) ?? ''}`);
    expect(meCalls[0]?.headers.get('Authorization')).not.toBe(`Bearer ${oldToken ?? ''}`);
  });

  it('forgets the account data it cached when the user signs out', () => {
    const { store } = signedInStore();
    expect(getMeApi.endpoints.getMe.select()(store.getState()).data?.email).toBe('ana@exemplo.com');
    store.dispatch(signedOut({ reason: 'user' }));
    expect(getMeApi.endpoints.getMe.select()(store.getState()).data).toBeUndefined();
  });
});
