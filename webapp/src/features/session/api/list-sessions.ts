import { api } from '@/lib/api';

/** One signed-in device, as `GET /api/auth/sessions` lists it. */
export interface AuthSession {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  userAgent: string | null;
  /** The session this browser is using. */
  current: boolean;
}

export const listSessionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/auth/sessions`: every device signed in to the account. */
    listSessions: build.query<AuthSession[], void>({
      query: () => '/api/auth/sessions',
      extraOptions: { authenticated: true },
      transformResponse: (response: { sessions: AuthSession[] }) => response.sessions,
      providesTags: ['Sessions'],
    }),
  }),
});

export const { useListSessionsQuery } = listSessionsApi;
