import { api } from '@/lib/api';

export const resetPasswordApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/auth/reset`: sets a new password with the code from the e-mailed link. */
    /**
     * `POST /api/auth/reset/check`: whether the e-mailed link still works, without using it, so
     * the page can say a spent link is spent before anyone types a new password.
     */
    checkResetCode: build.query<void, string>({
      query: (oobCode) => ({ url: '/api/auth/reset/check', method: 'POST', body: { oobCode } }),
      keepUnusedDataFor: 0,
    }),
    resetPassword: build.mutation<void, { oobCode: string; newPassword: string }>({
      query: (body) => ({ url: '/api/auth/reset', method: 'POST', body }),
    }),
  }),
});

export const { useCheckResetCodeQuery, useResetPasswordMutation } = resetPasswordApi;
