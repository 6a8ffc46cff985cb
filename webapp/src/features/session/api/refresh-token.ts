import { api } from '@/lib/api';
import { type ApiError, asApiError } from '@/lib/api-error';
import { withRefreshLock } from '@/lib/refresh-lock';
import type { AppDispatch } from '@/lib/store';
import type { TokenResponse } from '@/types/user';

import type { RefreshOutcome } from '../utils/refresh-scheduler';

export const refreshTokenApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/auth/token`: the httpOnly cookie carries the refresh token. */
    refreshToken: build.mutation<TokenResponse, void>({
      query: () => ({
        url: '/api/auth/token',
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'refresh_token' }),
      }),
    }),
  }),
});

function isTokenResponse(data: unknown): data is TokenResponse {
  if (typeof data !== 'object' || data === null) return false;
  const { accessToken, expiresIn } = data as Record<string, unknown>;
  return typeof accessToken === 'string' && accessToken !== '' && typeof expiresIn === 'number' && expiresIn > 0;
}

/**
 * What a failed refresh means: the cookie was refused (400/401/403, or the account is disabled)
 * and the session is over; anything else (no network, 429, 5xx) is worth retrying later.
 */
export function classifyRefreshError(error: ApiError): RefreshOutcome {
  if (error.code === 'user-disabled') return { kind: 'refused', reason: 'account-disabled' };
  if (error.status === 400 || error.status === 401 || error.status === 403) {
    return { kind: 'refused', reason: 'session-expired' };
  }
  return { kind: 'unreachable', retryAfterSeconds: error.retryAfterSeconds };
}

/**
 * One refresh call, one tab at a time (see `lib/refresh-lock.ts`). Untracked, so a background
 * refresh never shows the loading bar.
 */
export async function requestRefresh(dispatch: AppDispatch): Promise<RefreshOutcome> {
  const result = await withRefreshLock(() =>
    dispatch(refreshTokenApi.endpoints.refreshToken.initiate(undefined, { track: false })),
  );
  if (result.error !== undefined) return classifyRefreshError(asApiError(result.error));
  if (!isTokenResponse(result.data)) return { kind: 'unreachable', retryAfterSeconds: null };
  return { kind: 'refreshed', accessToken: result.data.accessToken, expiresIn: result.data.expiresIn };
}
