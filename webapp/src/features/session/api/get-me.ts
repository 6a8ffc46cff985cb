import { api } from '@/lib/api';
import type { AuthUser } from '@/types/user';

export const getMeApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/auth/me`: the signed-in account. */
    getMe: build.query<AuthUser, void>({
      query: () => '/api/auth/me',
      extraOptions: { authenticated: true },
      providesTags: ['CurrentUser'],
    }),
  }),
});

export const { useGetMeQuery } = getMeApi;
