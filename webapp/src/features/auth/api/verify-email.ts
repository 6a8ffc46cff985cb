import { api } from '@/lib/api';

export const verifyEmailApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * `POST /api/auth/verify-email`: confirms an address with the code from the e-mailed link, the
     * sign-up one or the new address of a change of e-mail (the server knows which from the code).
     */
    verifyEmail: build.mutation<void, { oobCode: string }>({
      query: (body) => ({ url: '/api/auth/verify-email', method: 'POST', body }),
      // A change-of-e-mail link moves the account to the new address: both views of it change.
      invalidatesTags: ['CurrentUser', 'Settings'],
    }),
  }),
});

export const { useVerifyEmailMutation } = verifyEmailApi;
