import { api } from '@/lib/api';

export const revokeSessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/auth/revoke`: ends this session (or all of the account's sessions). */
    revokeSession: build.mutation<void, { allDevices: boolean }>({
      query: (body) => ({ url: '/api/auth/revoke', method: 'POST', body }),
    }),
  }),
});

export const { useRevokeSessionMutation } = revokeSessionApi;
