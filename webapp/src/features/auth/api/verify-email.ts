import { api } from '@/lib/api';

export const verifyEmailApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/auth/verify-email`: confirms the address with the code from the e-mailed link. */
    verifyEmail: build.mutation<void, { oobCode: string }>({
      query: (body) => ({ url: '/api/auth/verify-email', method: 'POST', body }),
      invalidatesTags: ['CurrentUser'],
    }),
  }),
});

export const { useVerifyEmailMutation } = verifyEmailApi;
