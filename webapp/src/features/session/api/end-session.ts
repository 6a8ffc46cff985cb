import { api } from '@/lib/api';

export const endSessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `DELETE /api/auth/sessions/{id}`: signs that device out. */
    endSession: build.mutation<void, string>({
      query: (id) => ({ url: `/api/auth/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      extraOptions: { authenticated: true },
      invalidatesTags: ['Sessions'],
    }),
  }),
});

export const { useEndSessionMutation } = endSessionApi;
