import { api } from '@/lib/api';

export const changePasswordApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/account/password`: `wrong-password` for a wrong current one, `weak-password` (422) for a new one the policy refuses. */
    changePassword: build.mutation<void, { currentPassword: string; newPassword: string }>({
      query: (body) => ({ url: '/api/account/password', method: 'POST', body }),
      extraOptions: { authenticated: true },
    }),
  }),
});

export const { useChangePasswordMutation } = changePasswordApi;
