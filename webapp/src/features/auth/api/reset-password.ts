import { api } from '@/lib/api';

export const resetPasswordApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/auth/reset`: sets a new password with the code from the e-mailed link. */
    resetPassword: build.mutation<void, { oobCode: string; newPassword: string }>({
      query: (body) => ({ url: '/api/auth/reset', method: 'POST', body }),
    }),
  }),
});

export const { useResetPasswordMutation } = resetPasswordApi;
