// The one RTK Query API. Features add their endpoints with `api.injectEndpoints` in their own
// `api/` folders; tag types must all be declared here.

import {
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryMeta,
  QueryStatus,
  createApi,
  fetchBaseQuery,
} from '@reduxjs/toolkit/query/react';

import { env } from '@/config/env';

import { type ApiError, toApiError } from './api-error';
import {
  type CredentialsState,
  accessTokenRejected,
  isTokenExpired,
  selectAccessToken,
  selectExpiresAt,
} from './credentials';

export const TAG_TYPES = [
  'CurrentUser',
  'PasswordPolicy',
  'LatestBuild',
  'Settings',
  'Sessions',
  'Workspaces',
  'Members',
  'QrCodes',
  'PaymentLinks',
  'ApiKeys',
  'Webhooks',
  'Signs',
  'PixKeys',
  'Payment',
  'PaymentSummary',
  'Subscription',
  'BankConnections',
] as const;

/** Options an endpoint passes as `extraOptions`. */
export interface ApiExtraOptions {
  /** The call needs a live access token: it is not sent without one, and a 401 asks for a refresh. */
  authenticated?: boolean;
}

// `getState()` is typed `unknown` inside a base query; the credentials slice is always mounted at
// `credentials` by the root reducer in `store.ts`.
type StateWithCredentials = { credentials: CredentialsState };

function liveAccessToken(state: unknown, now: number): string | null {
  const withCredentials = state as StateWithCredentials;
  const token = selectAccessToken(withCredentials);
  return token !== null && !isTokenExpired(selectExpiresAt(withCredentials), now) ? token : null;
}

const urlOf = (args: string | FetchArgs) => (typeof args === 'string' ? args : args.url);

const rawBaseQuery = fetchBaseQuery({
  baseUrl: env.apiOrigin,
  // The token only ever goes to our own JSON API, never to static files such as /builds/latest.json.
  prepareHeaders: (headers, { getState, arg }) => {
    const token = liveAccessToken(getState(), Date.now());
    if (token !== null && urlOf(arg).startsWith('/api/')) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

const failure = (code: string): { error: ApiError } => ({
  error: { status: null, code, serverMessage: null, retryAfterSeconds: null, field: null },
});

export const baseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  ApiError,
  ApiExtraOptions,
  FetchBaseQueryMeta
> = async (
  args,
  queryApi,
  // RTK passes undefined when an endpoint declares no extraOptions.
  extraOptions: ApiExtraOptions | undefined,
) => {
  const authenticated = extraOptions?.authenticated === true;
  if (authenticated && liveAccessToken(queryApi.getState(), Date.now()) === null) {
    // Sending a token we already know is (about to be) expired would only earn a 401 over a slow
    // network: ask the session for a fresh one instead; it refetches the calls that waited.
    const hasToken = selectAccessToken(queryApi.getState() as StateWithCredentials) !== null;
    if (hasToken) queryApi.dispatch(accessTokenRejected());
    return failure(hasToken ? 'token-expired' : 'not-signed-in');
  }
  const result = await rawBaseQuery(args, queryApi, {});
  if (result.error === undefined) return { data: result.data, meta: result.meta };
  const error = toApiError(result.error, result.meta?.response, Date.now());
  if (authenticated && error.status === 401) queryApi.dispatch(accessTokenRejected());
  return { error, meta: result.meta };
};

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAG_TYPES,
  endpoints: () => ({}),
});

type ApiState = ReturnType<typeof api.reducer>;
type StateWithApi = { api: ApiState };

/**
 * Requests the user is waiting for: mutations in flight, and queries loading data they do not have
 * yet (a background refetch of data already on screen does not count).
 */
export function selectPendingRequestCount(state: StateWithApi): number {
  const queries = Object.values(state.api.queries).filter(
    (entry) => entry?.status === QueryStatus.pending && entry.data === undefined,
  );
  const mutations = Object.values(state.api.mutations).filter((entry) => entry?.status === QueryStatus.pending);
  return queries.length + mutations.length;
}

/** When the most recent failed request started (epoch ms), or 0 if none failed. */
export function selectLastFailureStartedAt(state: StateWithApi): number {
  let latest = 0;
  for (const entry of [...Object.values(state.api.queries), ...Object.values(state.api.mutations)]) {
    if (entry?.status === QueryStatus.rejected) latest = Math.max(latest, entry.startedTimeStamp);
  }
  return latest;
}
